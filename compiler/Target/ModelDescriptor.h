//===- ModelDescriptor.h - C descriptor and header of a model ---*- C++ -*-===//
//
// The data half of a model library: the cavs_model_def (cavs/program.h)
// that tells the runtime the parameters, the vertex functions and their
// phase functions, written as C source that cavsc compiles next to the
// generated object; and the header (`--emit=header`) users include.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_COMPILER_TARGET_MODELDESCRIPTOR_H
#define CAVS_COMPILER_TARGET_MODELDESCRIPTOR_H

#include "compiler/Conversion/ParamOrder.h"
#include "compiler/Conversion/RuntimeLowering.h"

#include "llvm/Support/raw_ostream.h"

namespace cavs {

/// A model compiled under one memory plan.
struct CompiledProgram {
  ModelOp model;
  std::vector<VertexFunctionSymbols> functions;
  /// False for the vertex functions alone, without phase functions.
  bool hasCode = true;
};

struct CudaCode;

/// The CUDA half of a model library: its code and the kernels compiled.
struct CudaImage {
  const CudaCode *code = nullptr;
  /// NVRTC's sm_90 CUBIN and compute_90 PTX of code->source.
  std::string cubin, ptx;
};

/// 64-bit FNV-1a hash of what identifies a model's trained state: the
/// parameters' names and shapes and the state width. Optimization flags
/// change none of them, so every build of a model shares checkpoints;
/// those of another model (or another -D) do not load.
uint64_t modelSignature(ModelOp model);

/// Writes the C source of the model's definition, exporting
/// `<model>_model_def()` and `<model>_create()`; `cuda` (or null) adds the
/// CUDA image and phase functions.
void writeDescriptorSource(const ParamOrder &order,
                           const CompiledProgram &train,
                           const CompiledProgram &infer, const CudaImage *cuda,
                           llvm::StringRef sourceName, llvm::raw_ostream &os);

/// Writes the header of the model library: the two C entry points and a
/// C++ class `cavs_models::<model>` derived from cavs::Model.
void writeModelHeader(ModelOp model, llvm::StringRef sourceName,
                      llvm::raw_ostream &os);

/// The symbols a model library exports.
std::vector<std::string> exportedSymbols(ModelOp model);

} // namespace cavs

#endif // CAVS_COMPILER_TARGET_MODELDESCRIPTOR_H
