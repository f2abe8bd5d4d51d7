//===- RowSplit.h - a task's body as calls over consecutive rows ----------===//
//
// A body phase that the compiler marks row-local (cavs_function_desc::
// row_local: no op sums over the call's rows) computes each vertex from its
// own rows and its children's, so the CPU can run a task as calls over
// consecutive rows, one per kernel thread, instead of splitting every op of
// the body: one fork and join per task instead of one per op, and each
// thread reads the rows it wrote itself (a gather's rows, a product's, the
// kernel's). Every thread then multiplies by all of a product's weights,
// which pays only while they stay near the core: the split is kept for
// bodies of at most kMaxRowSplitFlops per vertex (docs/performance.md).
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_EXEC_ROWSPLIT_H
#define CAVS_RUNTIME_EXEC_ROWSPLIT_H

#include "cavs/program.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cavs::runtime {

/// FLOPs per vertex above which a body is not split by rows: 2^19, a
/// product's weights of up to 1 MiB (a multiply-add reads one weight).
constexpr int64_t kMaxRowSplitFlops = int64_t(1) << 19;

/// Into how many calls a body task of `rows` rows of `fn`'s `phase` is cut
/// on the CPU: 1 (not split) unless the phase is row-local, within
/// kMaxRowSplitFlops, and its work passes the pool's split threshold; never
/// for a backward phase when `sharedChildren` (a vertex with two parents
/// in the batch: two rows of a task could add into one child's gradient).
int64_t rowSplitParts(const cavs_function_desc &fn, cavs_phase phase,
                      int64_t rows, bool sharedChildren);

/// The per-call arrays of the calls a task is cut into, reused across
/// tasks.
struct RowSplitBuffers {
  std::vector<int32_t> children, childViews;
  std::vector<cavs_status> statuses;
  std::vector<std::string> messages;
};

/// Runs `run` over `call`'s rows as `parts` calls over consecutive rows
/// (whole blocks of 4 rows, as the products split them) on the kernel
/// threads. Returns CAVS_OK, or the status of the first failed call with
/// its message recorded as the calling thread's last error.
cavs_status runRowSplit(cavs_phase_fn run, const cavs_call &call,
                        const cavs_function_desc &fn, int64_t parts,
                        RowSplitBuffers &buffers);

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_EXEC_ROWSPLIT_H
