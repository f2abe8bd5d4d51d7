//===- Workloads.cpp - the models and data sets cavs-bench runs -----------===//
#include "Workloads.h"

#include "TaskBound.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <numeric>
#include <random>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

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

/// The vertex functions of a tree model.
enum class TreeTypes {
  /// One function of arity 2 (leaves have absent children).
  One,
  /// A leaf function (type 0, arity 0) and an inner one (type 1, arity 2),
  /// as CAVS_TREE_LEAF_TYPE.
  LeafInner,
  /// Two functions of arity 2 with their own weights, chosen 50/50 per
  /// vertex (TreeLSTM-2Type).
  TwoInner,
};

std::vector<int32_t> arities(TreeTypes types) {
  switch (types) {
  case TreeTypes::One:
    return {2};
  case TreeTypes::LeafInner:
    return {0, 2};
  case TreeTypes::TwoInner:
    return {2, 2};
  }
  return {};
}

/// Binary trees in post-order (children before parents, the root last),
/// with a random word at every leaf and a random label at every vertex.
class TreeGenerator {
public:
  /// `balanced`: split every subtree in halves (complete trees when the
  /// leaf count is a power of two); otherwise at a random point.
  TreeGenerator(bool balanced, TreeTypes types, uint64_t seed)
      : random_(seed), balanced_(balanced), treeTypes_(types) {}

  void appendTree(int32_t leaves, SampleSet &set) {
    vertexTypes_.clear();
    children_.clear();
    words_.clear();
    labels_.clear();
    subtree(leaves);
    set.add(vertexTypes_, children_, {words_, labels_});
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
    vertexTypes_.push_back(typeOf(leaves > 1));
    return int32_t(words_.size()) - 1;
  }

  int32_t typeOf(bool inner) {
    if (treeTypes_ == TreeTypes::LeafInner)
      return inner;
    return treeTypes_ == TreeTypes::TwoInner ? random_.uniform(0, 1) : 0;
  }

  Random random_;
  bool balanced_;
  TreeTypes treeTypes_;
  std::vector<int32_t> vertexTypes_, children_, words_, labels_;
};

std::string modelPath(const std::string &file) {
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

/// A tree model on SST train (synthetic SST-like trees when the default
/// data set is absent).
Workload sstTrees(const Options &options, const std::string &name,
                  TreeTypes types) {
  Workload workload(name, modelPath(name + ".cavs"),
                    SampleSet(arities(types), {"word", "label"}));
  const std::string folder = dataFolder(options, "sst");
  const fs::path train = fs::path(folder) / "train.txt";
  if (fs::is_regular_file(train)) {
    cavs::Vocab vocab;
    const cavs::GraphBatch trees = cavs::loadSstTrees(
        train.string(), vocab, cavs::WordPolicy::grow(),
        types == TreeTypes::LeafInner ? cavs::TreeTyping::LeafType
                                      : cavs::TreeTyping::OneType);
    workload.samples = SampleSet::fromBatch(trees, {"word", "label"});
    if (types == TreeTypes::TwoInner) {
      Random random(kSeed);
      workload.samples.retype(arities(types), [&](int32_t, int32_t, int32_t) {
        return random.uniform(0, 1);
      });
    }
    workload.description = describe(workload.samples, "SST " + train.string());
    return workload;
  }
  if (!options.data.empty())
    throw std::runtime_error("--data=" + options.data +
                             ": no train.txt there (the SST training split, "
                             "one PTB-bracket tree per line)");
  // Sentences of 2-36 words: 37 vertices on average, like SST train.
  TreeGenerator generator(/*balanced=*/false, types, kSeed);
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
                    SampleSet(arities(TreeTypes::LeafInner), {"word", "label"}));
  TreeGenerator generator(/*balanced=*/true, TreeTypes::LeafInner, kSeed);
  for (int32_t i = 0, n = generatedCount(options, 64); i < n; ++i)
    generator.appendTree(256, workload.samples);
  workload.description = describe(
      workload.samples, "complete binary trees of 256 leaves (generated)");
  return workload;
}

/// The PTB text the language models read (valid.txt: PTB has no training
/// split here), or nothing after saying why.
std::optional<fs::path> ptbText(const Options &options,
                                const std::string &workload) {
  if (options.rootLoss)
    throw UsageError("--loss=root applies to the tree workloads");
  const fs::path valid = fs::path(dataFolder(options, "ptb")) / "valid.txt";
  if (fs::is_regular_file(valid))
    return valid;
  if (!options.data.empty())
    throw std::runtime_error("--data=" + options.data +
                             ": no valid.txt there (PTB text, one sentence "
                             "per line)");
  std::cout << workload << ": skipped, the PTB text " << valid.string()
            << " is absent\n";
  return std::nullopt;
}

