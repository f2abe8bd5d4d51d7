//===- TaskBound.cpp - the fewest batched tasks a batch allows ------------===//
#include "TaskBound.h"

#include <algorithm>
#include <vector>

namespace cavs::bench {

int64_t taskLowerBound(const cavs::GraphBatch &batch) {
  const int32_t vertices = batch.numVertices(), types = batch.numTypes();
  cavs::Span<const int32_t> typeOf = batch.types();
  // count[v * types + t]: the most t-vertices on a path from v down to a
  // leaf. Children are visited before their parents with an explicit stack
  // (chains are deeper than a safe recursion).
  std::vector<int32_t> count(size_t(vertices) * size_t(types), 0);
  std::vector<uint8_t> state(size_t(vertices), 0); // 0 new, 1 open, 2 done
  std::vector<int32_t> stack;
  for (int32_t root = 0; root < vertices; ++root) {
    if (state[size_t(root)] != 0)
      continue;
    stack.push_back(root);
    while (!stack.empty()) {
      const int32_t v = stack.back();
      if (state[size_t(v)] == 0) {
        state[size_t(v)] = 1;
        for (int32_t child : batch.children(v))
          if (child != CAVS_NO_CHILD && state[size_t(child)] == 0)
            stack.push_back(child);
        continue;
      }
      stack.pop_back();
      if (state[size_t(v)] == 2)
        continue;
      int32_t *own = count.data() + size_t(v) * size_t(types);
      for (int32_t child : batch.children(v)) {
        if (child == CAVS_NO_CHILD)
          continue;
        const int32_t *below = count.data() + size_t(child) * size_t(types);
        for (int32_t t = 0; t < types; ++t)
          own[t] = std::max(own[t], below[t]);
      }
      ++own[typeOf[v]];
      state[size_t(v)] = 2;
    }
  }
  int64_t bound = 0;
  for (int32_t t = 0; t < types; ++t) {
    int32_t most = 0;
    for (int32_t v = 0; v < vertices; ++v)
      most = std::max(most, count[size_t(v) * size_t(types) + size_t(t)]);
    bound += most;
  }
  return bound;
}

} // namespace cavs::bench
