//===- IRNesting.h - a bound on the nesting depth of MLIR text --*- C++ -*-===//
//
// MLIR's parser, verifier, printer and passes recurse once per level of
// nested regions, attributes and types, so text nested thousands of levels
// deep exhausts any stack. Tools that read IR text (cavs-opt, the IR fuzzer)
// scan it first and reject it at the bracket that goes too deep, as the
// .cavs parser does for its own language.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_COMPILER_SUPPORT_IRNESTING_H
#define CAVS_COMPILER_SUPPORT_IRNESTING_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/LogicalResult.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace cavs {

/// The deepest bracket nesting accepted in IR text. cavsc's own IR nests a
/// handful of levels; each level costs the parser a few KiB of stack, so
/// this keeps a parse far below the stack that runIRTool gives it.
constexpr unsigned kMaxIRNestingDepth = 512;

/// Where `text` first opens a bracket ('(', '[', '{', '<') nested more than
/// `limit` levels deep, ignoring string literals and comments; nullptr if it
/// never does. Mismatched closers are skipped, so the count never
/// underestimates how deep the MLIR parser would recurse.
const char *findTooDeepNesting(llvm::StringRef text,
                               unsigned limit = kMaxIRNestingDepth);

/// Checks the main buffer of `sourceMgr`; on failure reports
/// "file:line:col: error: ..." at the offending bracket through it.
llvm::LogicalResult checkIRNesting(llvm::SourceMgr &sourceMgr,
                                   unsigned limit = kMaxIRNestingDepth);

} // namespace cavs

#endif // CAVS_COMPILER_SUPPORT_IRNESTING_H
