//===- Workloads.cpp - the models and data sets cavs-bench runs -----------===//
#include "Workloads.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <random>
#include <stdexcept>

namespace fs = std::filesystem;

namespace cavs::bench {

namespace {

/// Word ids of generated samples: below every example model's V.
constexpr int32_t kVocabulary = 10000;
constexpr int32_t kClasses = 5;
constexpr uint64_t kSeed = 2018;

/// std::mt19937_64's output is fixed by the standard (unlike the std::
/// distributions), so generated samples are the same everywhere.
class Random {
public:
  explicit Random(uint64_t seed) : engine_(seed) {}
  /// Uniform in [lo, hi].
  int32_t uniform(int32_t lo, int32_t hi) {
    return lo + int32_t(engine_() % uint64_t(hi - lo + 1));
  }

private:
  std::mt19937_64 engine_;
};

/// Binary trees in post-order (children before parents, the root last),
/// with a random word at every leaf and a random label at every vertex.
class TreeGenerator {
public:
  /// `balanced`: split every subtree in halves (complete trees when the
  /// leaf count is a power of two); otherwise at a random point.
  TreeGenerator(bool balanced, uint64_t seed)
      : random_(seed), balanced_(balanced) {}

  void appendTree(int32_t leaves, SampleSet &set) {
    children_.clear();
    words_.clear();
    labels_.clear();
    subtree(leaves);
    set.add(children_, {words_, labels_});
  }

  Random &random() { return random_; }

private:
  /// Appends the subtree over `leaves` leaves; returns its root.
  int32_t subtree(int32_t leaves) {
    int32_t left = CAVS_NO_CHILD, right = CAVS_NO_CHILD, word = -1;
    if (leaves > 1) {
      const int32_t split =
          balanced_ ? leaves / 2 : random_.uniform(1, leaves - 1);
      left = subtree(split);
      right = subtree(leaves - split);
    } else {
      word = random_.uniform(0, kVocabulary - 1);
    }
    children_.insert(children_.end(), {left, right});
    words_.push_back(word);
    labels_.push_back(random_.uniform(0, kClasses - 1));
    return int32_t(words_.size()) - 1;
  }

