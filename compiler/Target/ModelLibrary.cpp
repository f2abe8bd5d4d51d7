//===- ModelLibrary.cpp - a .cavs model as a shared object ----------------===//
//
// Only the two entry points of the descriptor are exported (a linker version
// script): kernels and phase functions are internal to the library, so two
// model libraries never clash.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/ModelLibrary.h"

#include "compiler/Pipelines/Pipelines.h"
#include "compiler/Target/CudaCompiler.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace cavs;

namespace {
/// A copy of `frontend` optimized with or without ∂F.
FailureOr<OwningOpRef<ModuleOp>>
optimize(ModuleOp frontend, const OptimizationSwitches &sw, bool autodiff) {
  OwningOpRef<ModuleOp> module = frontend.clone();
  OptimizeOptions options;
  options.autodiff = autodiff;
  options.setSwitches(sw);
  PassManager pm(frontend.getContext());
  buildOptimizePipeline(pm, options);
  if (failed(pm.run(*module)))
    return failure();
  return module;
}

FailureOr<ModelOp> singleModel(ModuleOp module) {
  auto models = module.getOps<ModelOp>();
  if (models.empty() || std::next(models.begin()) != models.end())
    return module.emitError("expected exactly one cavs.model"), failure();
  return *models.begin();
}

/// Both programs must index the same parameter table.
LogicalResult checkSameParams(const ParamOrder &order, ModelOp infer) {
  ParamOrder other = ParamOrder::compute(infer);
  for (const auto &entry : other.tableIndex) {
    auto match = order.tableIndex.find(entry.getKey());
    if (match == order.tableIndex.end() || match->second != entry.getValue())
      return infer.emitError("the inference program's parameter '")
             << entry.getKey() << "' differs from the training program's";
  }
  return success();
}

/// A temporary file removed when this goes out of scope.
struct TempFile {
  llvm::SmallString<128> path;
  std::optional<llvm::FileRemover> remover;
  LogicalResult create(StringRef suffix, std::string &error) {
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile("cavsc", suffix, path)) {
      error = "cannot create a temporary file: " + ec.message();
      return failure();
    }
    remover.emplace(path);
    return success();
  }
};

/// Writes `path` with `write(os)`.
template <typename Fn>
LogicalResult writeFile(StringRef path, std::string &error, Fn write) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    error = "cannot write '" + path.str() + "': " + ec.message();
    return failure();
  }
  return write(os);
}
} // namespace

/// The vertex functions of `model` without phase functions: the program of
/// a library without CPU code.
static CompiledProgram withoutCode(ModelOp model) {
  CompiledProgram program{model, {}, /*hasCode=*/false};
  for (auto vertex : model.getBody().getOps<VertexOp>())
    program.functions.push_back({vertex, {}});
  return program;
}

/// Adds the CUDA kernels and phase functions of both programs to `code`.
static LogicalResult generateCudaCode(ModelCode &code, StringRef name) {
  ModelOp train = code.train.model, infer = code.infer.model;
  SmallVector<CudaProgram> programs = {{train, name.str() + "_train"},
                                       {infer, name.str() + "_infer"}};
  CudaCode cuda;
  llvm::raw_string_ostream source(cuda.source);
  FailureOr<std::vector<std::string>> kernels =
      emitCudaKernels(programs, source);
  if (failed(kernels))
    return failure();
  cuda.kernels = std::move(*kernels);
  CudaKernelIndex numbers = numberCudaKernels(programs);
  auto trainPhases = buildCudaPhaseFunctions(train, code.order, *code.code,
                                             name.str() + "_cuda_train", numbers);
  if (failed(trainPhases))
    return failure();
  auto inferPhases = buildCudaPhaseFunctions(infer, code.order, *code.code,
                                             name.str() + "_cuda_infer", numbers);
  if (failed(inferPhases))
    return failure();
  cuda.train = {train, std::move(*trainPhases)};
  cuda.infer = {infer, std::move(*inferPhases)};
  code.cuda = std::move(cuda);
  return success();
}

