//===- cavsc.cpp - the cavs compiler driver --------------------------------===//
//
// `cavsc model.cavs [--emit=...] [-o out]`: runs the frontend on a .cavs file
// and emits the requested stage, up to the model library
// (`cavsc model.cavs -o libmodel.so`) and its header. Every stage is
// reachable from here so each can be inspected and tested on its own.
//
//===----------------------------------------------------------------------===//

#include "compiler/Config.h"
#include "compiler/Frontend/Diagnostics.h"
#include "compiler/Frontend/Frontend.h"
#include "compiler/Frontend/MLIRGen.h"
#include "compiler/Support/InputFile.h"
#include "compiler/Support/LargeStack.h"
#include "compiler/Support/OutputFile.h"
#include "compiler/Support/PrintableText.h"
#include "compiler/Target/CompileDriver.h"
#include "dialects/CavsDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

#include <optional>

using namespace llvm;

namespace {
using cavs::Emit;

cl::OptionCategory category("cavsc options");

cl::opt<std::string> inputFilename(cl::Positional, cl::desc("<model.cavs>"),
                                   cl::Required, cl::cat(category));
cl::opt<std::string> outputFilename("o", cl::desc("Output file (default: stdout)"),
                                    cl::value_desc("file"), cl::init("-"),
                                    cl::cat(category));
cl::opt<Emit> emit(
    "emit",
    cl::desc("What to emit (default: from the -o suffix: .so, .h, .o, .ll, "
             ".mlir, .cu, .ptx, .cubin; mlir on standard output; another "
             "suffix needs --emit)"),
    cl::init(Emit::MLIR),
    cl::values(
        clEnumValN(Emit::AST, "ast",
                   "the checked syntax tree (dims as the source declares them; "
                   "-D applies to the checked model)"),
        clEnumValN(Emit::MLIR, "mlir",
                   "the cavs dialect, as the frontend made it"),
        clEnumValN(Emit::OptimizedMLIR, "mlir-optimized",
                   "the cavs dialect after the optimization pipeline "
                   "(backward functions, batching classes, fused kernels, "
                   "memory plan)"),
        clEnumValN(
            Emit::Stats, "stats",
            "per vertex function: ops, fused kernels and GEMMs of each "
            "phase of F and its backward function, and memory per vertex"),
        clEnumValN(Emit::LLVM, "llvm",
                   "optimized LLVM IR of the model's host code: CPU kernels "
                   "and phase functions, and the CUDA phase functions with "
                   "--target=cuda, of the training and inference programs"),
        clEnumValN(Emit::Object, "obj",
                   "an object file with the model's CPU code"),
        clEnumValN(Emit::Header, "header",
                   "the C/C++ header of the model library"),
        clEnumValN(Emit::SO, "so",
                   "the model library: a shared object linked against the "
                   "cavs runtime"),
        clEnumValN(Emit::Cuda, "cuda",
                   "CUDA C source of the model's fused kernels (training and "
                   "inference programs)"),
        clEnumValN(Emit::Ptx, "ptx",
                   "those CUDA kernels compiled by NVRTC to compute_90 PTX"),
        clEnumValN(Emit::Cubin, "cubin",
                   "those CUDA kernels compiled by NVRTC to an sm_90 CUBIN")),
    cl::cat(category));
cl::opt<std::string> targetNames(
    "target", cl::init("cpu"),
    cl::desc("Devices to compile for: cpu, cuda, or cpu,cuda for one model "
             "library that runs on both (the runtime picks the device when a "
             "model is created)"),
    cl::value_desc("cpu|cuda|cpu,cuda"), cl::cat(category));
cl::opt<std::string> runtimeDir(
    "runtime-dir",
    cl::desc("Directory of libcavs_runtime.so to link model libraries "
             "against (default: ../lib next to cavsc)"),
    cl::value_desc("dir"), cl::cat(category));
// Ablation switches of the optimization pipeline (see docs/passes.md), one
// flag per entry of compiler/Pipelines/Optimizations.def.
cavs::OptimizationSwitches switches;
#define CAVS_OPTIMIZATION(FIELD, FLAG, DESCRIPTION, NOUN, TAG)                 \
  cl::opt<bool, true> FIELD##Flag(FLAG, cl::location(switches.FIELD),          \
                                  cl::desc(DESCRIPTION), cl::cat(category));
