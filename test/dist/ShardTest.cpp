//===- ShardTest.cpp - the data-parallel work split, without MPI ----------===//
//
// cavs_dist_shard_assign and cavs_dist_shard_batch need no MPI, so the
// split is checked in every build: balance in vertices on SST batches
// (real trees when ../shared/data/sst exists, SST-like sizes otherwise),
// determinism, faithful extraction, and errors for bad input. Also that a
// runtime without MPI refuses to create a trainer with a clear message.
//
//===----------------------------------------------------------------------===//
#include "cavs/dist.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <numeric>
#include <random>

namespace {

/// Vertex counts of SST training trees, or of SST-like random trees
/// (2 * words - 1 vertices, 1..50 words) when the data set is absent.
std::vector<int32_t> sstTreeSizes() {
  const std::string path = CAVS_SHARED_DATA_DIR "/sst/train.txt";
  std::vector<int32_t> sizes;
  if (std::ifstream(path).good()) {
    cavs::Vocab vocab;
    cavs::GraphBatch trees = cavs::loadSstTrees(path, vocab);
    const auto offsets = trees.sampleOffsets();
    for (size_t s = 0; s + 1 < offsets.size(); ++s)
      sizes.push_back(offsets[s + 1] - offsets[s]);
    return sizes;
  }
  std::mt19937 random(7);
  std::uniform_int_distribution<int32_t> words(1, 50);
  for (int i = 0; i < 4000; ++i)
    sizes.push_back(2 * words(random) - 1);
  return sizes;
}

/// The largest rank's vertices over the mean, minus 1.
double imbalance(const std::vector<int32_t> &sizes,
                 const std::vector<int32_t> &ranks, int32_t numRanks) {
  std::vector<int64_t> load(numRanks, 0);
  for (size_t s = 0; s < sizes.size(); ++s)
    load[ranks[s]] += sizes[s];
  const double mean =
      double(std::accumulate(load.begin(), load.end(), int64_t(0))) / numRanks;
  return double(*std::max_element(load.begin(), load.end())) / mean - 1;
}

TEST(DistShard, SstBatchesAreBalancedWithinTenPercent) {
  const std::vector<int32_t> sizes = sstTreeSizes();
  for (int32_t batchSize : {25, 64})
    for (int32_t numRanks : {2, 4}) {
      double worst = 0;
      for (size_t first = 0; first + batchSize <= sizes.size();
           first += batchSize) {
        std::vector<int32_t> batch(sizes.begin() + first,
                                   sizes.begin() + first + batchSize);
        const std::vector<int32_t> ranks =
            cavs::dist::assignSamples(batch, numRanks);
        worst = std::max(worst, imbalance(batch, ranks, numRanks));
      }
      EXPECT_LE(worst, 0.10) << "batch " << batchSize << ", " << numRanks
                             << " ranks";
    }
}

TEST(DistShard, SplitIsDeterministicAndUsesEveryRank) {
  const std::vector<int32_t> sizes = {9, 1, 77, 3, 3, 15, 41, 2, 8, 60};
  const std::vector<int32_t> first = cavs::dist::assignSamples(sizes, 3);
  EXPECT_EQ(first, cavs::dist::assignSamples(sizes, 3));
  for (int32_t rank = 0; rank < 3; ++rank)
    EXPECT_NE(std::find(first.begin(), first.end(), rank), first.end());
  // The largest sample goes first, to rank 0.
  EXPECT_EQ(first[2], 0);
  // One rank takes everything.
  for (int32_t rank : cavs::dist::assignSamples(sizes, 1))
    EXPECT_EQ(rank, 0);
}

TEST(DistShard, RejectsBadInput) {
  int32_t ranks[2];
  const int32_t sizes[2] = {3, 0};
  EXPECT_EQ(cavs_dist_shard_assign(sizes, 2, 2, ranks),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(cavs_last_error_message()).find("sample 1 has 0"),
            std::string::npos);
  EXPECT_EQ(cavs_dist_shard_assign(sizes, 1, 0, ranks),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(cavs_dist_shard_assign(nullptr, 2, 2, ranks),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(cavs_dist_shard_assign(sizes, 1, 2, nullptr),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(cavs_dist_shard_assign(nullptr, 0, 2, nullptr), CAVS_OK);
  cavs_graph_batch *shard = nullptr;
  EXPECT_EQ(cavs_dist_shard_batch(nullptr, 2, 0, &shard),
            CAVS_ERROR_INVALID_ARGUMENT);
}

/// Three trees of 1, 3 and 5 vertices (leaf type 0, inner type 1) with a
/// "word" attribute that numbers the vertices globally.
cavs::GraphBatch threeTrees() {
  cavs::GraphBuilder builder({0, 2});
  builder.addAttribute("word");
  const int32_t none = CAVS_NO_CHILD;
  builder.addSample({0}, {none, none}, {{100}});
  builder.addSample({0, 0, 1}, {none, none, none, none, 0, 1},
                    {{101, 102, 103}});
  builder.addSample({0, 0, 1, 0, 1},
                    {none, none, none, none, 0, 1, none, none, 2, 3},
                    {{104, 105, 106, 107, 108}});
  return builder.finalize();
}

TEST(DistShard, ShardBatchKeepsSamplesAndAttributes) {
  cavs::GraphBatch batch = threeTrees();
  // Sizes 1, 3, 5 over two ranks: 5 → rank 0, 3 → rank 1, 1 → rank 1.
  cavs::GraphBatch zero = cavs::dist::shardOf(batch, 2, 0);
  cavs::GraphBatch one = cavs::dist::shardOf(batch, 2, 1);
  ASSERT_EQ(zero.numSamples(), 1);
  ASSERT_EQ(one.numSamples(), 2);
  EXPECT_EQ(zero.numVertices(), 5);
  EXPECT_EQ(one.numVertices(), 4);
  const auto words = zero.attribute("word");
  EXPECT_EQ(std::vector<int32_t>(words.begin(), words.end()),
            (std::vector<int32_t>{104, 105, 106, 107, 108}));
  // Children become shard-global ids: the root of sample 1 in `one` is
  // vertex 3, whose children are vertices 1 and 2.
  EXPECT_EQ(std::vector<int32_t>(one.children(3).begin(), one.children(3).end()),
            (std::vector<int32_t>{1, 2}));
  const auto oneWords = one.attribute("word");
  EXPECT_EQ(std::vector<int32_t>(oneWords.begin(), oneWords.end()),
            (std::vector<int32_t>{100, 101, 102, 103}));
}

TEST(DistShard, RankWithoutSamplesGetsNoBatch) {
  cavs::GraphBatch batch = threeTrees();
  EXPECT_FALSE(cavs::dist::hasShard(cavs::dist::shardOf(batch, 4, 3)));
  EXPECT_TRUE(cavs::dist::hasShard(cavs::dist::shardOf(batch, 4, 2)));
  cavs_graph_batch *shard = nullptr;
  EXPECT_EQ(cavs_dist_shard_batch(batch.get(), 2, 2, &shard),
            CAVS_ERROR_INVALID_ARGUMENT);
}

TEST(DistOptions, DefaultsAndEnvironment) {
  unsetenv("CAVS_DIST_TIMEOUT");
  cavs_dist_options options = cavs::dist::defaults();
  EXPECT_EQ(options.timeout_seconds, 30);
  EXPECT_EQ(options.bucket_bytes, 4 << 20);
  setenv("CAVS_DIST_TIMEOUT", "2.5", 1);
  EXPECT_EQ(cavs::dist::defaults().timeout_seconds, 2.5);
  setenv("CAVS_DIST_TIMEOUT", "soon", 1);
  EXPECT_EQ(cavs_dist_options_init(&options), CAVS_ERROR_INVALID_ARGUMENT);
  unsetenv("CAVS_DIST_TIMEOUT");
}

TEST(DistTrainer, NullArgumentsAreRejected) {
  EXPECT_EQ(cavs_dist_trainer_create(nullptr, nullptr, nullptr, nullptr),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(cavs_dist_trainer_rank(nullptr), -1);
  EXPECT_EQ(cavs_dist_trainer_size(nullptr), 0);
  EXPECT_EQ(cavs_dist_trainer_step(nullptr, nullptr, nullptr),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(cavs_dist_trainer_last_stats(nullptr).dense_bytes, 0);
  cavs_dist_trainer_destroy(nullptr);
}

} // namespace
