//===- ObjectEmitter.cpp - LLVM dialect to object files and .so -----------===//
//
// The target machine gets the triple, data layout and CPU before the IR is
// optimized: without them LLVM's vectorizer has no vector width to use.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/ObjectEmitter.h"

#include "compiler/Pipelines/Pipelines.h"
#include "compiler/Support/OutputFile.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"

using namespace mlir;

LogicalResult cavs::lowerToLLVMDialect(ModuleOp module) {
  PassManager pm(module.getContext());
  buildLowerToLLVMPipeline(pm);
  return pm.run(module);
}

namespace {
/// The triple, CPU and features to generate code for, or null with `error`.
const llvm::Target *resolveTarget(const cavs::CpuTarget &target,
                                  std::string &triple, std::string &cpu,
                                  std::string &features, std::string &error) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  triple = llvm::sys::getDefaultTargetTriple();
  const llvm::Target *backend =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!backend)
    return nullptr;
  cpu = target.cpu;
  features.clear();
  if (cpu == "native") {
    cpu = llvm::sys::getHostCPUName().str();
    llvm::SubtargetFeatures subtarget;
    for (const auto &[feature, enabled] : llvm::sys::getHostCPUFeatures())
      subtarget.AddFeature(feature, enabled);
    features = subtarget.getString();
  }
  // LLVM only warns about an unknown CPU and aborts later; refuse it here.
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      backend->createMCSubtargetInfo(triple, "", ""));
  if (!info || !info->isCPUStringValid(cpu)) {
    error = "unknown CPU '" + target.cpu +
            "' (use native or an LLVM CPU name such as x86-64-v3)";
    return nullptr;
  }
  return backend;
}

std::unique_ptr<llvm::TargetMachine>
createTargetMachine(const cavs::CpuTarget &target, std::string &error) {
  std::string triple, cpu, features;
  const llvm::Target *backend =
      resolveTarget(target, triple, cpu, features, error);
  if (!backend)
    return nullptr;
  auto level = target.optLevel == 0   ? llvm::CodeGenOptLevel::None
               : target.optLevel == 1 ? llvm::CodeGenOptLevel::Less
               : target.optLevel == 2 ? llvm::CodeGenOptLevel::Default
                                      : llvm::CodeGenOptLevel::Aggressive;
  return std::unique_ptr<llvm::TargetMachine>(backend->createTargetMachine(
      triple, cpu, features, llvm::TargetOptions(), llvm::Reloc::PIC_,
      std::nullopt, level));
}

/// LLVM tunes Intel's AVX-512 cores to 256-bit vectors, guarding the clock
/// against 512-bit code, while it gives AMD's the full width. oneDNN, the
/// runtime's GEMM engine on these CPUs, runs 512-bit kernels on both, so the
/// clock is set by them anyway: the generated loops take the full width too
/// (docs/performance.md, "An Intel Xeon VM: the targets again").
void preferFullVectorWidth(const llvm::TargetMachine &machine,
                           llvm::Module &module) {
  if (!machine.getMCSubtargetInfo()->checkFeatures("+avx512f"))
    return;
  for (llvm::Function &function : module)
    if (!function.isDeclaration())
      function.addFnAttr("prefer-vector-width", "512");
}
} // namespace

LogicalResult cavs::verifyCpuTarget(const CpuTarget &target,
                                    std::string &error) {
  std::string triple, cpu, features;
  if (!resolveTarget(target, triple, cpu, features, error))
    return failure();
  if (target.optLevel > 3) {
    error = "optimization level -O" + std::to_string(target.optLevel) +
            " is not one of -O0 .. -O3";
    return failure();
  }
  return success();
}

