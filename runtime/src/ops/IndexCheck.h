//===- IndexCheck.h - range checks of data-driven indices -----------------===//
//
// Lookup ids and labels come from input files, so unlike the other operands
// of the generated code they are checked. The check runs over all rows before
// an op writes anything, so a failed op leaves its outputs untouched.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_OPS_INDEXCHECK_H
#define CAVS_RUNTIME_OPS_INDEXCHECK_H

#include "support/Status.h"

#include <cstdint>

namespace cavs::runtime {

/// Fails with CAVS_ERROR_INVALID_ARGUMENT for the first row whose index
/// (index[r * ld]) is ≥ limit: "<what> 7 is out of range [0, 5) at row 2".
/// Negative indices are allowed (they mean "none").
inline Status checkIndices(const char *what, int64_t rows, const int32_t *index,
                           int64_t ld, int64_t limit) {
  for (int64_t r = 0; r < rows; ++r)
    if (index[r * ld] >= limit)
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "{} {} is out of range [0, {}) at row {}", what,
                       index[r * ld], limit, r);
  return Status();
}

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_OPS_INDEXCHECK_H
