//===- cavs-opt.cpp - the cavs pass driver
//---------------------------------===//
//
// mlir-opt for the cavs dialect: parses IR, runs passes given on the command
// line and prints the result. lit tests drive every pass through it.
//
// This is MlirOptMain's main split in two so that any input is handled
// without a crash or a near-endless parse: the text is first checked for
// bracket nesting deeper than MLIR's recursive parser and walks can take
// and for numeric literals too long to convert quickly (IRLimits.h), and
// the parsing and passes then run on a thread with a large stack. The
// result replaces the output file only when every pass succeeded
// (compiler/Support/OutputFile.h), and never the input.
//
//===----------------------------------------------------------------------===//

#include "compiler/Pipelines/Pipelines.h"
#include "compiler/Support/IRLimits.h"
#include "compiler/Support/InputFile.h"
#include "compiler/Support/LargeStack.h"
#include "compiler/Support/OutputFile.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  mlir::registerTransformsPasses();
  cavs::registerCavsPipelines();
  mlir::DialectRegistry registry;
  cavs::registerIRDialects(registry);
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "cavs optimizer driver\n", registry);
  // A verifier error names its op; MLIR's "see current operation" note
  // would also print the op in generic form, for a cavs.model the whole
  // model. --mlir-print-op-on-diagnostic brings it back.
  auto *printOp = static_cast<llvm::cl::opt<bool> *>(
      llvm::cl::getRegisteredOptions().lookup("mlir-print-op-on-diagnostic"));
  if (printOp && printOp->getNumOccurrences() == 0)
    *printOp = false;
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects()) {
    llvm::outs() << "Available Dialects: ";
    llvm::interleave(registry.getDialectNames(), llvm::outs(), ",");
    llvm::outs() << "\n";
    return 0;
  }

  // Before anything is read or written: opening the output emptied an
  // input it is (a bus error under the parser, and the input gone).
  if (std::string same =
          cavs::outputIsInputError(inputFilename, outputFilename);
      !same.empty()) {
    llvm::WithColor::error(llvm::errs(), "cavs-opt") << same << "\n";
    return 1;
  }
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      cavs::readInputFile(inputFilename, error);
  if (!input) {
    llvm::WithColor::error(llvm::errs(), "cavs-opt") << error << "\n";
    return 1;
  }
  // A UTF-8 byte-order mark is no MLIR token, but some editors write one
  // (cavsc skips it in .cavs files too).
  if (input->getBuffer().starts_with("\xEF\xBB\xBF"))
    input = llvm::MemoryBuffer::getMemBufferCopy(
        input->getBuffer().drop_front(3), input->getBufferIdentifier());
  // The SourceMgr only borrows the buffer here: MlirOptMain takes it over.
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(input->getMemBufferRef(),
                                       /*RequiresNullTerminator=*/false),
      llvm::SMLoc());
  if (failed(cavs::checkIRLimits(sourceMgr)))
    return 1;
  // The result goes to the output only when every pass succeeded, through
  // a temporary file: a failed run keeps the old output (it was deleted).
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::LogicalResult result = llvm::failure();
  cavs::runOnLargeStack(
      [&] {
        result = mlir::MlirOptMain(os, std::move(input), registry, config);
      },
      "cavs-opt");
  if (failed(result))
    return 1;
  return failed(cavs::writeOutputFile(
             outputFilename,
             [&](llvm::raw_ostream &out) {
               out << text;
               return llvm::success();
             },
             [](const llvm::Twine &message) {
               llvm::WithColor::error(llvm::errs(), "cavs-opt")
                   << message << "\n";
             }))
             ? 1
             : 0;
}