#include "compiler/Pipelines/Optimizations.def"
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

/// Parses --target; false (with `error` set) for an unknown device.
bool parseTargets(cavs::Targets &targets, std::string &error) {
  targets = {/*cpu=*/false, /*cuda=*/false};
  SmallVector<StringRef> names;
  StringRef(targetNames).split(names, ',');
  for (StringRef name : names) {
    if (name == "cpu")
      targets.cpu = true;
    else if (name == "cuda")
      targets.cuda = true;
    else {
      error = "unknown target '" + name.str() + "' in --target=" +
              targetNames + " (expected cpu, cuda or cpu,cuda)";
      return false;
    }
  }
  return true;
}

/// The emit kind: --emit, else from the output file's suffix (.mlir,
/// standard output and devices such as /dev/null: the cavs dialect). None
/// for another suffix: guessing would replace a file with output of a kind
/// its name does not promise.
std::optional<Emit> resolveEmit() {
  if (emit.getNumOccurrences())
    return emit.getValue();
  if (outputFilename == "-" || !cavs::isRegularOrMissing(outputFilename))
    return Emit::MLIR;
  StringRef suffix = sys::path::extension(outputFilename);
  return StringSwitch<std::optional<Emit>>(suffix)
      .Case(".so", Emit::SO)
      .Case(".h", Emit::Header)
      .Case(".o", Emit::Object)
      .Case(".ll", Emit::LLVM)
      .Case(".mlir", Emit::MLIR)
      .Case(".cu", Emit::Cuda)
      .Case(".ptx", Emit::Ptx)
      .Case(".cubin", Emit::Cubin)
      .Default(std::nullopt);
}

/// Prints `cavsc: error: ` and the parts, which quote file names and other
/// text from the command line: each line made printable.
template <typename... Parts> void reportError(const Parts &...parts) {
  std::string message;
  raw_string_ostream os(message);
  (os << ... << parts);
  std::string shown;
  for (StringRef line : split(message, '\n'))
    shown += (shown.empty() ? "" : "\n") + cavs::printableText(line);
  WithColor::error(errs(), "cavsc") << shown << "\n";
}

/// The path a regular (or missing) output file is written to:
/// outputFilename with its links followed (main sets it).
std::string outputPath;

/// libcavs_runtime.so and the runtime headers: an install tree next to
/// cavsc (bin/../lib, bin/../include), else the source tree of this build.
cavs::RuntimeLocation locateRuntime(const char *argv0) {
  std::string executable =
      sys::fs::getMainExecutable(argv0, reinterpret_cast<void *>(&locateRuntime));
  SmallString<256> prefix(sys::path::parent_path(sys::path::parent_path(executable)));
  cavs::RuntimeLocation runtime;
  SmallString<256> lib(prefix), include(prefix);
  sys::path::append(lib, "lib");
  runtime.libraryDir = runtimeDir.empty() ? std::string(lib) : runtimeDir.getValue();
  if (!runtimeDir.empty()) {
    include = sys::path::parent_path(runtimeDir.getValue());
  }
  sys::path::append(include, "include");
  SmallString<256> header(include);
  sys::path::append(header, "cavs", "instance.h");
  // The build tree has no include folder beside its lib: its runtime's
  // headers are in the source tree. Any other runtime must bring its own,
  // never those of the tree cavsc was built from, which may have moved on
  // or not exist on this machine.
  bool buildRuntime =
      sys::fs::equivalent(runtime.libraryDir, CAVS_BUILD_LIBRARY_DIR);
  runtime.includeDir = !sys::fs::exists(header) && buildRuntime
                           ? CAVS_RUNTIME_SOURCE_INCLUDE_DIR
                           : std::string(include);
  return runtime;
}

