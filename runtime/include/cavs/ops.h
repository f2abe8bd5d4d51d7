//===- ops.h - the CPU kernels of the runtime ops -------------------------===//
//
// The batched ops a vertex function's forward and backward code runs,
// described in cavs/ops.def, as CPU functions. Generated code reaches them
// through the CPU's device op table (cavs/device_ops.h, cavs_call::device),
// never by symbol; they are exported for tests and other callers. Not part
// of the user API (runtime.h does not include it).
//
// Data layout shared by every op:
// - a per-vertex value of a call is `rows` consecutive row-major rows: row r
//   starts at `base + r * ld`, with `ld` (elements between consecutive rows)
//   at least the value's width;
// - an i32 per-vertex value (token id, label) lives as int32 bits in a
//   float-sized slot and is passed as `const int32_t *` with the same ld;
// - parameters are plain row-major f32 arrays ([M, K] with ld = K);
// - the model state is one global row-major buffer, one row of `width`
//   floats per vertex of the batch (ld = width); children are passed as
//   `rows * arity` global state rows, children[r * arity + k], with -1
//   (CAVS_NO_CHILD) for an absent child. The schedule stores them slot-major
//   (cavs_call::children), so generated code passes slot k's column as
//   k = 0, arity = 1, children + k * rows.
//
// The generated code is trusted: pointers and sizes are not validated
// (pointers may be NULL only when nothing is read or written through them,
// e.g. rows == 0), and sources must not overlap destinations unless an
// op says so. Every op accepts rows == 0. Only the ops whose indices
// come from input data (lookup ids, labels) check them and return a
// cavs_status; they check every row before writing anything, so a failed
// call leaves its outputs untouched.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_OPS_H
#define CAVS_OPS_H

#include "cavs/model.h"

#include <stdint.h>

CAVS_EXTERN_C_BEGIN

/// cavs_op_<name> for each op of cavs/ops.def, which documents them.
#define CAVS_OP(name, ret, params) CAVS_API ret cavs_op_##name params;
#define CAVS_HOST_OP(name, ret, params) CAVS_API ret cavs_op_##name params;
#include "cavs/ops.def"

CAVS_EXTERN_C_END

#endif // CAVS_OPS_H
