//===- SyntheticText.cpp - a learnable PTB-format text sample -------------===//
#include "SyntheticText.h"

#include "DataSource.h"
#include "Random.h"

#include <array>
#include <set>
#include <vector>

namespace cavs_examples {

namespace {
struct Language {
  std::vector<std::string> words;
  std::vector<std::array<int32_t, 3>> successors;

  Language(Random &random, int32_t vocabulary) {
    std::set<std::string> seen;
    while (int32_t(words.size()) < vocabulary) {
      std::string word(size_t(random.uniform(2, 6)), ' ');
      for (char &c : word)
        c = char('a' + random.uniform(0, 11));
      if (seen.insert(word).second)
        words.push_back(word);
    }
    successors.resize(words.size());
    for (auto &next : successors)
      for (int32_t &w : next)
        w = random.uniform(0, vocabulary - 1);
  }

  std::string sentence(Random &random) const {
    const int32_t length = random.uniform(4, 14);
    int32_t word = random.uniform(0, 9); // sentences start in a few words
    std::string line;
    for (int32_t i = 0; i < length; ++i) {
      line += " " + words[size_t(word)];
      const int32_t roll = random.uniform(0, 9);
      word = successors[size_t(word)][roll < 6 ? 0 : roll < 9 ? 1 : 2];
    }
    return line + " \n";
  }
};
} // namespace

void writeSyntheticText(const std::string &dir, uint64_t seed,
                        const SyntheticTextSizes &sizes) {
  Random random(seed ^ 0x7e77e77e77ull);
  const Language language(random, sizes.vocabulary);
  const std::filesystem::path root(dir);
  for (const auto &[file, count] :
       {std::pair<const char *, int32_t>{"valid.txt", sizes.valid},
        {"test.txt", sizes.test}}) {
    std::string text;
    for (int32_t i = 0; i < count; ++i)
      text += language.sentence(random);
    writeTextFile(root / file, text);
  }
}

} // namespace cavs_examples
