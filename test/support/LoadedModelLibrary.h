//===- LoadedModelLibrary.h - a model library built and loaded by a test -===//
//
// The model-library tests compile a frontend module as cavsc does into a
// temporary shared object and load it with dlopen. With CUDA in the build
// the library also carries CUDA code, which must not change how it runs on
// the CPU. Failures are gtest failures; the library is unloaded and its
// file removed with the object. Tests using it define
// CAVS_RUNTIME_LIBRARY_DIR and CAVS_RUNTIME_INCLUDE_DIR.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_TEST_SUPPORT_LOADEDMODELLIBRARY_H
#define CAVS_TEST_SUPPORT_LOADEDMODELLIBRARY_H

#include "compiler/Config.h"
#include "compiler/Target/ModelLibrary.h"

#include "cavs/program.h"

#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <optional>
#include <string>

namespace cavs::test {

class LoadedModelLibrary {
public:
  LoadedModelLibrary() = default;
  LoadedModelLibrary(const LoadedModelLibrary &) = delete;
  LoadedModelLibrary &operator=(const LoadedModelLibrary &) = delete;
  ~LoadedModelLibrary() {
    if (handle_)
      dlclose(handle_);
    if (!path_.empty())
      llvm::sys::fs::remove(path_);
  }

  /// Compiles the frontend's `module` (left unchanged) with `switches` and
  /// loads the library; `sourceName` is quoted in its generated source.
  void load(mlir::ModuleOp module, const OptimizationSwitches &switches,
            llvm::StringRef sourceName) {
    auto generated = generateModelCode(module, switches,
                                       Targets{/*cpu=*/true, CAVS_HAVE_CUDA});
    ASSERT_TRUE(mlir::succeeded(generated));
    code_.emplace(std::move(*generated));
    llvm::SmallString<128> path;
    ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("cavs-model", "so", path));
    path_ = std::string(path);
    std::string error;
    ASSERT_TRUE(mlir::succeeded(writeModelLibrary(
        *code_, CpuTarget{"native", 2},
        RuntimeLocation{CAVS_RUNTIME_LIBRARY_DIR, CAVS_RUNTIME_INCLUDE_DIR},
        sourceName, path_, error)))
        << error;
    handle_ = dlopen(path_.c_str(), RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(handle_, nullptr) << dlerror();
    std::string entry = trainModel().getSymName().str() + "_model_def";
    auto getDefinition = reinterpret_cast<const cavs_model_def *(*)()>(
        dlsym(handle_, entry.c_str()));
    ASSERT_NE(getDefinition, nullptr) << entry << ": " << dlerror();
    definition_ = getDefinition();
  }

  /// The training program (F and ∂F) as compiled.
  ModelOp trainModel() { return *code_->trainIR->getOps<ModelOp>().begin(); }
  /// The CUDA kernels' source and names; null in a build without CUDA.
  const CudaCode *cuda() const {
    return code_ && code_->cuda ? &*code_->cuda : nullptr;
  }
  /// The library's definition; null until load() succeeded.
  const cavs_model_def *definition() const { return definition_; }

private:
  std::optional<ModelCode> code_;
  std::string path_;
  void *handle_ = nullptr;
  const cavs_model_def *definition_ = nullptr;
};

} // namespace cavs::test

#endif // CAVS_TEST_SUPPORT_LOADEDMODELLIBRARY_H
