//===- RangeSlices.h - work over element ranges, split over the pool ------===//
//
// The gradient zeroing and the optimizers' updates visit a list of element
// ranges of the flat buffers (GradStore::activeRanges): one long range for
// the dense parameters and a row each for the touched rows of embedding
// tables. They are split over the kernel threads (support/ThreadPool.h) by
// elements of the ranges' concatenation, so that a few large parameters
// split as evenly as many rows. Every element is visited once, by the same
// code whatever the split, so the results do not depend on the thread count.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_PARAMS_RANGESLICES_H
#define CAVS_RUNTIME_PARAMS_RANGESLICES_H

#include "params/GradStore.h"
#include "support/ThreadPool.h"

#include <vector>

namespace cavs::runtime {

/// The elements of `ranges` numbered [first, last) in their concatenation,
/// as ranges in the same order.
std::vector<ElementRange> sliceRanges(const std::vector<ElementRange> &ranges,
                                      int64_t first, int64_t last);

/// fn(slice) over slices of `ranges` (each a std::vector<ElementRange>),
/// one per thread when the work touches enough floats (`floatsPerElement`
/// read or written per element; parallelRanges' threshold). Slices are cut
/// like parallelColumns' columns, at multiples of 16 elements of the
/// concatenation: the dense parameters start the buffer, 64-byte aligned,
/// so two threads rarely write one cache line.
template <typename Fn>
void parallelSlices(const std::vector<ElementRange> &ranges,
                    int64_t floatsPerElement, const Fn &fn) {
  int64_t elements = 0;
  for (const ElementRange &range : ranges)
    elements += range.end - range.begin;
  parallelColumns(elements, elements * floatsPerElement,
                  [&](int64_t first, int64_t last) {
                    fn(sliceRanges(ranges, first, last));
                  });
}

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_PARAMS_RANGESLICES_H
