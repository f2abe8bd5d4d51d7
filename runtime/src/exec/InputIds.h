//===- InputIds.h - range checks of a batch's token ids and labels --------===//
//
// Lookup indices and class labels come from data. The compiler records for
// each i32 pull the bound its ops need (cavs_io_desc::limit), so the
// executor checks the batch's attributes before a pass and names what the
// user can find: the sample, the vertex within it, its vertex function and
// the input. The ops keep their own checks, which only report rows of a
// call, for pulls without a recorded bound.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_EXEC_INPUTIDS_H
#define CAVS_RUNTIME_EXEC_INPUTIDS_H

#include "cavs/program.h"
#include "graph/GraphBatch.h"

#include <string_view>

namespace cavs::runtime {

/// Fails with CAVS_ERROR_INVALID_ARGUMENT at the first vertex (in sample
/// order) with an i32 input at or above its pull's limit in `program`:
/// "model 'm': sample 3, vertex 17 (leaf): pull 'word' = 30 is out of range
/// [0, 30)". The batch must hold every i32 input as an attribute.
Status checkInputIds(std::string_view model, const GraphBatch &batch,
                     const cavs_program_desc &program);

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_EXEC_INPUTIDS_H
