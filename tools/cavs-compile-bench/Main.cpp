//===- Main.cpp - cavs-compile-bench: compile time against model size -----===//
//
// Times `cavsc --emit=stats` (frontend and the whole optimization pipeline)
// on generated vertex functions of 1k to 60k operations, as the frontend's
// limit of 65,536 counts them (`size`; `ir_ops` is what the cavs dialect
// gets), one Google Benchmark per size, and fits the growth (the BigO line;
// it must stay near-linear). --print-model=N writes the generated model of
// size N instead, for tests. A compiler that cannot compile a small model
// stops the run before any timing, and a size that fails makes the exit
// status 1.
//
//===----------------------------------------------------------------------===//
#include "LargeModel.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace {

using cavs::bench::LargeModel;

struct Options {
  std::string cavsc;
  std::string emit = "stats";
  std::optional<int64_t> printModel;
};
Options options;

/// What --emit may name: the outputs whose time is the compiler's.
constexpr const char *kEmits[] = {"stats", "mlir-optimized", "llvm", "obj",
                                  "so"};

/// Whether a size failed to compile (the exit status says so).
bool anyFailed = false;

/// A temporary file holding the model of `units`, and one for cavsc's
/// output (a shared object must be written to a regular file); both are
/// removed with it.
struct ModelFiles {
  llvm::SmallString<128> source, output;
  std::string error;

  explicit ModelFiles(const LargeModel &model) {
    if (std::error_code code =
            llvm::sys::fs::createTemporaryFile("large", "cavs", source)) {
      error = "cannot create a temporary file: " + code.message();
      return;
    }
    if (std::error_code code =
            llvm::sys::fs::createTemporaryFile("large", "out", output)) {
      error = "cannot create a temporary file: " + code.message();
      return;
    }
    std::error_code code;
    llvm::raw_fd_ostream out(source, code);
    out << model.source;
    out.close();
    if (code || out.has_error())
      error = "cannot write '" + source.str().str() + "'";
  }
  ~ModelFiles() {
    if (!source.empty())
      llvm::sys::fs::remove(source);
    if (!output.empty())
      llvm::sys::fs::remove(output);
  }
};

/// Runs cavsc on the model once; the error text when it fails.
std::optional<std::string> compile(const ModelFiles &files) {
  const std::string emit = "--emit=" + options.emit;
  llvm::SmallVector<llvm::StringRef> args = {options.cavsc, files.source, emit,
                                             "-o", files.output};
  std::string error;
  const int status = llvm::sys::ExecuteAndWait(options.cavsc, args,
                                               std::nullopt, {}, 0, 0, &error);
  if (status == 0)
    return std::nullopt;
  return "cavsc exited with status " + std::to_string(status) +
         (error.empty() ? "" : ": " + error);
}

void compileTime(benchmark::State &state) {
  const LargeModel model = cavs::bench::largeModel(state.range(0));
  ModelFiles files(model);
  if (!files.error.empty()) {
    anyFailed = true;
    state.SkipWithError(files.error.c_str());
    return;
  }
  for (auto _ : state)
    if (std::optional<std::string> failure = compile(files)) {
      anyFailed = true;
      state.SkipWithError(failure->c_str());
      break;
    }
  state.SetComplexityN(model.units);
  state.counters["size"] = double(model.units);
  state.counters["ir_ops"] = double(model.ops);
  state.counters["size/s"] = benchmark::Counter(
      double(model.units), benchmark::Counter::kIsIterationInvariantRate);
}

std::string usage() {
  return "usage: cavs-compile-bench [options] [--benchmark_* flags]\n"
         "Times cavsc on generated vertex functions of 1k, 5k, 20k and 60k\n"
         "operations (as the frontend's limit of 65,536 counts them) and\n"
         "fits the growth of compile time with size.\n\n"
         "  --cavsc=PATH       the compiler (default: the cavsc next to\n"
         "                     cavs-compile-bench)\n"
         "  --emit=KIND        what cavsc emits: stats (default: frontend\n"
         "                     and optimization pipeline), mlir-optimized,\n"
         "                     llvm, obj or so (the whole library)\n"
         "  --print-model=N    print the generated model of size N and exit\n"
         "  --help             print this text\n";
}

} // namespace

int main(int argc, char **argv) {
  std::vector<char *> benchmarkArgs = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    int64_t ops = 0;
    if (arg == "--help" || arg == "-h") {
      llvm::outs() << usage();
      return 0;
    } else if (arg.consume_front("--cavsc=")) {
      if (arg.empty()) {
        llvm::errs() << "cavs-compile-bench: --cavsc needs a path "
                        "(--cavsc=PATH)\n";
        return 2;
      }
      options.cavsc = arg.str();
    } else if (arg.consume_front("--emit=")) {
      if (llvm::find(kEmits, arg) == std::end(kEmits)) {
        llvm::errs() << "cavs-compile-bench: --emit expects stats, "
                        "mlir-optimized, llvm, obj or so, got '"
                     << arg << "'\n";
        return 2;
      }
      options.emit = arg.str();
    } else if (arg.consume_front("--print-model=")) {
      if (arg.getAsInteger(10, ops) || ops < 1) {
        llvm::errs() << "cavs-compile-bench: --print-model expects a "
                        "positive size, got '"
                     << arg << "'\n";
        return 2;
      }
      options.printModel = ops;
    } else {
      benchmarkArgs.push_back(argv[i]);
    }
  }
  if (options.printModel) {
    llvm::outs() << cavs::bench::largeModel(*options.printModel).source;
    return 0;
  }
  if (options.cavsc.empty()) {
    llvm::SmallString<256> cavsc(
        llvm::sys::fs::getMainExecutable(argv[0], (void *)&usage));
    llvm::sys::path::remove_filename(cavsc);
    llvm::sys::path::append(cavsc, "cavsc");
    options.cavsc = cavsc.str().str();
  }
  // Google Benchmark cannot fit a growth to sizes that all failed (it
  // crashed), and a compiler that fails on a small model fails on all.
  {
    const ModelFiles files(cavs::bench::largeModel(100));
    std::optional<std::string> failure =
        files.error.empty() ? compile(files) : files.error;
    if (failure) {
      llvm::errs() << "cavs-compile-bench: cannot compile a small model with "
                   << options.cavsc << " --emit=" << options.emit << ": "
                   << *failure << "\n";
      return 1;
    }
  }
  llvm::outs() << "cavsc: " << options.cavsc << " --emit=" << options.emit
               << "\n";
  llvm::outs().flush();

  benchmark::RegisterBenchmark("compile_time", compileTime)
      ->Arg(1000)
      ->Arg(5000)
      ->Arg(20000)
      ->Arg(60000)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime()
      ->Complexity(benchmark::oN);
  int benchmarkArgc = int(benchmarkArgs.size());
  benchmarkArgs.push_back(nullptr);
  benchmark::Initialize(&benchmarkArgc, benchmarkArgs.data());
  if (benchmark::ReportUnrecognizedArguments(benchmarkArgc,
                                             benchmarkArgs.data()))
    return 2;
  // Google Benchmark reports a --benchmark_filter that matches nothing or
  // does not compile, but does not fail.
  const bool ran = benchmark::RunSpecifiedBenchmarks() > 0;
  benchmark::Shutdown();
  if (!ran)
    std::fprintf(stderr, "cavs-compile-bench: no benchmark ran\n");
  else if (anyFailed)
    std::fprintf(stderr, "cavs-compile-bench: a model failed to compile\n");
  return ran && !anyFailed ? 0 : 1;
}