  Random random_;
  bool balanced_;
  std::vector<int32_t> children_, words_, labels_;
};

std::string modelPath(const char *file) {
  return std::string(CAVS_BENCH_MODELS_DIR) + "/" + file;
}

std::string describe(const SampleSet &set, const std::string &what) {
  return what + ": " + std::to_string(set.size()) + " samples, " +
         std::to_string(set.numVertices()) + " vertices";
}

/// Samples to generate: at least `floor`, and four batches of the largest
/// batch size.
int32_t generatedCount(const Options &options, int32_t floor) {
  const int32_t largest =
      *std::max_element(options.batches.begin(), options.batches.end());
  return std::max(floor, 4 * largest);
}

/// The data folder of a workload: --data, else `defaultName` under
/// ../shared/data.
std::string dataFolder(const Options &options, const char *defaultName) {
  return options.data.empty()
             ? std::string(CAVS_BENCH_SHARED_DATA_DIR) + "/" + defaultName
             : options.data;
}

Workload treeLstm(const Options &options) {
  // treelstm.cavs has a leaf and an inner vertex function.
  Workload workload("treelstm", modelPath("treelstm.cavs"),
                    SampleSet(2, {"word", "label"},
                              SampleSet::Typing::LeafType));
  const std::string folder = dataFolder(options, "sst");
  const fs::path train = fs::path(folder) / "train.txt";
  if (fs::is_regular_file(train)) {
    cavs::Vocab vocab;
    workload.samples = SampleSet::fromBatch(
        cavs::loadSstTrees(train.string(), vocab), 2, {"word", "label"},
        SampleSet::Typing::LeafType);
    workload.description = describe(workload.samples, "SST " + train.string());
    return workload;
  }
  if (!options.data.empty())
    throw std::runtime_error("--data=" + options.data +
                             ": no train.txt there (the SST training split, "
                             "one PTB-bracket tree per line)");
  // Sentences of 2-36 words: 37 vertices on average, like SST train.
  TreeGenerator generator(/*balanced=*/false, kSeed);
  for (int32_t i = 0, n = generatedCount(options, 2048); i < n; ++i)
    generator.appendTree(generator.random().uniform(2, 36), workload.samples);
  workload.description = describe(
      workload.samples, "synthetic SST-like trees (no SST in " + folder + ")");
  return workload;
}

Workload treeFc(const Options &options) {
  if (!options.data.empty())
    throw UsageError("--data does not apply to treefc (its trees are "
                     "generated)");
  Workload workload("treefc", modelPath("treefc.cavs"),
                    SampleSet(2, {"word", "label"}));
  TreeGenerator generator(/*balanced=*/true, kSeed);
  for (int32_t i = 0, n = generatedCount(options, 64); i < n; ++i)
    generator.appendTree(256, workload.samples);
  workload.description = describe(
      workload.samples, "complete binary trees of 256 leaves (generated)");
  return workload;
}

std::optional<Workload> chainLstm(const Options &options) {
  if (options.rootLoss)
    throw UsageError("--loss=root applies to the tree workloads (treelstm, "
                     "treefc)");
  const std::string folder = dataFolder(options, "ptb");
  const fs::path valid = fs::path(folder) / "valid.txt";
  if (!fs::is_regular_file(valid)) {
    if (!options.data.empty())
      throw std::runtime_error("--data=" + options.data +
                               ": no valid.txt there (PTB text, one sentence "
                               "per line)");
    std::cout << "chainlstm: skipped, the PTB text " << valid.string()
              << " is absent\n";
    return std::nullopt;
  }
  cavs::Vocab vocab;
  const cavs::GraphBatch chains =
      cavs::loadSentenceChains(valid.string(), vocab);
  // The model predicts the next word: attribute `next`, -1 at the end.
  Workload workload("chainlstm", modelPath("chainlstm.cavs"),
                    SampleSet(1, {"word", "next"}));
  cavs::Span<const int32_t> offsets = chains.sampleOffsets();
  cavs::Span<const int32_t> words = chains.attribute("word");
  std::vector<int32_t> children;
  std::vector<std::vector<int32_t>> values(2);
  for (size_t s = 0; s + 1 < offsets.size(); ++s) {
    const int32_t length = offsets[s + 1] - offsets[s];
    children.resize(size_t(length));
    for (int32_t i = 0; i < length; ++i)
      children[size_t(i)] = i == 0 ? CAVS_NO_CHILD : i - 1;
    values[0].assign(words.begin() + offsets[s],
                     words.begin() + offsets[s + 1]);
    values[1].assign(values[0].begin() + 1, values[0].end());
    values[1].push_back(-1);
    workload.samples.add(children, values);
  }
  workload.description = describe(workload.samples, "PTB " + valid.string());
  return workload;
}

} // namespace

const std::vector<cavs::GraphBatch> &Workload::batches(int32_t batchSize) {
  auto found = batches_.find(batchSize);
  if (found != batches_.end())
    return found->second;
  if (samples.size() < batchSize)
    throw std::runtime_error(
        name + ": the data set has " + std::to_string(samples.size()) +
        " samples, fewer than one batch of " + std::to_string(batchSize));
  std::vector<cavs::GraphBatch> &list = batches_[batchSize];
  const int32_t count = std::min(samples.size() / batchSize, kMaxBatches);
  for (int32_t b = 0; b < count; ++b)
    list.push_back(samples.batch(b * batchSize, batchSize, rootsOnly));
  return list;
}

std::optional<Workload> makeWorkload(const Options &options) {
  std::optional<Workload> workload;
  if (options.workload == "treelstm")
    workload = treeLstm(options);
  else if (options.workload == "treefc")
    workload = treeFc(options);
  else if (options.workload == "chainlstm")
    workload = chainLstm(options);
  else
    throw UsageError("unknown workload '" + options.workload +
                     "' (expected treelstm, treefc or chainlstm)");
  if (workload && options.rootLoss)
    workload->rootsOnly = "label";
  return workload;
}

} // namespace cavs::bench
