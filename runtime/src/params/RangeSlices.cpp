//===- RangeSlices.cpp - slices of a list of element ranges ---------------===//
#include "params/RangeSlices.h"

#include <algorithm>

namespace cavs::runtime {

std::vector<ElementRange> sliceRanges(const std::vector<ElementRange> &ranges,
                                      int64_t first, int64_t last) {
  std::vector<ElementRange> slice;
  int64_t start = 0; // of the current range in the concatenation
  for (const ElementRange &range : ranges) {
    const int64_t length = range.end - range.begin;
    const int64_t from = std::max(first, start);
    const int64_t to = std::min(last, start + length);
    if (from < to)
      slice.push_back(
          {range.begin + (from - start), range.begin + (to - start)});
    start += length;
    if (start >= last)
      break;
  }
  return slice;
}

} // namespace cavs::runtime
