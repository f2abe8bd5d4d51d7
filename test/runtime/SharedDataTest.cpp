//===- SharedDataTest.cpp - loaders and scheduler on the real data sets ---===//
//
// Runs on the Stanford Sentiment Treebank and Penn Treebank files of
// ../shared/data (CAVS_SHARED_DATA_DIR) and skips when they are absent, as
// on a user's machine. Counts are recomputed from the raw text.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include <chrono>
#include <fstream>
#include <sstream>

namespace cavs::test {
namespace {

// The path of `relative` in the shared data folder, or "" when absent.
std::string dataFile(const std::string &relative) {
  const std::filesystem::path path =
      std::filesystem::path(CAVS_SHARED_DATA_DIR) / relative;
  return std::filesystem::exists(path) ? path.string() : "";
}

#define REQUIRE_DATA_FILE(var, relative)                                       \
  const std::string var = dataFile(relative);                                  \
  if (var.empty())                                                             \
    GTEST_SKIP() << "shared data file " << CAVS_SHARED_DATA_DIR << "/"         \
                 << relative << " not found";

// The words of each SST line: the blank-separated tokens not starting
// with '(' (each leaf is "(label word)"), with their closing brackets cut.
std::vector<std::vector<std::string>> sstLeafWords(const std::string &path) {
  std::vector<std::vector<std::string>> trees;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    std::istringstream tokens(line);
    std::vector<std::string> words;
    for (std::string token; tokens >> token;)
      if (token[0] != '(')
        words.push_back(token.substr(0, token.find(')')));
    trees.push_back(std::move(words));
  }
  return trees;
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

// Tests the SST dev set: 1101 trees of 2 * leaves - 1 vertices each,
// post-order numbering, words in sentence order, labels on every node.
TEST(SstData, DevTrees) {
  REQUIRE_DATA_FILE(path, "sst/dev.txt");
  const auto start = std::chrono::steady_clock::now();
  Vocab vocab;
  GraphBatch batch = loadSstTrees(path, vocab);
  RecordProperty("load_ms", std::to_string(millisecondsSince(start)));

  const auto leafWords = sstLeafWords(path);
  ASSERT_EQ(leafWords.size(), 1101u);
  ASSERT_EQ(batch.numSamples(), 1101);
  Span<const int32_t> offsets = batch.sampleOffsets();
  Span<const int32_t> words = batch.attribute("word");
  Span<const int32_t> labels = batch.attribute("label");
  int64_t expectedVertices = 0;
  for (int32_t s = 0; s < batch.numSamples(); ++s) {
    const int32_t leaves = static_cast<int32_t>(leafWords[s].size());
    ASSERT_EQ(offsets[s + 1] - offsets[s], 2 * leaves - 1) << "tree " << s;
    expectedVertices += 2 * leaves - 1;
    std::vector<std::string> spelled;
    for (int32_t v = offsets[s]; v < offsets[s + 1]; ++v) {
      ASSERT_GE(labels[v], 0);
      ASSERT_LE(labels[v], 4);
      const bool leaf = batch.children(v)[0] == CAVS_NO_CHILD;
      EXPECT_EQ(leaf, words[v] >= 0) << "vertex " << v;
      if (leaf)
        spelled.push_back(vocab.word(words[v]));
      for (int32_t child : batch.children(v))
        EXPECT_LT(child, v) << "post-order puts children first";
    }
    EXPECT_EQ(spelled, leafWords[s]) << "tree " << s;
    EXPECT_EQ(batch.parentCounts()[offsets[s + 1] - 1], 0)
        << "the root is the last vertex of tree " << s;
  }
  EXPECT_EQ(batch.numVertices(), expectedVertices);
  EXPECT_EQ(batch.roots().size(), 1101u);
}

// Tests the schedule of the whole dev set and records its cost.
TEST(SstData, DevSchedule) {
  REQUIRE_DATA_FILE(path, "sst/dev.txt");
  Vocab vocab;
  GraphBatch batch =
      loadSstTrees(path, vocab, WordPolicy::grow(), TreeTyping::LeafType);
  const auto start = std::chrono::steady_clock::now();
  Schedule schedule(batch);
  const double ms = millisecondsSince(start);
  RecordProperty("schedule_ms", std::to_string(ms));
  RecordProperty("tasks", schedule.tasks().size());
  RecordProperty("levels", schedule.numLevels());
  std::printf("dev: %d vertices, %zu tasks over %d levels, scheduled in "
              "%.2f ms\n",
              batch.numVertices(), schedule.tasks().size(),
              schedule.numLevels(), ms);
  checkSchedule(batch, schedule);
  // Leaves are all at level 0; every higher level has only internal vertices.
  EXPECT_EQ(schedule.tasks().size(), size_t(schedule.numLevels()));
}

// Tests the usual split workflow: vocabulary from train, then dev with
// unknown words mapped to <unk>.
TEST(SstData, TrainVocabularyThenDev) {
  REQUIRE_DATA_FILE(train, "sst/train.txt");
  REQUIRE_DATA_FILE(dev, "sst/dev.txt");
  Vocab vocab;
  const int32_t unk = vocab.add("<unk>");
  GraphBatch trainBatch = loadSstTrees(train, vocab);
  EXPECT_EQ(trainBatch.numSamples(), 8544);
  EXPECT_EQ(trainBatch.numVertices(), 318582);
  const int32_t size = vocab.size();
  GraphBatch devBatch = loadSstTrees(dev, vocab, WordPolicy::mapTo(unk));
  EXPECT_EQ(vocab.size(), size) << "a fixed vocabulary must not grow";
  int32_t unknown = 0;
  for (int32_t word : devBatch.attribute("word"))
    unknown += word == unk;
  EXPECT_GT(unknown, 0);
}

// Tests Penn Treebank sentences as chains: one per line, a vertex per token.
TEST(PtbData, ValidSentenceChains) {
  REQUIRE_DATA_FILE(path, "ptb/valid.txt");
  int64_t tokens = 0;
  {
    std::ifstream in(path);
    for (std::string token; in >> token;)
      ++tokens;
  }
  Vocab vocab;
  GraphBatch batch = loadSentenceChains(path, vocab);
  EXPECT_EQ(batch.numSamples(), 3370);
  EXPECT_EQ(batch.numVertices(), tokens);
  EXPECT_GE(vocab.lookup("<unk>"), 0);
  Schedule schedule(batch);
  checkSchedule(batch, schedule);
}

} // namespace
} // namespace cavs::test
