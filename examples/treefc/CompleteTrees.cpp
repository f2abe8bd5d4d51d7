//===- CompleteTrees.cpp - labelled complete binary trees -----------------===//
#include "CompleteTrees.h"

#include "Random.h"

#include <algorithm>
#include <vector>

namespace treefc {

namespace {
using cavs_examples::Random;
using cavs::SampleSet;

class Generator {
public:
  Generator(const TreeShape &shape, uint64_t seed)
      : shape_(shape), random_(seed) {
    // 60% neutral words, 15% each of -1 and +1, 5% each of -2 and +2.
    static const int32_t kPolarities[20] = {0, 0, 0,  0,  0,  0, 0, 0, 0,  0,
                                            0, 0, -1, -1, -1, 1, 1, 1, -2, 2};
    polarity_.resize(size_t(shape.vocabulary));
    for (int32_t &p : polarity_)
      p = kPolarities[random_.uniform(0, 19)];
  }

  /// Draws the words of the trees added next from a stream of their own.
  void reseed(uint64_t seed) { random_ = Random(seed); }

  void addTree(SampleSet &set) {
    types_.clear();
    children_.clear();
    words_.clear();
    labels_.clear();
    subtree(shape_.leaves);
    using Ints = SampleSet::Ints;
    set.add(Ints(types_), Ints(children_), {Ints(words_), Ints(labels_)});
  }

private:
  /// Appends the complete subtree over `leaves` leaves in post-order;
  /// returns its summed polarity.
  int32_t subtree(int32_t leaves) {
    int32_t left = CAVS_NO_CHILD, right = CAVS_NO_CHILD, word = -1, sum = 0;
    if (leaves > 1) {
      sum = subtree(leaves / 2);
      left = int32_t(words_.size()) - 1;
      sum += subtree(leaves - leaves / 2);
      right = int32_t(words_.size()) - 1;
    } else {
      word = random_.uniform(0, shape_.vocabulary - 1);
      sum = polarity_[size_t(word)];
    }
    types_.push_back(leaves > 1 ? kNode : kLeaf);
    children_.insert(children_.end(), {left, right});
    words_.push_back(word);
    labels_.push_back(std::clamp(2 + sum, 0, 4));
    return sum;
  }

  TreeShape shape_;
  Random random_;
  std::vector<int32_t> polarity_;
  std::vector<int32_t> types_, children_, words_, labels_;
};
} // namespace

void generateTrees(const TreeShape &shape, uint64_t seed, int32_t train,
                   int32_t test, SampleSet &trainSet, SampleSet &testSet) {
  Generator generator(shape, seed);
  for (int32_t i = 0; i < train; ++i)
    generator.addTree(trainSet);
  // The test trees come from a stream of their own, so that they do not
  // depend on how many training trees came first (--max-train changed
  // them); the constant keeps it apart from every seed's training stream.
  generator.reseed(seed ^ 0x9E3779B97F4A7C15u);
  for (int32_t i = 0; i < test; ++i)
    generator.addTree(testSet);
}

} // namespace treefc