FailureOr<ModelCode> cavs::generateModelCode(ModuleOp frontend,
                                             const OptimizationSwitches &sw,
                                             const Targets &targets) {
  ModelCode code;
  // Stop at the first failure: the other program would report it again.
  auto trainIR = optimize(frontend, sw, /*autodiff=*/true);
  if (failed(trainIR))
    return failure();
  auto inferIR = optimize(frontend, sw, /*autodiff=*/false);
  if (failed(inferIR))
    return failure();
  code.trainIR = std::move(*trainIR);
  code.inferIR = std::move(*inferIR);
  FailureOr<ModelOp> train = singleModel(*code.trainIR);
  FailureOr<ModelOp> infer = singleModel(*code.inferIR);
  if (failed(train) || failed(infer))
    return failure();
  code.order = ParamOrder::compute(*train);
  if (failed(checkSameParams(code.order, *infer)))
    return failure();

  code.code = ModuleOp::create(frontend.getLoc());
  std::string name = train->getSymName().str();
  code.train = withoutCode(*train);
  code.infer = withoutCode(*infer);
  if (targets.cuda && failed(generateCudaCode(code, name)))
    return failure();
  if (!targets.cpu)
    return code;
  // After the CUDA code: the CPU kernels' names go into the fused ops.
  auto trainFunctions =
      buildPhaseFunctions(*train, code.order, *code.code, name + "_train");
  if (failed(trainFunctions))
    return failure();
  auto inferFunctions =
      buildPhaseFunctions(*infer, code.order, *code.code, name + "_infer");
  if (failed(inferFunctions))
    return failure();
  code.train = {*train, std::move(*trainFunctions)};
  code.infer = {*infer, std::move(*inferFunctions)};
  return code;
}

LogicalResult cavs::writeModelLibrary(ModelCode &code, const CpuTarget &target,
                                      const RuntimeLocation &runtime,
                                      StringRef sourceName, StringRef output,
                                      std::string &error) {
  TempFile object, descriptor, exports;
  if (failed(object.create("o", error)) ||
      failed(descriptor.create("c", error)) ||
      failed(exports.create("map", error)))
    return failure();
  if (failed(lowerToLLVMDialect(*code.code)))
    return failure();
  if (failed(writeFile(object.path, error, [&](llvm::raw_ostream &os) {
        return emitLLVM(*code.code, target, os, /*object=*/true);
      })))
    return failure();
  std::optional<CudaImage> image;
  if (code.cuda) {
    image.emplace();
    image->code = &*code.cuda;
    std::string name = (code.train.model.getSymName() + ".cu").str();
    if (failed(compileCuda(code.cuda->source, name, CudaBinary::Cubin,
                           image->cubin, error)) ||
        failed(compileCuda(code.cuda->source, name, CudaBinary::Ptx,
                           image->ptx, error)))
      return failure();
  }
  if (failed(writeFile(descriptor.path, error, [&](llvm::raw_ostream &os) {
        writeDescriptorSource(code.order, code.train, code.infer,
                              image ? &*image : nullptr, sourceName, os);
        return success();
      })))
    return failure();
  if (failed(writeFile(exports.path, error, [&](llvm::raw_ostream &os) {
        os << "{\n  global:";
        for (const std::string &symbol : exportedSymbols(code.train.model))
          os << " " << symbol << ";";
        os << "\n  local: *;\n};\n";
        return success();
      })))
    return failure();

  std::vector<std::string> arguments = {
      "-fPIC",
      "-O2",
      "-I" + runtime.includeDir,
      std::string(object.path),
      std::string(descriptor.path),
      "-Wl,--version-script=" + std::string(exports.path),
      "-Wl,-soname," + llvm::sys::path::filename(output).str(),
      "-L" + runtime.libraryDir,
      "-Wl,-rpath," + runtime.libraryDir,
      "-lcavs_runtime"};
  return linkSharedObject({}, output, arguments, error);
}
