//===- Diagnostics.cpp - error reporting for the .cavs frontend -----------===//
//
// Implements DiagEngine: error limit, de-duplication and printing through the
// SourceMgr in the usual `file:line:col: error: message` + caret form.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/Diagnostics.h"

#include "llvm/Support/raw_ostream.h"

using namespace cavs;

DiagEngine::DiagEngine(llvm::SourceMgr &sourceMgr, llvm::StringRef progName,
                       unsigned errorLimit)
    : sourceMgr(sourceMgr), progName(progName.str()), errorLimit(errorLimit) {}

void DiagEngine::error(llvm::SMLoc loc, const llvm::Twine &message) {
  lastErrorDropped = true;
  if (stopped)
    return;
  std::string text = message.str();
  if (!reported.insert({loc.getPointer(), text}).second)
    return;
  if (numErrors == errorLimit) {
    stopped = true;
    print(llvm::SMLoc(), llvm::SourceMgr::DK_Note,
          "too many errors emitted, stopping now");
    return;
  }
  ++numErrors;
  lastErrorDropped = false;
  print(loc, llvm::SourceMgr::DK_Error, text);
}

void DiagEngine::note(llvm::SMLoc loc, const llvm::Twine &message) {
  if (!lastErrorDropped)
    print(loc, llvm::SourceMgr::DK_Note, message);
}

void DiagEngine::print(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
                       const llvm::Twine &message) {
  if (loc.isValid()) {
    sourceMgr.PrintMessage(loc, kind, message);
    return;
  }
  // A location-less SMDiagnostic prints its "file name" as the prefix, which
  // gives the conventional `cavsc: error: ...` of command-line errors.
  sourceMgr.PrintMessage(llvm::errs(),
                         llvm::SMDiagnostic(progName, kind, message.str()));
}
