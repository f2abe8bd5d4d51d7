//===- ModelLibrary.cpp - a .cavs model as a shared object ----------------===//
//
// Only the two entry points of the descriptor are exported (a linker version
// script): kernels and phase functions are internal to the library, so two
// model libraries never clash.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/ModelLibrary.h"

#include "compiler/Conversion/CudaKernels.h"
#include "compiler/Conversion/RuntimeLowering.h"
#include "compiler/Pipelines/Pipelines.h"
#include "compiler/Target/CudaCompiler.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"

using namespace mlir;
using namespace cavs;

FailureOr<OwningOpRef<ModuleOp>>
cavs::optimizeModel(ModuleOp frontend, const OptimizationSwitches &sw,
                    bool autodiff) {
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

namespace {
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

/// A temporary file removed when this goes out of scope, or when a signal
/// (SIGTERM, SIGINT) ends cavsc before that.
struct TempFile {
  llvm::SmallString<128> path;
  bool created = false;
  TempFile() = default;
  TempFile(const TempFile &) = delete;
  TempFile &operator=(const TempFile &) = delete;
  ~TempFile() {
    if (!created)
      return;
    llvm::sys::fs::remove(path);
    llvm::sys::DontRemoveFileOnSignal(path);
  }
  LogicalResult create(StringRef suffix, std::string &error) {
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile("cavsc", suffix, path)) {
      // Say where: a $TMPDIR that does not exist is the usual cause.
      llvm::SmallString<128> folder;
      llvm::sys::path::system_temp_directory(/*erasedOnReboot=*/true, folder);
      error = "cannot create a temporary file in '" + folder.str().str() +
              "' ($TMPDIR): " + ec.message();
      return failure();
    }
    created = true;
    llvm::sys::RemoveFileOnSignal(path);
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

/// The phase function symbols of `model` (optimized, planned) under
/// `prefix`, as cavs-lower-to-runtime names them: one per phase with ops.
/// Without code, every symbol is empty.
static CompiledProgram programSymbols(ModelOp model, StringRef prefix,
                                      bool hasCode) {
  CompiledProgram program{model, {}, hasCode};
  for (auto vertex : model.getBody().getOps<VertexOp>()) {
    VertexFunctionSymbols entry{vertex, {}};
    BackwardOp backward = vertex.getBackward();
    for (unsigned phase = 0; phase < kPhaseNames.size(); ++phase) {
      bool isBackward = phase >= 3;
      if (!hasCode || (isBackward && !backward))
        continue;
      Block &block =
          isBackward ? backward.getBody().front() : vertex.getBody().front();
      auto kind = BatchingKindAttr::get(model.getContext(),
                                        static_cast<BatchingKind>(phase % 3));
      bool hasOps = llvm::any_of(block, [&](Operation &op) {
        return isBatchedOp(&op) &&
               op.getAttr(CavsDialect::kBatchingAttrName) == kind;
      });
      if (hasOps)
        entry.phases[phase] = phaseFunctionName(prefix, vertex, phase);
    }
    program.functions.push_back(std::move(entry));
  }
  return program;
}

/// Lowers copies of the two programs, named `names`, for `device` and moves
/// the result into `code`.
static LogicalResult lowerPrograms(ModelOp train, ModelOp infer,
                                   std::array<std::string, 2> names,
                                   StringRef device, ModuleOp code) {
  OwningOpRef<ModuleOp> lowered = ModuleOp::create(train.getLoc());
  OpBuilder b(lowered->getBodyRegion());
  for (auto [model, name] : llvm::zip(std::array{train, infer}, names)) {
    auto copy = cast<ModelOp>(b.clone(*model.getOperation()));
    copy.setSymName(name);
  }
  LowerOptions options;
  options.device = device.str();
  PassManager pm(train.getContext());
  buildLowerToRuntimePipeline(pm, options);
  if (failed(pm.run(*lowered)))
    return failure();
  // Every symbol carries its program's name, so the two never clash.
  code.getBody()->getOperations().splice(code.getBody()->end(),
                                         lowered->getBody()->getOperations());
  return success();
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
  std::array<std::string, 2> names = {name.str() + "_cuda_train",
                                      name.str() + "_cuda_infer"};
  if (failed(lowerPrograms(train, infer, names, "cuda", *code.code)))
    return failure();
  cuda.train = programSymbols(train, names[0], /*hasCode=*/true);
  cuda.infer = programSymbols(infer, names[1], /*hasCode=*/true);
  code.cuda = std::move(cuda);
  return success();
}

FailureOr<ModelCode> cavs::generateModelCode(ModuleOp frontend,
                                             const OptimizationSwitches &sw,
                                             const Targets &targets) {
  ModelCode code;
  // Stop at the first failure: the other program would report it again.
  auto trainIR = optimizeModel(frontend, sw, /*autodiff=*/true);
  if (failed(trainIR))
    return failure();
  auto inferIR = optimizeModel(frontend, sw, /*autodiff=*/false);
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
  std::array<std::string, 2> names = {name + "_train", name + "_infer"};
  code.train = programSymbols(*train, names[0], targets.cpu);
  code.infer = programSymbols(*infer, names[1], targets.cpu);
  if (targets.cuda && failed(generateCudaCode(code, name)))
    return failure();
  if (targets.cpu &&
      failed(lowerPrograms(*train, *infer, names, "cpu", *code.code)))
    return failure();
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
        failed(compileCuda(code.cuda->source, name, CudaBinary::Ptx, image->ptx,
                           error)))
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
