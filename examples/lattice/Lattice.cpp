//===- Lattice.cpp - sentences as character/word lattices -----------------===//
#include "Lattice.h"

#include <algorithm>
#include <numeric>
#include <queue>

namespace lattice {

using cavs::SampleSet;
using cavs_examples::Sentence;

Alphabet::Alphabet(const std::vector<std::string> &sentences) {
  for (const std::string &sentence : sentences)
    for (char c : sentence)
      if (ids_[uint8_t(c)] < 0)
        ids_[uint8_t(c)] = size_++;
}

Lexicon::Lexicon(const std::vector<Sentence> &sentences,
                 const cavs::Vocab &vocab, int32_t size) {
  std::vector<int64_t> counts(size_t(vocab.size()), 0);
  for (const Sentence &sentence : sentences)
    for (int32_t word : sentence)
      ++counts[size_t(word)];
  std::vector<int32_t> order(counts.size());
  std::iota(order.begin(), order.end(), 0);
  // Vocabulary ids follow first appearance, so a stable sort breaks ties
  // by it.
  std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    return counts[size_t(a)] > counts[size_t(b)];
  });
  for (int32_t word : order) {
    if (size_ >= size || counts[size_t(word)] == 0)
      break;
    const std::string text = vocab.word(word);
    if (text.size() < 2)
      continue;
    add(text, size_++);
    longest_ = std::max(longest_, text.size());
  }
  link();
}

void Lexicon::add(const std::string &word, int32_t id) {
  int32_t node = 0;
  for (char c : word) {
    int32_t next = child(node, c);
    if (next < 0) {
      next = int32_t(nodes_.size());
      children_.emplace(key(node, c), next);
      nodes_.push_back(Node{});
      nodes_.back().depth = nodes_[size_t(node)].depth + 1;
    }
    node = next;
  }
  nodes_[size_t(node)].word = id;
}

void Lexicon::link() {
  // Breadth first, so every shorter suffix is linked before it is needed.
  std::vector<std::vector<std::pair<char, int32_t>>> edges(nodes_.size());
  for (const auto &[key, node] : children_)
    edges[size_t(key >> 8)].emplace_back(char(key & 0xff), node);
  std::queue<int32_t> queue;
  queue.push(0);
  while (!queue.empty()) {
    const int32_t parent = queue.front();
    queue.pop();
    for (const auto &[c, node] : edges[size_t(parent)]) {
      int32_t fail = nodes_[size_t(parent)].fail;
      while (parent != 0 && fail != 0 && child(fail, c) < 0)
        fail = nodes_[size_t(fail)].fail;
      const int32_t target = parent == 0 ? -1 : child(fail, c);
      Node &linked = nodes_[size_t(node)];
      linked.fail = target < 0 ? 0 : target;
      const Node &suffix = nodes_[size_t(linked.fail)];
      linked.shorter = suffix.word >= 0 ? linked.fail : suffix.shorter;
      queue.push(node);
    }
  }
}

void Lexicon::matchEnds(
    const std::string &text, int32_t limit,
    const std::function<void(size_t, int32_t, size_t)> &found) const {
  int32_t state = 0;
  for (size_t end = 0; end < text.size(); ++end) {
    const char c = text[end];
    while (state != 0 && child(state, c) < 0)
      state = nodes_[size_t(state)].fail;
    state = std::max(child(state, c), 0);
    int32_t match =
        nodes_[size_t(state)].word >= 0 ? state : nodes_[size_t(state)].shorter;
    for (int32_t count = 0; match != 0 && count < limit; ++count) {
      const Node &node = nodes_[size_t(match)];
      found(end, node.word, size_t(node.depth));
      match = node.shorter;
    }
  }
}

std::vector<std::string> spell(const std::vector<Sentence> &sentences,
                               const cavs::Vocab &vocab) {
  std::vector<std::string> texts;
  for (const Sentence &sentence : sentences) {
    std::string text;
    for (int32_t word : sentence)
      text += (text.empty() ? "" : " ") + vocab.word(word);
    texts.push_back(std::move(text));
  }
  return texts;
}

namespace {
constexpr int32_t kArity = 3;

/// The vertices of one lattice, built up char vertices first.
struct Graph {
  std::vector<int32_t> types, children, ch, next, w;

  int32_t add(int32_t type, int32_t c, int32_t n, int32_t word) {
    types.push_back(type);
    children.insert(children.end(), kArity, CAVS_NO_CHILD);
    ch.push_back(c);
    next.push_back(n);
    w.push_back(word);
    return int32_t(types.size()) - 1;
  }
  int32_t &slot(int32_t v, int32_t k) {
    return children[size_t(v) * kArity + size_t(k)];
  }
};
} // namespace

SampleSet buildLattices(const std::vector<std::string> &sentences,
                        const Alphabet &alphabet, const Lexicon &lexicon,
                        LatticeStats &stats) {
  SampleSet set({kArity, 1}, {"ch", "next", "w"});
  for (const std::string &text : sentences) {
    Graph g;
    const int32_t n = int32_t(text.size());
    // Char vertex j reads text[j - 1] (the start marker for j = 0) and
    // predicts text[j] (the end symbol for j = n).
    for (int32_t j = 0; j <= n; ++j) {
      const int32_t v =
          g.add(0, j == 0 ? Alphabet::kEnd : alphabet.id(text[size_t(j - 1)]),
                j == n ? Alphabet::kEnd : alphabet.id(text[size_t(j)]), -1);
      if (j > 0)
        g.slot(v, 0) = j - 1;
    }
    // Longest first, so that the two kept are the two longest.
    std::vector<int32_t> used(size_t(n), 0);
    lexicon.matchEnds(text, kArity - 1,
                      [&](size_t e, int32_t word, size_t length) {
                        const int32_t v = g.add(1, -1, -1, word);
                        g.slot(v, 0) = int32_t(e + 1 - length);
                        g.slot(int32_t(e) + 1, 1 + used[e]++) = v;
                      });
    stats.chars += n + 1;
    stats.words += int64_t(g.types.size()) - (n + 1);
    using Ints = SampleSet::Ints;
    set.add(Ints(g.types), Ints(g.children),
            {Ints(g.ch), Ints(g.next), Ints(g.w)});
  }
  return set;
}

} // namespace lattice
