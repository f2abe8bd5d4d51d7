//===- SstLoader.cpp - binarized PTB-bracket trees (SST format) -----------===//
//
// Parses one tree per line with an explicit stack of open nodes (no
// recursion, so nesting depth is bounded only by memory). A node becomes a
// vertex when its ')' is read, which numbers each tree's vertices in
// post-order: children before parents, the root last.
//
//===----------------------------------------------------------------------===//
#include "graph/Loaders.h"

#include "graph/TextFile.h"
#include "support/Excerpt.h"

namespace cavs::runtime {

namespace {

constexpr int32_t kMaxLabel = 4;

bool isDelimiter(char c) { return isBlank(c) || c == '(' || c == ')'; }

/// A node whose ')' has not been read yet.
struct OpenNode {
  int32_t label;
  int64_t column;
  int32_t numSubtrees = 0;
  int32_t subtrees[2] = {-1, -1};
  bool hasWord = false;
  int32_t word = -1;
};

/// The vertices of the tree being parsed, in the builder's input layout.
struct TreeArrays {
  std::vector<int32_t> types, children, words, labels;

  void clear() {
    types.clear();
    children.clear();
    words.clear();
    labels.clear();
  }
};

/// Parses one line into `tree`, checking the format as it goes.
class LineParser {
public:
  LineParser(const TextFile &file, std::string_view line, WordMapper &words,
             const TreeTypes &treeTypes, std::vector<OpenNode> &stack,
             TreeArrays &tree)
      : file_(file), line_(line), words_(words), treeTypes_(treeTypes),
        stack_(stack), tree_(tree) {}

  Status parse() {
    stack_.clear();
    tree_.clear();
    bool rootClosed = false;
    while (pos_ < line_.size()) {
      const char c = line_[pos_];
      if (isBlank(c)) {
        ++pos_;
        continue;
      }
      // A stray ')' is reported by close() as unmatched.
      if (rootClosed && c != ')')
        return file_.errorAt(column(),
                             "unexpected '{}' after the end of the "
                             "tree; one tree per line",
                             excerpt(line_.substr(pos_, 1)));
      CAVS_RETURN_IF_ERROR(c == '('   ? open()
                           : c == ')' ? close(rootClosed)
                                      : word());
    }
    if (!stack_.empty())
      return file_.errorAt(stack_.back().column,
                           "unbalanced brackets: {} '(' still open at the end "
                           "of the line (is the tree truncated?)",
                           stack_.size());
    if (!rootClosed)
      return file_.error("empty line; expected a tree");
    return Status();
  }

private:
  int64_t column() const { return static_cast<int64_t>(pos_) + 1; }

  std::string_view atom() {
    const size_t begin = pos_;
    while (pos_ < line_.size() && !isDelimiter(line_[pos_]))
      ++pos_;
    return line_.substr(begin, pos_ - begin);
  }

  Status open() {
    const int64_t nodeColumn = column();
    if (!stack_.empty()) {
      const OpenNode &parent = stack_.back();
      if (parent.hasWord)
        return file_.errorAt(nodeColumn,
                             "a node cannot have both a word and subtrees");
      if (parent.numSubtrees == 2)
        return file_.errorAt(nodeColumn, "a third subtree; binarized trees "
                                         "have 2 subtrees or 1 word per node");
    }
    ++pos_;
    while (pos_ < line_.size() && isBlank(line_[pos_]))
      ++pos_;
    const int64_t labelColumn = column();
    std::string_view text = atom();
    int32_t label;
    if (text.empty())
      return file_.errorAt(labelColumn, "expected a label after '('");
    if (!parseInt32(text, label) || label < 0 || label > kMaxLabel)
      return file_.errorAt(labelColumn,
                           "label '{}' is not an integer in [0, {}]",
                           excerpt(text), kMaxLabel);
    stack_.push_back({label, nodeColumn});
    return Status();
  }

  Status word() {
    const int64_t wordColumn = column();
    std::string_view text = atom();
    if (stack_.empty())
      return file_.errorAt(wordColumn, "expected '(' but found '{}'",
                           excerpt(text));
    OpenNode &node = stack_.back();
    if (node.hasWord || node.numSubtrees > 0)
      return file_.errorAt(wordColumn,
                           "unexpected word '{}'; a leaf has exactly 1 word "
                           "and no subtrees",
                           excerpt(text));
    node.hasWord = true;
    if (Status s = words_.map(text, node.word); !s.ok())
      return std::move(s).withPrefix(file_.location(wordColumn));
    return Status();
  }

  Status close(bool &rootClosed) {
    if (stack_.empty())
      return file_.errorAt(column(), "unmatched ')'");
    ++pos_;
    const OpenNode node = stack_.back();
    stack_.pop_back();
    if (!node.hasWord && node.numSubtrees != 2)
      return file_.errorAt(node.column,
                           "node has {} and no word; binarized trees have 2 "
                           "subtrees or 1 word per node",
                           node.numSubtrees == 1 ? "1 subtree" : "no subtrees");
    const auto vertex = static_cast<int32_t>(tree_.types.size());
    tree_.types.push_back(treeTypes_.typeOf(!node.hasWord));
    tree_.children.insert(tree_.children.end(), node.subtrees,
                          node.subtrees + 2);
    tree_.words.push_back(node.word);
    tree_.labels.push_back(node.label);
    if (stack_.empty()) {
      rootClosed = true;
    } else {
      OpenNode &parent = stack_.back();
      parent.subtrees[parent.numSubtrees++] = vertex;
    }
    return Status();
  }

  const TextFile &file_;
  std::string_view line_;
  WordMapper &words_;
  const TreeTypes &treeTypes_;
  std::vector<OpenNode> &stack_;
  TreeArrays &tree_;
  size_t pos_ = 0;
};

} // namespace

Status loadSstTrees(const std::string &path, WordMapper &words,
                    cavs_tree_typing typing, GraphBatch &out) {
  TreeTypes treeTypes;
  GraphBuilder builder;
  TextFile file;
  int32_t wordAttribute, labelAttribute; // 0 and 1: the order of `attributes`
  CAVS_RETURN_IF_ERROR(TreeTypes::create(typing, 2, treeTypes));
  CAVS_RETURN_IF_ERROR(GraphBuilder::create(treeTypes.arities(), builder));
  CAVS_RETURN_IF_ERROR(builder.addAttribute("word", wordAttribute));
  CAVS_RETURN_IF_ERROR(builder.addAttribute("label", labelAttribute));
  CAVS_RETURN_IF_ERROR(TextFile::read(path, "SST trees", file));

  // Scratch reused by every line, so parsing allocates nothing per vertex.
  std::vector<OpenNode> stack;
  TreeArrays tree;
  std::string_view line;
  while (file.nextLine(line)) {
    CAVS_RETURN_IF_ERROR(
        LineParser(file, line, words, treeTypes, stack, tree).parse());
    const int32_t *attributes[] = {tree.words.data(), tree.labels.data()};
    if (Status s = builder.addSample(static_cast<int32_t>(tree.types.size()),
                                     tree.types.data(), tree.children.data(),
                                     attributes);
        !s.ok())
      return std::move(s).withPrefix(file.location());
  }
  return builder.finalize(out).withPrefix(path + ": ");
}

} // namespace cavs::runtime
