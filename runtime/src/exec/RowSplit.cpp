//===- RowSplit.cpp - a task's body as calls over consecutive rows --------===//
//
// A part's call is the task's call moved to its first row: its arena and
// scratch rows, state rows and vertex ids start there, and its children
// are repacked slot-major for its rows alone (cavs_call::children's
// layout), with the in-place views of the slots moved along. Every part
// multiplies by the same transposed parameter copies, those of the thread
// that runs the pass, so a row's products do not depend on the thread.
//
//===----------------------------------------------------------------------===//
#include "exec/RowSplit.h"

#include "ops/CpuOps.h"
#include "ops/TransposedOperands.h"
#include "support/Guard.h"
#include "support/ThreadPool.h"

#include <algorithm>

namespace cavs::runtime {

namespace {

/// Rows are cut in the blocks the products cut theirs in, so that a
/// product computes each row as it would unsplit.
constexpr int64_t kRowBlock = cpu::kGemmRowBlock;

int64_t blocksOf(int64_t rows) { return cpu::blockCount(rows, kRowBlock); }

} // namespace

int64_t rowSplitParts(const cavs_function_desc &fn, cavs_phase phase,
                      int64_t rows, bool sharedChildren) {
  if (!fn.row_local[phase] || fn.flops[phase] > kMaxRowSplitFlops ||
      (sharedChildren && phase >= CAVS_PHASE_BACKWARD_EAGER))
    return 1;
  // A product's multiply-add counts a sixteenth of a float moved, as in
  // ops/Gemm.cpp; the arena rows are what the other ops read and write.
  const int64_t floats = rows * (fn.flops[phase] / 32 + fn.arena_floats);
  return partsFor(blocksOf(rows), floats);
}

cavs_status runRowSplit(cavs_phase_fn run, const cavs_call &call,
                        const cavs_function_desc &fn, int64_t parts,
                        RowSplitBuffers &buffers) {
  const int64_t rows = call.rows, arity = fn.arity;
  buffers.children.resize(size_t(rows * arity));
  buffers.childViews.resize(size_t(blocksOf(rows) * arity));
  buffers.statuses.assign(size_t(blocksOf(rows)), CAVS_OK);
  buffers.messages.resize(size_t(blocksOf(rows)));
  // Every array a part writes starts at its first row or block, so the
  // parts' arrays never overlap; the parts multiply by the pass's
  // transposed parameters, which the calling thread holds.
  cpu::OperandCache *operands = cpu::currentOperandCache();
  opPool().parallelFor(
      0, blocksOf(rows), parts, [&](int64_t begin, int64_t end) {
        cpu::SharedOperandCache shared(operands);
        const int64_t first = begin * kRowBlock;
        const int64_t count = cpu::blockEnd(end, rows, kRowBlock) - first;
        cavs_call part = call;
        part.rows = count;
        part.arena_row = call.arena_row + first;
        part.scratch = call.scratch + first * fn.scratch_floats;
        part.state_begin = call.state_begin + first;
        part.vertices = call.vertices + first;
        int32_t *children = buffers.children.data() + first * arity;
        int32_t *views = buffers.childViews.data() + begin * arity;
        for (int64_t k = 0; k < arity; ++k) {
          std::copy_n(call.children + k * rows + first, count,
                      children + k * count);
          views[k] = call.child_views[k] < 0
                         ? call.child_views[k]
                         : call.child_views[k] + static_cast<int32_t>(first);
        }
        part.children = children;
        part.child_views = views;
        buffers.statuses[begin] = run(&part);
        if (buffers.statuses[begin] != CAVS_OK)
          buffers.messages[begin] = lastError();
      });
  for (size_t b = 0; b < buffers.statuses.size(); ++b)
    if (buffers.statuses[b] != CAVS_OK) {
      setLastError(buffers.messages[b]);
      return buffers.statuses[b];
    }
  return CAVS_OK;
}

} // namespace cavs::runtime
