//===- IRLimits.h - limits checked on MLIR text before parsing --*- C++ -*-===//
//
// Inputs that MLIR's parser handles badly, rejected up front by the tools
// that read IR text (cavs-opt, the IR fuzzer), as the .cavs frontend does
// for its own language:
//  - nesting: the parser, verifier, printer and passes recurse once per
//    level of nested regions, attributes and types, so text nested
//    thousands of levels deep exhausts any stack;
//  - long numeric literals: converting n digits to an APInt takes time
//    cubic in n (16 KiB of digits take seconds, 64 KiB minutes).
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_COMPILER_SUPPORT_IRLIMITS_H
#define CAVS_COMPILER_SUPPORT_IRLIMITS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/LogicalResult.h"

#include <string>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace cavs {

/// The deepest bracket nesting accepted in IR text. cavsc's own IR nests a
/// handful of levels; each level costs the parser a few KiB of stack, so
/// this keeps a parse far below the stack that runOnLargeStack gives it.
constexpr unsigned kMaxIRNestingDepth = 512;

/// The most digits accepted in one numeric literal: enough for any i1024
/// in decimal or hex, and parsed in microseconds.
constexpr size_t kMaxIRLiteralLength = 1024;

/// The first place where `text` breaks a limit, and which.
struct IRLimitViolation {
  const char *where = nullptr;
  std::string message;
};

/// Scans `text` with MLIR's lexical rules for what is not code (strings,
/// comments). A bracket ('(', '[', '{', '<') nested more than `maxDepth`
/// levels deep breaks the nesting limit; closers that match no open bracket
/// are skipped, so the count never underestimates how deep the parser
/// would recurse. A run of more than `maxLiteral` digits that starts a
/// number (not inside a name such as %v123 or i32) breaks the literal limit.
/// A NUL byte outside strings and comments, which MLIR's lexer would skip,
/// is refused too, and so are more than `maxDepth` '-' in a row (blanks
/// between them allowed): each nests a negation in an affine expression.
/// `where` is null when no limit is broken.
IRLimitViolation findIRLimitViolation(llvm::StringRef text,
                                      unsigned maxDepth = kMaxIRNestingDepth,
                                      size_t maxLiteral = kMaxIRLiteralLength);

/// Checks the main buffer of `sourceMgr`; on failure reports
/// "file:line:col: error: ..." through it.
llvm::LogicalResult checkIRLimits(llvm::SourceMgr &sourceMgr);

} // namespace cavs

#endif // CAVS_COMPILER_SUPPORT_IRLIMITS_H
