//===- FuzzPipeline.h - the pipeline under the fuzzers ---------*- C++ -*-===//
//
// What the pipeline and IR fuzzers share: a context like cavsc's that keeps
// diagnostics quiet, and a run of cavsc's optimization pipeline that treats
// a pass leaving invalid IR as a crash. A pass may refuse its input with a
// diagnostic; producing IR that does not verify is always a bug.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_TEST_FUZZ_FUZZPIPELINE_H
#define CAVS_TEST_FUZZ_FUZZPIPELINE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringRef.h"

#include <memory>

namespace cavs::fuzz {

/// A single-threaded context with the dialects of cavs IR (the fuzzer runs
/// one input at a time; a thread pool per input would only cost) whose
/// diagnostics are dropped.
std::unique_ptr<mlir::MLIRContext> makeQuietContext();

/// Modules with more ops are not optimized. The pipeline is linear (about
/// 50 µs per op), but a few bytes of .cavs unroll into tens of thousands of
/// ops, so a cap on input length alone would not keep the fuzzers at
/// hundreds of runs per second; cavs-compile-bench and a lit test cover
/// large functions.
constexpr unsigned kMaxOptimizedOps = 4096;

/// Runs the pipeline of `cavsc --emit=mlir-optimized` (default switches) on
/// `module` if it has at most kMaxOptimizedOps ops, then prints the result
/// and its statistics as --emit=mlir-optimized and --emit=stats do, into
/// nothing. A pass may refuse its input with a diagnostic; one that
/// succeeds but leaves IR that does not verify aborts.
void runOptimizePipeline(mlir::ModuleOp module);

/// Aborts with `what` and the verifier's first complaint if `op` does not
/// verify: for IR that a correct compiler never produces.
void verifyOrDie(mlir::Operation *op, llvm::StringRef what);

} // namespace cavs::fuzz

#endif // CAVS_TEST_FUZZ_FUZZPIPELINE_H