/// Appends the chain over `words` predicting `next` (-1: no loss).
void addChain(const std::vector<int32_t> &words,
              const std::vector<int32_t> &next, SampleSet &set) {
  std::vector<int32_t> children(words.size());
  for (size_t i = 0; i < words.size(); ++i)
    children[i] = i == 0 ? CAVS_NO_CHILD : int32_t(i) - 1;
  set.add(std::vector<int32_t>(words.size(), 0), children, {words, next});
}

/// The language models on PTB: one chain per sentence (Var-LSTM) or the
/// running text cut into chains of `fixedLength` words (Fixed-LSTM); each
/// vertex predicts the next word.
std::optional<Workload> ptbChains(const Options &options,
                                  const std::string &name,
                                  int32_t fixedLength) {
  const std::optional<fs::path> text = ptbText(options, name);
  if (!text)
    return std::nullopt;
  cavs::Vocab vocab;
  const cavs::GraphBatch sentences =
      cavs::loadSentenceChains(text->string(), vocab);
  Workload workload(name, modelPath("chainlstm.cavs"),
                    SampleSet({1}, {"word", "next"}));
  cavs::Span<const int32_t> offsets = sentences.sampleOffsets();
  cavs::Span<const int32_t> words = sentences.attribute("word");
  std::vector<int32_t> chain, next;
  if (fixedLength > 0) {
    for (size_t first = 0; first + size_t(fixedLength) <= words.size();
         first += size_t(fixedLength)) {
      chain.assign(words.begin() + first, words.begin() + first + fixedLength);
      const size_t end = first + size_t(fixedLength);
      next.assign(chain.begin() + 1, chain.end());
      next.push_back(end < words.size() ? words[end] : -1);
      addChain(chain, next, workload.samples);
    }
    workload.description =
        describe(workload.samples, "PTB " + text->string() + " in chains of " +
                                       std::to_string(fixedLength) + " words");
    return workload;
  }
  for (size_t s = 0; s + 1 < offsets.size(); ++s) {
    chain.assign(words.begin() + offsets[s], words.begin() + offsets[s + 1]);
    next.assign(chain.begin() + 1, chain.end());
    next.push_back(-1);
    addChain(chain, next, workload.samples);
  }
  workload.description = describe(workload.samples, "PTB " + text->string());
  return workload;
}

/// Builds the character lattices of lattice.cavs from text: a chain of
/// character vertices (type 0: previous character, then up to two words
/// ending here) plus a word vertex (type 1: the character before the word)
/// for every lexicon word found inside a token, longest first.
class LatticeBuilder {
public:
  /// Character and lexicon ids stay below the model's A and V.
  static constexpr int32_t kCharacters = 64, kLexicon = 10000;
  static constexpr int32_t kWordsPerCharacter = 2, kMinWordLength = 2;

