//===- CompileDriver.cpp - from cavs IR to what cavsc writes --------------===//

#include "compiler/Target/CompileDriver.h"

#include "compiler/Analysis/ModelStats.h"
#include "compiler/Target/CudaCompiler.h"

using namespace mlir;
using namespace cavs;

/// The optimized IR alone (--emit=mlir-optimized, --emit=stats): the
/// training program, as one optimization pipeline makes it.
static LogicalResult emitOptimized(ModuleOp frontend,
                                   const CompileRequest &request,
                                   raw_ostream &os) {
  FailureOr<OwningOpRef<ModuleOp>> module =
      optimizeModel(frontend, request.switches, /*autodiff=*/true);
  if (failed(module))
    return failure();
  if (request.emit == Emit::OptimizedMLIR) {
    (*module)->print(os);
    return success();
  }
  for (auto model : (*module)->getOps<ModelOp>())
    printModelStats(model, os);
  return success();
}

/// The CUDA C source of both programs' kernels, or what NVRTC makes of it.
static LogicalResult emitCuda(ModelCode &code, Emit emit, raw_ostream &os,
                              std::string &error) {
  const std::string &source = code.cuda->source;
  if (emit == Emit::Cuda) {
    os << source;
    return success();
  }
  std::string name = (code.train.model.getSymName() + ".cu").str();
  std::string binary;
  if (failed(compileCuda(
          source, name, emit == Emit::Ptx ? CudaBinary::Ptx : CudaBinary::Cubin,
          binary, error)))
    return failure();
  os << binary;
  return success();
}

LogicalResult cavs::compileModel(ModuleOp frontend,
                                 const CompileRequest &request, raw_ostream &os,
                                 std::string &error) {
  switch (request.emit) {
  case Emit::AST:
  case Emit::MLIR:
    return frontend.emitError("the frontend writes the AST and the MLIR");
  case Emit::Header:
    for (auto model : frontend.getOps<ModelOp>())
      writeModelHeader(model, request.sourceName, os);
    return success();
  case Emit::OptimizedMLIR:
  case Emit::Stats:
    return emitOptimized(frontend, request, os);
  case Emit::Cuda:
  case Emit::Ptx:
  case Emit::Cubin:
  case Emit::LLVM:
  case Emit::Object:
  case Emit::SO:
    break;
  }

  bool cudaOutput = request.emit == Emit::Cuda || request.emit == Emit::Ptx ||
                    request.emit == Emit::Cubin;
  Targets targets = request.targets;
  targets.cuda |= cudaOutput;
  FailureOr<ModelCode> code =
      generateModelCode(frontend, request.switches, targets);
  if (failed(code))
    return failure();
  if (cudaOutput)
    return emitCuda(*code, request.emit, os, error);
  if (request.emit == Emit::SO)
    return writeModelLibrary(*code, request.cpu, request.runtime,
                             request.sourceName, request.output, error);
  if (failed(lowerToLLVMDialect(*code->code)))
    return failure();
  return emitLLVM(*code->code, request.cpu, os, request.emit == Emit::Object);
}