LogicalResult cavs::emitLLVM(ModuleOp module, const CpuTarget &target,
                             llvm::raw_ostream &os, bool object) {
  std::string error;
  std::unique_ptr<llvm::TargetMachine> machine =
      createTargetMachine(target, error);
  if (!machine)
    return module.emitError("cannot create the LLVM target: ") << error;

  registerBuiltinDialectTranslation(*module.getContext());
  registerLLVMDialectTranslation(*module.getContext());
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext);
  if (!llvmModule)
    return module.emitError("translation to LLVM IR failed");
  llvmModule->setTargetTriple(machine->getTargetTriple().str());
  llvmModule->setDataLayout(machine->createDataLayout());
  preferFullVectorWidth(*machine, *llvmModule);
  auto optimize = makeOptimizingTransformer(target.optLevel, /*sizeLevel=*/0,
                                            machine.get());
  if (llvm::Error failure = optimize(llvmModule.get()))
    return module.emitError("LLVM optimization failed: ")
           << llvm::toString(std::move(failure));

  if (!object) {
    llvmModule->print(os, nullptr);
    return success();
  }
  // Object writers may seek; a pipe cannot, so write through a buffer.
  llvm::buffer_ostream buffered(os);
  llvm::legacy::PassManager codegen;
  if (machine->addPassesToEmitFile(codegen, buffered, nullptr,
                                   llvm::CodeGenFileType::ObjectFile))
    return module.emitError("the target cannot emit object files");
  codegen.run(*llvmModule);
  return success();
}

LogicalResult cavs::linkSharedObject(const std::vector<std::string> &objects,
                                     StringRef output,
                                     const std::vector<std::string> &libraries,
                                     std::string &error) {
  // CC may carry arguments ("ccache cc", "gcc -m64"), split on blanks as
  // make does.
  const char *fromEnvironment = std::getenv("CC");
  llvm::SmallVector<StringRef> words;
  StringRef(fromEnvironment ? fromEnvironment : "")
      .split(words, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  if (words.empty())
    words.push_back("cc");
  std::string compilerName = words.front().str();
  llvm::ErrorOr<std::string> compiler =
      llvm::sys::findProgramByName(compilerName);
  if (!compiler) {
    error = "cannot find the C compiler '" + compilerName +
            "' to link shared objects" +
            (fromEnvironment ? " (from CC='" + std::string(fromEnvironment) +
                                   "')"
                             : std::string(" (set CC)"));
    return failure();
  }
  // The output's folder is checked first, so that the message names the
  // output, not the temporary file below.
  StringRef folder = llvm::sys::path::parent_path(output);
  if (std::error_code denied = llvm::sys::fs::access(
          folder.empty() ? "." : folder, llvm::sys::fs::AccessMode::Write)) {
    error = "cannot write '" + output.str() + "': " + denied.message();
    return failure();
  }
  // Linked beside `output` and renamed onto it, so that a failed link
  // leaves the previous library intact and readers never see half of one.
  llvm::SmallString<256> linked;
  llvm::sys::fs::createUniquePath(output + ".tmp-%%%%%%", linked,
                                  /*MakeAbsolute=*/false);
  llvm::sys::RemoveFileOnSignal(linked);
  auto forget = llvm::make_scope_exit(
      [&] { llvm::sys::DontRemoveFileOnSignal(linked); });
  std::vector<std::string> arguments = {*compiler};
  for (StringRef word : llvm::drop_begin(words))
    arguments.push_back(word.str());
  arguments.insert(arguments.end(), {"-shared", "-o", linked.str().str()});
  arguments.insert(arguments.end(), objects.begin(), objects.end());
  arguments.insert(arguments.end(), libraries.begin(), libraries.end());
  std::vector<StringRef> argv(arguments.begin(), arguments.end());
  std::string message;
  int status = llvm::sys::ExecuteAndWait(*compiler, argv, std::nullopt, {},
                                         /*SecondsToWait=*/0,
                                         /*MemoryLimit=*/0, &message);
  if (status != 0) {
    llvm::sys::fs::remove(linked);
    error = "linking '" + output.str() + "' failed" +
            (message.empty() ? "" : ": " + message);
    return failure();
  }
  if (std::error_code kept = keepPermissions(output, linked)) {
    llvm::sys::fs::remove(linked);
    error = "cannot write '" + output.str() + "': " + kept.message();
    return failure();
  }
  if (std::error_code renamed = llvm::sys::fs::rename(linked, output)) {
    llvm::sys::fs::remove(linked);
    error = "cannot write '" + output.str() + "': " + renamed.message();
    return failure();
  }
  return success();
}