  /// The lexicon: the most frequent tokens of at least two characters.
  explicit LatticeBuilder(const std::vector<std::vector<std::string>> &text) {
    std::unordered_map<std::string, int64_t> counts;
    for (const auto &sentence : text)
      for (const std::string &token : sentence)
        if (token.size() >= size_t(kMinWordLength))
          ++counts[token];
    std::vector<std::pair<std::string, int64_t>> byCount(counts.begin(),
                                                         counts.end());
    std::sort(byCount.begin(), byCount.end(), [](auto &a, auto &b) {
      return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    for (size_t i = 0; i < byCount.size() && i < size_t(kLexicon); ++i)
      lexicon_.emplace(byCount[i].first, int32_t(i));
  }

  void add(const std::vector<std::string> &sentence, SampleSet &set) {
    std::string chars;
    std::vector<size_t> tokenStart;
    for (const std::string &token : sentence) {
      if (!chars.empty())
        chars += ' ';
      tokenStart.push_back(chars.size());
      chars += token;
    }
    // Words ending at each character, longest first: [start, end].
    std::vector<std::vector<std::pair<int32_t, int32_t>>> endingAt(
        chars.size());
    for (size_t t = 0; t < sentence.size(); ++t) {
      const size_t begin = tokenStart[t], end = begin + sentence[t].size();
      for (size_t last = begin + 1; last < end; ++last)
        for (size_t start = begin;
             start + kMinWordLength <= last + 1 &&
             endingAt[last].size() < size_t(kWordsPerCharacter);
             ++start) {
          auto word = lexicon_.find(chars.substr(start, last - start + 1));
          if (word != lexicon_.end())
            endingAt[last].push_back({int32_t(start), word->second});
        }
    }
    types_.clear();
    children_.clear();
    for (auto &values : values_)
      values.clear();
    std::vector<int32_t> charVertex(chars.size());
    for (size_t i = 0; i < chars.size(); ++i) {
      std::vector<int32_t> slots = {
          i == 0 ? CAVS_NO_CHILD : charVertex[i - 1]};
      for (auto [start, word] : endingAt[i]) {
        slots.push_back(vertex(1, {start == 0 ? CAVS_NO_CHILD
                                              : charVertex[size_t(start) - 1]},
                               -1, -1, word));
      }
      const int32_t next = i + 1 < chars.size() ? charId(chars[i + 1]) : -1;
      charVertex[i] = vertex(0, slots, charId(chars[i]), next, -1);
    }
    set.add(types_, children_,
            std::vector<SampleSet::Ints>(values_.begin(), values_.end()));
  }

private:
  /// Appends a vertex; returns its sample-local id.
  int32_t vertex(int32_t type, std::vector<int32_t> slots, int32_t ch,
                 int32_t next, int32_t word) {
    slots.resize(1 + kWordsPerCharacter, CAVS_NO_CHILD);
    types_.push_back(type);
    children_.insert(children_.end(), slots.begin(), slots.end());
    values_[0].push_back(ch);
    values_[1].push_back(next);
    values_[2].push_back(word);
    return int32_t(types_.size()) - 1;
  }

  /// Characters get ids in order of appearance; the last id stands for
  /// every character beyond the alphabet.
  int32_t charId(char c) {
    auto [it, added] =
        charIds_.emplace(c, std::min(int32_t(charIds_.size()),
                                     kCharacters - 1));
    return it->second;
  }

  std::unordered_map<std::string, int32_t> lexicon_;
  std::unordered_map<char, int32_t> charIds_;
  std::vector<int32_t> types_, children_;
  std::vector<std::vector<int32_t>> values_{3};
};

std::optional<Workload> lattice(const Options &options) {
  const std::optional<fs::path> path = ptbText(options, "lattice");
  if (!path)
    return std::nullopt;
  std::ifstream in(*path);
  std::vector<std::vector<std::string>> text;
  for (std::string line; std::getline(in, line);) {
    std::istringstream tokens(line);
    std::vector<std::string> sentence{std::istream_iterator<std::string>(tokens),
                                      {}};
    if (!sentence.empty())
      text.push_back(std::move(sentence));
  }
  Workload workload("lattice", modelPath("lattice.cavs"),
                    SampleSet({1 + LatticeBuilder::kWordsPerCharacter, 1},
                              {"ch", "next", "w"}));
  LatticeBuilder builder(text);
  for (const auto &sentence : text)
    builder.add(sentence, workload.samples);
  workload.description =
      describe(workload.samples, "character lattices of PTB " + path->string());
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
  std::vector<int32_t> ids(static_cast<size_t>(batchSize));
  auto build = [&](int32_t b) {
    std::iota(ids.begin(), ids.end(), b * batchSize);
    return samples.batch(ids.data(), batchSize);
  };
  for (int32_t b = 0; b < count; ++b)
    list.push_back(build(b));
  // Timed as a training loop pays it: each batch built and dropped after
  // its step, so its memory is reused. Building the list above also
  // faults in fresh pages for every batch kept (about 3x slower per batch
  // on this project's VMs), which no such loop does after its first step.
  const auto start = std::chrono::steady_clock::now();
  for (int32_t b = 0; b < count; ++b)
    const cavs::GraphBatch rebuilt = build(b);
  buildSeconds_[batchSize] =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count() /
      count;
  std::vector<int64_t> &bounds = taskBounds_[batchSize];
  for (const cavs::GraphBatch &batch : list)
    bounds.push_back(taskLowerBound(batch));
  return list;
}

std::optional<Workload> makeWorkload(const Options &options) {
  std::optional<Workload> workload;
  const std::string &name = options.workload;
  if (name == "treelstm" || name == "treelstm-nary")
    workload = sstTrees(options, name, TreeTypes::LeafInner);
  else if (name == "treegru")
    workload = sstTrees(options, name, TreeTypes::One);
  else if (name == "treelstm2type")
    workload = sstTrees(options, name, TreeTypes::TwoInner);
  else if (name == "treefc")
    workload = treeFc(options);
  else if (name == "chainlstm")
    workload = ptbChains(options, name, /*fixedLength=*/0);
  else if (name == "fixedlstm")
    workload = ptbChains(options, name, /*fixedLength=*/64);
  else if (name == "lattice")
    workload = lattice(options);
  else
    throw UsageError("unknown workload '" + name +
                     "' (expected treelstm, treelstm-nary, treegru, "
                     "treelstm2type, treefc, chainlstm, fixedlstm or lattice)");
  if (workload && options.rootLoss)
    workload->samples.maskNonRoots(workload->rootsOnly = "label");
  return workload;
}

} // namespace cavs::bench