/// Prints a diagnostic of the passes like the frontend's (clipped source
/// line and quotes) when it points into the .cavs source, else with its
/// location as MLIR prints it.
void printMLIRDiagnostic(SourceMgr &sourceMgr, mlir::Diagnostic &diag) {
  SourceMgr::DiagKind kind = SourceMgr::DK_Error;
  switch (diag.getSeverity()) {
  case mlir::DiagnosticSeverity::Note:
    kind = SourceMgr::DK_Note;
    break;
  case mlir::DiagnosticSeverity::Warning:
    kind = SourceMgr::DK_Warning;
    break;
  case mlir::DiagnosticSeverity::Remark:
    kind = SourceMgr::DK_Remark;
    break;
  case mlir::DiagnosticSeverity::Error:
    break;
  }
  unsigned main = sourceMgr.getMainFileID();
  auto fileLoc = diag.getLocation()->findInstanceOf<mlir::FileLineColLoc>();
  SMLoc loc;
  if (fileLoc && fileLoc.getFilename() ==
                     sourceMgr.getMemoryBuffer(main)->getBufferIdentifier())
    loc = sourceMgr.FindLocForLineAndColumn(main, fileLoc.getLine(),
                                            fileLoc.getColumn());
  if (loc.isValid()) {
    cavs::printDiagnostic(sourceMgr, loc, kind, diag.str());
    return;
  }
  std::string where;
  raw_string_ostream(where) << diag.getLocation();
  sourceMgr.PrintMessage(errs(), SMDiagnostic(cavs::printableText(where), kind,
                                              cavs::printableText(diag.str())));
}

