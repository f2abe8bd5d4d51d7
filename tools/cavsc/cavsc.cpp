//===- cavsc.cpp - the cavs compiler driver --------------------------------===//
//
// `cavsc model.cavs [--emit=...] [-o out]`: runs the frontend on a .cavs file
// and emits the requested stage. Every stage is reachable from here so each
// can be inspected and tested on its own.
//
//===----------------------------------------------------------------------===//

#include "compiler/Analysis/ModelStats.h"
#include "compiler/Config.h"
#include "compiler/Frontend/Frontend.h"
#include "compiler/Frontend/MLIRGen.h"
#include "compiler/Conversion/FusedKernels.h"
#include "compiler/Pipelines/Pipelines.h"
#include "compiler/Target/ObjectEmitter.h"
#include "dialects/CavsDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace {
/// The stage whose result cavsc writes out.
enum class Emit { AST, MLIR, OptimizedMLIR, Stats, LLVM, Object };

cl::OptionCategory category("cavsc options");

cl::opt<std::string> inputFilename(cl::Positional, cl::desc("<model.cavs>"),
                                   cl::Required, cl::cat(category));
cl::opt<std::string> outputFilename("o", cl::desc("Output file (default: stdout)"),
                                    cl::value_desc("file"), cl::init("-"),
                                    cl::cat(category));
cl::opt<Emit> emit(
    "emit", cl::desc("What to emit"), cl::init(Emit::MLIR),
    cl::values(
        clEnumValN(Emit::AST, "ast", "the checked syntax tree"),
        clEnumValN(Emit::MLIR, "mlir", "the cavs dialect, as the frontend made it"),
        clEnumValN(Emit::OptimizedMLIR, "mlir-optimized",
                   "the cavs dialect after the optimization pipeline "
                   "(backward functions, batching classes, fused kernels, "
                   "memory plan)"),
        clEnumValN(Emit::Stats, "stats",
                   "per vertex function: ops, fused kernels and GEMMs of each "
                   "phase of F and its backward function, and memory per vertex"),
        clEnumValN(Emit::LLVM, "llvm",
                   "optimized LLVM IR of the model's CPU kernels"),
        clEnumValN(Emit::Object, "obj",
                   "an object file with the model's CPU kernels")),
    cl::cat(category));
// Ablation switches of the optimization pipeline (see docs/passes.md).
cl::opt<bool> mergeMatmuls("merge-matmuls", cl::init(true),
                           cl::desc("Merge matmuls that share their vector"),
                           cl::cat(category));
cl::opt<bool> lazyBatching("lazy-batching", cl::init(true),
                           cl::desc("Batch eager and lazy ops over all vertices"),
                           cl::cat(category));
cl::opt<bool> fusion("fusion", cl::init(true),
                     cl::desc("Fuse elementwise ops into kernels"),
                     cl::cat(category));
cl::opt<std::string> cpu("cpu", cl::init("native"),
                        cl::desc("CPU to generate code for: native (the "
                                 "machine cavsc runs on) or an LLVM CPU name "
                                 "such as x86-64-v3 or znver4"),
                        cl::cat(category));
cl::opt<unsigned> optLevel("O", cl::Prefix, cl::init(3),
                           cl::desc("LLVM optimization level of generated "
                                    "code: -O0 .. -O3 (default -O3)"),
                           cl::cat(category));
cl::list<std::string> defines("D", cl::Prefix,
                              cl::desc("Override a dim: -D NAME=VALUE"),
                              cl::value_desc("NAME=VALUE"), cl::cat(category));

void printVersion(raw_ostream &os) {
  os << "cavsc version " << CAVS_VERSION_STRING << "\n"
     << "  LLVM/MLIR " << CAVS_LLVM_VERSION_STRING << "\n"
     << "  targets: cpu" << (CAVS_HAVE_CUDA ? ", cuda" : "") << "\n";
}

/// Runs the pipeline up to `emit` and writes the result to `os`.
LogicalResult compile(SourceMgr &sourceMgr, raw_ostream &os) {
  std::unique_ptr<cavs::CheckedModule> checked =
      cavs::runFrontend(sourceMgr, defines);
  if (!checked)
    return failure();
  if (emit == Emit::AST) {
    cavs::printAST(*checked, os);
    return success();
  }

  mlir::MLIRContext context;
  context.loadDialect<cavs::CavsDialect, mlir::func::FuncDialect,
                      mlir::arith::ArithDialect, mlir::math::MathDialect,
                      mlir::scf::SCFDialect, mlir::LLVM::LLVMDialect>();
  // Diagnostics point into the .cavs source; dumping IR would only confuse.
  context.printOpOnDiagnostic(false);
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      cavs::generateMLIR(context, sourceMgr, checked->program);
  if (!module || failed(mlir::verify(*module)))
    return failure();
  if (emit != Emit::MLIR) {
    cavs::OptimizeOptions options;
    options.mergeMatmuls = mergeMatmuls.getValue();
    options.lazyBatching = lazyBatching.getValue();
    options.fusion = fusion.getValue();
    mlir::PassManager pm(&context);
    cavs::buildOptimizePipeline(pm, options);
    if (failed(pm.run(*module)))
      return failure();
  }
  if (emit == Emit::Stats) {
    for (auto model : module->getOps<cavs::ModelOp>())
      cavs::printModelStats(model, os);
    return success();
  }
  if (emit == Emit::LLVM || emit == Emit::Object) {
    mlir::OwningOpRef<mlir::ModuleOp> kernels =
        mlir::ModuleOp::create(module->getLoc());
    for (auto model : module->getOps<cavs::ModelOp>())
      if (failed(cavs::buildModelKernels(model, *kernels)))
        return failure();
    if (failed(cavs::lowerToLLVMDialect(*kernels)))
      return failure();
    return cavs::emitLLVM(*kernels, {cpu, optLevel}, os, emit == Emit::Object);
  }
  module->print(os);
  return success();
}
} // namespace

int main(int argc, char **argv) {
  InitLLVM initLLVM(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::SetVersionPrinter(printVersion);
  cl::ParseCommandLineOptions(
      argc, argv,
      "cavsc: compile a Cavs vertex-function model (.cavs)\n\n"
      "  cavsc model.cavs --emit=ast      print the checked syntax tree\n"
      "  cavsc model.cavs --emit=mlir     print the cavs dialect IR\n"
      "  cavsc model.cavs --emit=mlir-optimized\n"
      "                                   print the IR the backends compile\n"
      "  cavsc model.cavs --emit=obj -o kernels.o\n"
      "                                   compile the CPU kernels\n");

  std::string error;
  if (failed(cavs::verifyCpuTarget({cpu, optLevel}, error))) {
    WithColor::error(errs(), "cavsc") << error << "\n";
    return 1;
  }
  std::unique_ptr<MemoryBuffer> input = mlir::openInputFile(inputFilename, &error);
  if (!input) {
    WithColor::error(errs(), "cavsc") << error << "\n";
    return 1;
  }
  SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), SMLoc());

  std::unique_ptr<ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &error);
  if (!output) {
    WithColor::error(errs(), "cavsc") << error << "\n";
    return 1;
  }
  if (failed(compile(sourceMgr, output->os())))
    return 1;
  output->keep();
  return 0;
}
