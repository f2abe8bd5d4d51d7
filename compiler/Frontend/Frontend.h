//===- Frontend.h - entry points of the .cavs frontend ----------*- C++ -*-===//
//
// What cavsc calls: run the whole frontend (lex, parse, check, elaborate
// into the checked model) on a source buffer, and print the AST for
// --emit=ast.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_COMPILER_FRONTEND_FRONTEND_H
#define CAVS_COMPILER_FRONTEND_FRONTEND_H

#include "compiler/Frontend/AST.h"
#include "compiler/Frontend/CheckedModel.h"

#include "llvm/ADT/ArrayRef.h"

#include <memory>
#include <string>

namespace llvm {
class MemoryBuffer;
class SourceMgr;
class raw_ostream;
} // namespace llvm

namespace cavs {

/// The result of a successful frontend run. Names in the AST and every SMLoc
/// point into the source buffer, so the SourceMgr must outlive this.
struct FrontendResult {
  /// The SourceMgr the module was read from; turns SMLocs into line:col.
  const llvm::SourceMgr *sourceMgr = nullptr;
  std::unique_ptr<ModuleAST> ast;
  checked::Model model;
};

/// Makes `source` the main buffer of `sourceMgr` as the frontend reads
/// source text: without a UTF-8 byte-order mark, and with every CR that does
/// not start a CRLF (old Mac line ends) turned into an LF, so that comments
/// and the line numbers of diagnostics end there.
void addSourceBuffer(llvm::SourceMgr &sourceMgr,
                     std::unique_ptr<llvm::MemoryBuffer> source);

/// Lexes, parses and checks the main buffer of `sourceMgr`. Every diagnostic
/// is printed through `sourceMgr` (file:line:col: error: ..., source line,
/// caret). `defines` are the raw "NAME=VALUE" strings of cavsc's -D options.
/// Returns nullptr when any error was reported.
std::unique_ptr<FrontendResult>
runFrontend(llvm::SourceMgr &sourceMgr, llvm::ArrayRef<std::string> defines);

/// Prints the parsed AST (what `cavsc --emit=ast` shows).
void printAST(const FrontendResult &module, llvm::raw_ostream &os);

} // namespace cavs

#endif // CAVS_COMPILER_FRONTEND_FRONTEND_H
