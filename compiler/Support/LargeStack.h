//===- LargeStack.h - IR work on a thread with a large stack ---*- C++ -*-===//
//
// Deep structures that no bracket shows (alias chains such as
// `#a2 = [#a1]`, long affine expressions) still make MLIR's parser, printer
// and walks recurse once per level. Tools that read IR text run that work
// on a thread whose stack is far larger than the main thread's 8 MiB; only
// inputs of megabytes can exhaust it, and cavs-opt then reports that
// instead of crashing.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_COMPILER_SUPPORT_LARGESTACK_H
#define CAVS_COMPILER_SUPPORT_LARGESTACK_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>

namespace cavs {

/// The stack of runOnLargeStack's thread. Only the pages a run touches are
/// ever backed by memory.
constexpr size_t kLargeStackBytes = size_t(256) << 20;

/// Runs `fn` to completion on a new thread with a kLargeStackBytes stack.
/// If `tool` is not empty, exhausting that stack prints "<tool>: error: ..."
/// and exits the process with status 1 rather than crashing it; fuzzers
/// leave it empty so that their sanitizers see the overflow.
void runOnLargeStack(llvm::function_ref<void()> fn, llvm::StringRef tool = {});

} // namespace cavs

#endif // CAVS_COMPILER_SUPPORT_LARGESTACK_H
