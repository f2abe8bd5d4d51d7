//===- RandomBatches.cpp - seeded random binary trees and chains ----------===//
//
// A tree of n leaves is built by repeatedly joining two random roots of
// the forest of leaves, children before parents, so any n gives a valid
// binary tree in a few lines.
//
//===----------------------------------------------------------------------===//
#include "RandomBatches.h"

#include <random>

namespace cavs::test {

namespace {

/// The leaves of tree `index`, or the words of chain `index`.
int32_t sizeOf(std::mt19937_64 &random, int32_t index, TreeSizes sizes) {
  auto uniform = [&](int32_t lo, int32_t hi) {
    return std::uniform_int_distribution<int32_t>(lo, hi)(random);
  };
  switch (sizes) {
  case TreeSizes::Small:
    return uniform(1, 20);
  case TreeSizes::SstLike:
    return uniform(2, 40);
  case TreeSizes::Uneven:
    return index == 0 ? 100 : uniform(1, 3);
  }
  return 1;
}

} // namespace

GraphBatch makeTreeBatch(uint64_t seed, int32_t samples, TreeSizes sizes,
                         int32_t vocabulary, int32_t badLabelSample) {
  std::mt19937_64 random(seed);
  GraphBuilder builder({0, 2});
  builder.addAttribute("word");
  builder.addAttribute("label");
  for (int32_t s = 0; s < samples; ++s) {
    const int32_t leaves = sizeOf(random, s, sizes);
    std::vector<int32_t> types, children, words, labels, roots;
    for (int32_t v = 0; v < leaves; ++v) {
      types.push_back(0);
      children.insert(children.end(), {CAVS_NO_CHILD, CAVS_NO_CHILD});
      words.push_back(int32_t(random() % uint64_t(vocabulary)));
      labels.push_back(int32_t(random() % 5));
      roots.push_back(v);
    }
    while (roots.size() > 1) {
      const size_t a = random() % roots.size();
      const int32_t left = roots[a];
      roots.erase(roots.begin() + a);
      const size_t b = random() % roots.size();
      const int32_t right = roots[b];
      roots[b] = static_cast<int32_t>(types.size());
      types.push_back(1);
      children.insert(children.end(), {left, right});
      words.push_back(-1);
      labels.push_back(int32_t(random() % 5));
    }
    if (s == badLabelSample)
      labels.back() = 5;
    builder.addSample(types, children, {words, labels});
  }
  return builder.finalize();
}

GraphBatch makeChainBatch(uint64_t seed, int32_t samples, TreeSizes sizes,
                          int32_t vocabulary, int32_t badNextSample) {
  std::mt19937_64 random(seed);
  GraphBuilder builder({1});
  builder.addAttribute("word");
  builder.addAttribute("next");
  for (int32_t s = 0; s < samples; ++s) {
    const int32_t length = sizeOf(random, s, sizes);
    std::vector<int32_t> types(length, 0), children, words, next;
    for (int32_t v = 0; v < length; ++v) {
      children.push_back(v > 0 ? v - 1 : CAVS_NO_CHILD);
      words.push_back(int32_t(random() % uint64_t(vocabulary)));
    }
    next.assign(words.begin() + 1, words.end());
    next.push_back(s == badNextSample ? vocabulary : -1);
    builder.addSample(types, children, {words, next});
  }
  return builder.finalize();
}

} // namespace cavs::test
