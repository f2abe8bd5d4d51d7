//===- SyntheticSst.cpp - a learnable SST-format sample -------------------===//
#include "SyntheticSst.h"

#include "DataSource.h"
#include "Random.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <vector>

namespace cavs_examples {

namespace {
struct Generator {
  Random random;
  std::vector<int32_t> polarity; // per word
  std::vector<int32_t> words;    // of the sentence being generated

  /// Appends the subtree over words[lo, hi) to `out`; returns its summed
  /// polarity.
  int32_t subtree(int32_t lo, int32_t hi, std::string &out) {
    auto label = [](int32_t sum) { return std::clamp(2 + sum, 0, 4); };
    if (hi - lo == 1) {
      const int32_t sum = polarity[size_t(words[size_t(lo)])];
      char word[16];
      std::snprintf(word, sizeof word, "w%03d", words[size_t(lo)]);
      out += "(" + std::to_string(label(sum)) + " " + word + ")";
      return sum;
    }
    const int32_t split = random.uniform(lo + 1, hi - 1);
    std::string children;
    int32_t sum = subtree(lo, split, children);
    children += " ";
    sum += subtree(split, hi, children);
    out += "(" + std::to_string(label(sum)) + " " + children + ")";
    return sum;
  }

  void writeSplit(const std::filesystem::path &path, int32_t count,
                  const SyntheticSizes &sizes) {
    std::string text;
    const int32_t vocabulary = int32_t(polarity.size());
    for (int32_t i = 0; i < count; ++i) {
      words.resize(size_t(random.uniform(sizes.minWords, sizes.maxWords)));
      for (int32_t &word : words)
        word = random.uniform(0, vocabulary - 1);
      subtree(0, int32_t(words.size()), text);
      text += '\n';
    }
    writeTextFile(path, text);
  }
};
} // namespace

void writeSyntheticSst(const std::string &dir, uint64_t seed,
                       const SyntheticSizes &sizes) {
  Generator generator{Random(seed ^ 0x5eed5eed5eedull), {}, {}};
  // 60% neutral words, 15% each of -1 and +1, 5% each of -2 and +2.
  static const int32_t kPolarities[20] = {0, 0, 0,  0,  0,  0, 0, 0, 0,  0,
                                          0, 0, -1, -1, -1, 1, 1, 1, -2, 2};
  generator.polarity.resize(size_t(sizes.vocabulary));
  for (int32_t &p : generator.polarity)
    p = kPolarities[generator.random.uniform(0, 19)];
  const std::filesystem::path root(dir);
  generator.writeSplit(root / "train.txt", sizes.train, sizes);
  generator.writeSplit(root / "dev.txt", sizes.dev, sizes);
  generator.writeSplit(root / "test.txt", sizes.test, sizes);
}

} // namespace cavs_examples
