//===- Validate.cpp - validation of one sample's graph --------------------===//
//
// The cycle check is an iterative depth-first search over child links with
// three colours; meeting a vertex that is still on the DFS stack closes a
// cycle, which the stack holds in full, so the message can print it. It
// runs only for samples whose links do not all point one way in index
// order.
//
//===----------------------------------------------------------------------===//
#include "graph/Validate.h"

#include <fmt/format.h>

namespace cavs::runtime {

namespace {
enum Colour : uint8_t { Unvisited = 0, OnStack = 1, Done = 2 };

// Cycles longer than this are printed with their middle elided.
constexpr size_t kMaxCycleVerticesShown = 8;
} // namespace

Status SampleValidator::checkTypes(const SampleView &sample,
                                   const std::vector<int32_t> &arities,
                                   int64_t &childSlots) {
  const auto numTypes = static_cast<int32_t>(arities.size());
  childSlots = 0;
  for (int32_t v = 0; v < sample.numVertices; ++v) {
    int32_t type = sample.types[v];
    if (type < 0 || type >= numTypes)
      return makeError(CAVS_ERROR_INVALID_GRAPH,
                       "sample {}, vertex {}: unknown type id {} (the graph "
                       "has types 0 to {})",
                       sample.index, v, type, numTypes - 1);
    childSlots += arities[type];
  }
  return Status();
}

Status SampleValidator::checkChildren(const SampleView &sample,
                                      const std::vector<int32_t> &arities) {
  const int32_t n = sample.numVertices;
  bool childrenFirst = true, parentsFirst = true;
  for (int32_t v = 0; v < n; ++v) {
    const int32_t type = sample.types[v];
    const int32_t arity = arities[type];
    const int32_t *slots = sample.children + int64_t(v) * sample.maxArity;
    for (int32_t k = 0; k < sample.maxArity; ++k) {
      int32_t child = slots[k];
      if (child == -1)
        continue;
      if (k >= arity)
        return makeError(CAVS_ERROR_INVALID_GRAPH,
                         "sample {}, vertex {}: child slot {} is set (to {}) "
                         "but type {} has arity {}",
                         sample.index, v, k, child, type, arity);
      if (child < 0 || child >= n)
        return makeError(CAVS_ERROR_INVALID_GRAPH,
                         "sample {}, vertex {}: child slot {} refers to "
                         "vertex {}, outside the sample's range [0, {}) (use "
                         "-1 for an absent child)",
                         sample.index, v, k, child, n);
      if (child == v)
        return makeError(CAVS_ERROR_INVALID_GRAPH,
                         "sample {}, vertex {}: child slot {} refers to the "
                         "vertex itself",
                         sample.index, v, k);
      childrenFirst &= child < v;
      parentsFirst &= child > v;
    }
  }
  // Links that all point one way in index order (children before their
  // parents, as the loaders write trees, or all after) close no cycle.
  if (childrenFirst || parentsFirst)
    return Status();
  return checkAcyclic(sample, arities);
}

Status SampleValidator::checkAcyclic(const SampleView &sample,
                                     const std::vector<int32_t> &arities) {
  const int32_t n = sample.numVertices;
  colour_.assign(n, Unvisited);
  stack_.clear();
  for (int32_t start = 0; start < n; ++start) {
    if (colour_[start] != Unvisited)
      continue;
    colour_[start] = OnStack;
    stack_.emplace_back(start, 0);
    while (!stack_.empty()) {
      auto &[v, slot] = stack_.back();
      const int32_t arity = arities[sample.types[v]];
      const int32_t *slots = sample.children + int64_t(v) * sample.maxArity;
      while (slot < arity &&
             (slots[slot] == -1 || colour_[slots[slot]] == Done))
        ++slot;
      if (slot == arity) {
        colour_[v] = Done;
        stack_.pop_back();
        continue;
      }
      const int32_t child = slots[slot++];
      if (colour_[child] == Unvisited) {
        colour_[child] = OnStack;
        stack_.emplace_back(child, 0); // invalidates v and slot
        continue;
      }
      // `child` is on the stack: the stack from it to the top is a cycle.
      size_t first = stack_.size() - 1;
      while (stack_[first].first != child)
        --first;
      const size_t length = stack_.size() - first;
      std::string path;
      for (size_t i = first; i < stack_.size(); ++i) {
        if (length > kMaxCycleVerticesShown &&
            i == first + kMaxCycleVerticesShown / 2) {
          path += "... -> ";
          i = stack_.size() - kMaxCycleVerticesShown / 2;
        }
        path += fmt::format("{} -> ", stack_[i].first);
      }
      path += std::to_string(child);
      return makeError(CAVS_ERROR_INVALID_GRAPH,
                       "sample {}: cycle of {} vertices through child links: "
                       "{}",
                       sample.index, length, path);
    }
  }
  return Status();
}

} // namespace cavs::runtime