/// Runs the pipeline up to `kind` and writes the result to `os` (or, for a
/// shared object, to the file `outputFilename`).
LogicalResult compile(SourceMgr &sourceMgr, Emit kind, cavs::Targets targets,
                      const cavs::RuntimeLocation &runtime, raw_ostream &os) {
  std::unique_ptr<cavs::FrontendResult> checked =
      cavs::runFrontend(sourceMgr, defines);
  if (!checked)
    return failure();
  if (kind == Emit::AST) {
    cavs::printAST(*checked, os);
    return success();
  }

  mlir::MLIRContext context;
  context.loadDialect<cavs::CavsDialect, mlir::func::FuncDialect,
                      mlir::arith::ArithDialect, mlir::math::MathDialect,
                      mlir::scf::SCFDialect, mlir::cf::ControlFlowDialect,
                      mlir::LLVM::LLVMDialect>();
  // Diagnostics point into the .cavs source; dumping IR would only confuse.
  context.printOpOnDiagnostic(false);
  mlir::DiagnosticEngine::HandlerID handler =
      context.getDiagEngine().registerHandler([&](mlir::Diagnostic &diag) {
        printMLIRDiagnostic(sourceMgr, diag);
        for (mlir::Diagnostic &note : diag.getNotes())
          printMLIRDiagnostic(sourceMgr, note);
      });
  auto unregister = llvm::make_scope_exit(
      [&] { context.getDiagEngine().eraseHandler(handler); });
  mlir::OwningOpRef<mlir::ModuleOp> module =
      cavs::generateMLIR(context, sourceMgr, checked->model);
  if (!module || failed(mlir::verify(*module)))
    return failure();
  if (kind == Emit::MLIR) {
    module->print(os);
    return success();
  }

  cavs::CompileRequest request;
  request.emit = kind;
  request.switches = switches;
  request.targets = targets;
  request.cpu = {cpu, optLevel};
  request.runtime = runtime;
  request.sourceName = sys::path::filename(inputFilename).str();
  request.output = outputPath;
  std::string error;
  if (failed(cavs::compileModel(*module, request, os, error))) {
    if (!error.empty())
      reportError(error);
    return failure();
  }
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
      "  cavsc model.cavs -o libmodel.so  the model library (C ABI, see the\n"
      "                                   header from -o model.h)\n"
      "  cavsc model.cavs --target=cpu,cuda -o libmodel.so\n"
      "                                   one library for CPUs and NVIDIA GPUs\n"
      "  cavsc model.cavs --emit=cuda     print the CUDA C source of its\n"
      "                                   kernels (--emit=ptx, --emit=cubin:\n"
      "                                   compiled by NVRTC for sm_90)\n");

  // LLVM lets the last of repeated options win: `-o a.h -o b.h` wrote
  // only b.h, `--emit=ast --emit=header` only the header.
  for (const cl::Option *option : std::initializer_list<const cl::Option *>{
           &outputFilename, &emit, &targetNames, &runtimeDir, &cpu,
           &optLevel}) {
    if (option->getNumOccurrences() > 1) {
      reportError(option->ArgStr.size() == 1 ? "-" : "--", option->ArgStr,
                  " is given ", option->getNumOccurrences(),
                  " times; give it once");
      return 1;
    }
  }
  std::string error;
  cavs::Targets targets;
  if (!parseTargets(targets, error)) {
    reportError(error);
    return 1;
  }
  std::optional<Emit> resolved = resolveEmit();
  if (!resolved) {
    reportError(
        "cannot tell what to write to '", outputFilename,
        "' from its suffix; name it .so, .h, .o, .ll, .mlir, .cu, .ptx or "
        ".cubin, or say what to write with --emit");
    return 1;
  }
  Emit kind = *resolved;
  if (kind == Emit::SO && outputFilename == "-") {
    reportError("a shared object needs an output file: -o libmodel.so");
    return 1;
  }
  if (kind == Emit::SO && !cavs::isRegularOrMissing(outputFilename)) {
    reportError("a shared object is written to a regular file, and '",
                outputFilename, "' is not one");
    return 1;
  }
  if (std::string same =
          cavs::outputIsInputError(inputFilename, outputFilename);
      !same.empty()) {
    reportError(same);
    return 1;
  }
  // A read-only output is refused, though renaming a new file over it
  // would succeed where its folder is writable.
  outputPath = cavs::followLinks(outputFilename);
  if (outputFilename != "-" && cavs::isRegularOrMissing(outputFilename) &&
      sys::fs::exists(outputPath))
    if (std::error_code denied =
            sys::fs::access(outputPath, sys::fs::AccessMode::Write)) {
      reportError("cannot write '", outputFilename, "': ", denied.message());
      return 1;
    }
  // A shared object is linked last, into a temporary file beside it: its
  // folder is checked now (a missing one failed after the whole compile,
  // in the linker's words). Other outputs open their temporary file first.
  if (kind == Emit::SO) {
    StringRef folder = sys::path::parent_path(outputPath);
    if (folder.empty())
      folder = ".";
    std::string problem;
    if (!sys::fs::exists(folder))
      problem = "folder '" + folder.str() + "' does not exist";
    else if (!sys::fs::is_directory(folder))
      problem = "'" + folder.str() + "' is not a folder";
    else if (std::error_code denied =
                 sys::fs::access(folder, sys::fs::AccessMode::Write))
      problem =
          "cannot write in folder '" + folder.str() + "': " + denied.message();
    if (!problem.empty()) {
      reportError("cannot write '", outputFilename, "': ", problem);
      return 1;
    }
  }
  if (failed(cavs::verifyCpuTarget({cpu, optLevel}, error))) {
    reportError(error);
    return 1;
  }
  std::unique_ptr<MemoryBuffer> input = cavs::readInputFile(inputFilename, error);
  if (!input) {
    reportError(error);
    return 1;
  }
  SourceMgr sourceMgr;
  cavs::addSourceBuffer(sourceMgr, std::move(input));

  cavs::RuntimeLocation runtime = locateRuntime(argv[0]);
  if (kind == Emit::SO) {
    SmallString<256> library(runtime.libraryDir);
    sys::path::append(library, "libcavs_runtime.so");
    if (!sys::fs::exists(library)) {
      reportError(
          "cannot find libcavs_runtime.so in '", runtime.libraryDir,
          "' (point --runtime-dir at the cavs runtime's lib directory)");
      return 1;
    }
    SmallString<256> header(runtime.includeDir);
    sys::path::append(header, "cavs", "instance.h");
    if (!sys::fs::exists(header)) {
      reportError("cannot find the cavs runtime headers (cavs/instance.h) in '",
                  runtime.includeDir,
                  "' (the include folder beside the runtime's lib directory)");
      return 1;
    }
  }
  // The frontend recurses over expression trees as tall as the longest
  // operator chain (docs/language.md allows 65,536 operations).
  LogicalResult result = failure();
  cavs::runOnLargeStack(
      [&] {
        result =
            kind == Emit::SO
                ? compile(sourceMgr, kind, targets, runtime, nulls())
                : cavs::writeOutputFile(
                      outputFilename,
                      [&](raw_ostream &os) {
                        return compile(sourceMgr, kind, targets, runtime, os);
                      },
                      [](const Twine &message) { reportError(message.str()); });
      },
      "cavsc");
  return failed(result) ? 1 : 0;
}
