//===- ModelCache.h - compiled model libraries, on demand -------*- C++ -*-===//
//
// cavs-bench compiles what it benchmarks: for a model file, a hidden size
// and cavsc flags it runs
//   cavsc model.cavs -D H=h [-D E=h] [flags] --runtime-dir=<runtime> -o lib.so
// into a cache folder, reusing a library newer than both the model file and
// cavsc, then dlopens it and returns its <model>_model_def(). Library names
// carry a key of the cavsc and runtime paths, so builds never share them.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_BENCH_MODELCACHE_H
#define CAVS_BENCH_MODELCACHE_H

#include "cavs/program.h"

#include <string>
#include <vector>

namespace cavs::bench {

/// What cavs-bench needs to know about a .cavs file: its `model X;` name
/// and which dims it declares (-D may only name those).
struct ModelSource {
  std::string path;
  std::string name;
  std::vector<std::string> dims;

  /// Reads `path`; throws std::runtime_error when it cannot be read or has
  /// no `model X;` line.
  static ModelSource read(const std::string &path);
  bool hasDim(const std::string &dim) const;
};

/// One way to compile a model: extra cavsc flags, named for the library
/// file and the reports.
struct Variant {
  /// Empty for the default pipeline (every optimization on).
  std::string name;
  std::vector<std::string> cavscFlags;
};

/// A compiled and loaded model library.
struct CompiledModel {
  std::string libraryPath;
  /// Whether the library was reused from the cache.
  bool cached = false;
  const cavs_model_def *def = nullptr;
};

class ModelCache {
public:
  /// `cavsc` and `folder` empty select the defaults (the cavsc next to this
  /// executable, $TMPDIR/cavs-bench-cache); `cuda`: libraries also get CUDA
  /// code (--target=cpu,cuda); a cavsc that runs past `timeLimitSeconds`
  /// is killed (a hung compiler would stall the run). Throws
  /// std::runtime_error when cavsc is missing or the folder cannot be
  /// created.
  ModelCache(std::string cavsc, std::string folder, bool cuda,
             double timeLimitSeconds);

  /// Compiles (or reuses) and loads `source` at hidden size `hidden`.
  /// Throws std::runtime_error with cavsc's output when it fails, or when
  /// the library cannot be loaded. Libraries stay loaded until exit.
  CompiledModel get(const ModelSource &source, int32_t hidden,
                    const Variant &variant);

  const std::string &cavsc() const { return cavsc_; }
  const std::string &folder() const { return folder_; }

private:
  std::string cavsc_;
  std::string folder_;
  /// Names this cavsc and runtime in library names (see the constructor).
  std::string buildKey_;
  bool cuda_;
  double timeLimitSeconds_;
  /// The folder of the libcavs_runtime.so this process runs with.
  std::string runtimeDir_;
};

} // namespace cavs::bench

#endif // CAVS_BENCH_MODELCACHE_H
