//===- LoadersTest.cpp - input graph loaders on small inline files --------===//
//
// Each loader on a few lines written to a per-test temp directory: the graph
// it emits (types, child order, vertex numbering, attributes) and one test
// per class of malformed input, checking the file:line:column message.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include <functional>
#include <sys/stat.h>

namespace cavs::test {
namespace {

std::vector<int32_t> toVector(Span<const int32_t> values) {
  return {values.begin(), values.end()};
}

// All child slots of a batch, vertex by vertex.
std::vector<int32_t> allChildren(const GraphBatch &batch) {
  std::vector<int32_t> children;
  for (int32_t v = 0; v < batch.numVertices(); ++v)
    for (int32_t child : batch.children(v))
      children.push_back(child);
  return children;
}

//===----------------------------------------------------------------------===//
// SST trees
//===----------------------------------------------------------------------===//

class SstLoader : public TempDirTest {
protected:
  // Loads `text` with a growing vocabulary, expecting a parse error whose
  // message contains "<path>:<where> <message>".
  void expectParseError(const std::string &text, const std::string &where,
                        const std::string &message) {
    const std::string path = writeFile("trees.txt", text);
    Vocab vocab;
    expectError([&] { loadSstTrees(path, vocab); }, CAVS_ERROR_PARSE,
                {path + ":" + where + " " + message});
  }
};

// Tests post-order numbering, left-to-right children, words and labels.
TEST_F(SstLoader, PostOrderTreesWithWordsAndLabels) {
  const std::string path =
      writeFile("trees.txt", "(3 (2 It) (4 (2 's) (3 good)))\n"
                             "(1 (0 bad) (2 .))\n");
  Vocab vocab;
  GraphBatch batch = loadSstTrees(path, vocab);
  EXPECT_EQ(batch.numSamples(), 2);
  EXPECT_EQ(toVector(batch.sampleOffsets()), (std::vector<int32_t>{0, 5, 8}));
  EXPECT_EQ(batch.numTypes(), 1);
  EXPECT_EQ(batch.arity(0), 2);
  // It='s good (inner) root | bad . root
  EXPECT_EQ(allChildren(batch),
            (std::vector<int32_t>{-1, -1, -1, -1, -1, -1, 1, 2, 0, 3, //
                                  -1, -1, -1, -1, 5, 6}));
  EXPECT_EQ(toVector(batch.attribute("word")),
            (std::vector<int32_t>{0, 1, 2, -1, -1, 3, 4, -1}));
  EXPECT_EQ(toVector(batch.attribute("label")),
            (std::vector<int32_t>{2, 2, 3, 4, 3, 0, 2, 1}));
  EXPECT_EQ(toVector(batch.roots()), (std::vector<int32_t>{4, 7}));
  EXPECT_EQ(vocab.size(), 5);
  EXPECT_EQ(vocab.word(1), "'s");
}

// Tests the leaf typing: leaves type 0 without slots, inner vertices type 1.
TEST_F(SstLoader, LeafTyping) {
  const std::string path = writeFile("trees.txt", "(1 (2 a) (3 b))\n");
  Vocab vocab;
  GraphBatch batch =
      loadSstTrees(path, vocab, WordPolicy::grow(), TreeTyping::LeafType);
  EXPECT_EQ(batch.numTypes(), 2);
  EXPECT_EQ(batch.arity(0), 0);
  EXPECT_EQ(batch.arity(1), 2);
  EXPECT_EQ(toVector(batch.types()), (std::vector<int32_t>{0, 0, 1}));
  EXPECT_EQ(allChildren(batch), (std::vector<int32_t>{0, 1}));
}

// Tests a fixed vocabulary: unknown words map to the given id, CRLF and a
// UTF-8 byte-order mark work (the mark was "expected '('").
TEST_F(SstLoader, FixedVocabularyCrlfAndByteOrderMark) {
  const std::string path =
      writeFile("trees.txt", "\xEF\xBB\xBF(1 (2 a) (3 zebra))\r\n");
  Vocab vocab;
  vocab.add("<unk>");
  vocab.add("a");
  GraphBatch batch = loadSstTrees(path, vocab, WordPolicy::mapTo(0));
  EXPECT_EQ(toVector(batch.attribute("word")),
            (std::vector<int32_t>{1, 0, -1}));
  GraphBatch dropped = loadSstTrees(path, vocab, WordPolicy::mapTo(-1));
  EXPECT_EQ(dropped.attribute("word")[1], -1);
  EXPECT_EQ(vocab.size(), 2);
  expectError([&] { loadSstTrees(path, vocab, WordPolicy::mapTo(2)); },
              CAVS_ERROR_INVALID_ARGUMENT,
              {"unknown-word id 2 is neither -1 nor an id of the vocabulary"});
}

// Tests a 100k-vertex left-deep tree: the parser keeps its own stack.
TEST_F(SstLoader, DeepTreeIsIterative) {
  constexpr int depth = 50000;
  std::string text;
  for (int i = 1; i < depth; ++i)
    text += "(0 ";
  text += "(1 w)";
  for (int i = 1; i < depth; ++i)
    text += " (1 w))";
  const std::string path = writeFile("deep.txt", text + "\n");
  Vocab vocab;
  GraphBatch batch = loadSstTrees(path, vocab);
  EXPECT_EQ(batch.numVertices(), 2 * depth - 1);
  EXPECT_EQ(Schedule(batch).numLevels(), depth);
}

TEST_F(SstLoader, UnbalancedBrackets) {
  expectParseError("(3 (2 a) (2 b)\n", "1:1:",
                   "unbalanced brackets: 1 '(' still open at the end of the "
                   "line (is the tree truncated?)");
  expectParseError("(2 a))\n", "1:6:", "unmatched ')'");
}

TEST_F(SstLoader, TruncatedFile) {
  expectParseError("(2 (2 a) (2 b))\n(2 (2 a) (2",
                   "2:10:", "unbalanced brackets: 2 '(' still open");
}

TEST_F(SstLoader, BadLabels) {
  expectParseError("(7 a)\n", "1:2:", "label '7' is not an integer in [0, 4]");
  expectParseError("(2 (x a) (2 b))\n",
                   "1:5:", "label 'x' is not an integer in [0, 4]");
  expectParseError("((2 a) (2 b))\n", "1:2:", "expected a label after '('");
}

TEST_F(SstLoader, EmptyLine) {
  expectParseError("(2 a)\n\n(2 b)\n", "2:", "empty line; expected a tree");
}

TEST_F(SstLoader, NotBinarized) {
  expectParseError("(2 (2 a))\n", "1:1:",
                   "node has 1 subtree and no word; binarized trees have 2 "
                   "subtrees or 1 word per node");
  expectParseError("(2)\n", "1:1:", "node has no subtrees and no word");
  expectParseError("(2 (2 a) (2 b) (2 c))\n", "1:16:", "a third subtree");
  expectParseError("(2 a (2 b))\n",
                   "1:6:", "a node cannot have both a word and subtrees");
  expectParseError("(2 a b)\n",
                   "1:6:", "unexpected word 'b'; a leaf has exactly 1 word");
  expectParseError(std::string("(2 a\0b)\n", 9),
                   "1:4:", "word 'a\\x00b' contains a NUL byte");
}

TEST_F(SstLoader, TextOutsideTheTree) {
  expectParseError("a (2 b)\n", "1:1:", "expected '(' but found 'a'");
  expectParseError("(2 a) (2 b)\n", "1:7:",
                   "unexpected '(' after the end of the tree; one tree per "
                   "line");
}

TEST_F(SstLoader, EmptyAndMissingFiles) {
  const std::string empty = writeFile("empty.txt", "");
  Vocab vocab;
  expectError([&] { loadSstTrees(empty, vocab); }, CAVS_ERROR_INVALID_GRAPH,
              {empty + ": the batch has no samples"});
  const std::string missing = (dir / "missing.txt").string();
  expectError(
      [&] { loadSstTrees(missing, vocab); }, CAVS_ERROR_IO,
      {"cannot open SST trees '" + missing + "': No such file or directory"});
}

//===----------------------------------------------------------------------===//
// Parent arrays
//===----------------------------------------------------------------------===//

using ParentLoader = TempDirTest;

// Tests children in vertex order, the inferred arity and both typings.
TEST_F(ParentLoader, ChildrenInVertexOrder) {
  // Line 1: vertex 2 is the root with children 1 and 3; vertex 4 hangs off 3.
  const std::string path = writeFile("parents.txt", "2 0 2 3\n0\n");
  GraphBatch batch = loadParentArrays(path);
  EXPECT_EQ(batch.numSamples(), 2);
  EXPECT_EQ(batch.arity(0), 2);
  EXPECT_EQ(allChildren(batch),
            (std::vector<int32_t>{-1, -1, 0, 2, 3, -1, -1, -1, -1, -1}));
  EXPECT_EQ(toVector(batch.roots()), (std::vector<int32_t>{1, 4}));
  EXPECT_EQ(batch.numAttributes(), 0);

  GraphBatch typed = loadParentArrays(path, 3, TreeTyping::LeafType);
  EXPECT_EQ(typed.arity(1), 3);
  EXPECT_EQ(toVector(typed.types()), (std::vector<int32_t>{0, 1, 1, 0, 0}));
  EXPECT_EQ(toVector(typed.children(1)), (std::vector<int32_t>{0, 2, -1}));
}

// Tests a 100k-vertex chain where every parent precedes its child.
TEST_F(ParentLoader, DeepChain) {
  constexpr int32_t n = 100000;
  std::string line = "0";
  for (int32_t i = 2; i <= n; ++i)
    line += " " + std::to_string(i - 1);
  GraphBatch batch = loadParentArrays(writeFile("chain.txt", line + "\n"));
  EXPECT_EQ(batch.numVertices(), n);
  EXPECT_EQ(batch.arity(0), 1);
  EXPECT_EQ(Schedule(batch).numLevels(), n);
}

TEST_F(ParentLoader, MalformedLines) {
  struct Case {
    std::string text, where, message;
  };
  const Case cases[] = {
      {"2 x\n", "1:3:", "'x' is not a parent index"},
      {"2 0 9\n", "1:5:",
       "parent 9 of vertex 3 is outside [0, 3] (1-based vertices, 0 for a "
       "root)"},
      {"2 0 -1\n", "1:5:", "parent -1 of vertex 3 is outside [0, 3]"},
      {"1 0\n", "1:1:", "vertex 1 is its own parent"},
      {"0\n\n0\n", "2:", "blank line; expected a parent array"},
      {"0 1 1 1\n",
       "1:7:", "vertex 4 would be child 3 of vertex 1, more than the arity 2"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.text);
    const std::string path = writeFile("parents.txt", c.text);
    expectError([&] { loadParentArrays(path, 2); }, CAVS_ERROR_PARSE,
                {path + ":" + c.where + " " + c.message});
  }
}

// Tests that an inferred arity stops at CAVS_MAX_ARITY where the line says
// so (it failed later as an invalid argument, without a line).
TEST_F(ParentLoader, InferredArityPastTheLargest) {
  std::string text = "0";
  for (int i = 0; i <= CAVS_MAX_ARITY; ++i)
    text += " 1";
  const std::string path = writeFile("wide.txt", text + "\n");
  expectError([&] { loadParentArrays(path); }, CAVS_ERROR_PARSE,
              {path + ":1:8195: vertex 4098 would be child 4097 of vertex 1, "
                      "more than the largest arity, 4096"});
}

// Tests that a cycle is reported by validation, at the sample's line.
TEST_F(ParentLoader, Cycle) {
  const std::string path = writeFile("parents.txt", "0\n2 1\n");
  expectError([&] { loadParentArrays(path); }, CAVS_ERROR_INVALID_GRAPH,
              {path + ":2: sample 1: cycle of 2 vertices through child links: "
                      "0 -> 1 -> 0"});
}

//===----------------------------------------------------------------------===//
// Chains and sentences
//===----------------------------------------------------------------------===//

// Tests chains from lengths: vertex i's child 0 is vertex i - 1.
TEST(Chains, FromLengths) {
  GraphBatch batch = makeChains({3, 1, 2});
  EXPECT_EQ(batch.numVertices(), 6);
  EXPECT_EQ(toVector(batch.sampleOffsets()),
            (std::vector<int32_t>{0, 3, 4, 6}));
  EXPECT_EQ(allChildren(batch), (std::vector<int32_t>{-1, 0, 1, -1, -1, 4}));
  GraphBatch typed = makeChains({3}, TreeTyping::LeafType);
  EXPECT_EQ(toVector(typed.types()), (std::vector<int32_t>{0, 1, 1}));
  EXPECT_EQ(allChildren(typed), (std::vector<int32_t>{0, 1}));
}

TEST(Chains, BadLengths) {
  expectError(
      [] {
        makeChains({2, 0});
      },
      CAVS_ERROR_INVALID_GRAPH, {"sample 1 has no vertices"});
  expectError([] { makeChains({-4}); }, CAVS_ERROR_INVALID_ARGUMENT,
              {"sample 0: negative vertex count -4"});
  expectError([] { makeChains({}); }, CAVS_ERROR_INVALID_GRAPH,
              {"the batch has no samples"});
  expectError([] { makeChains({3}, static_cast<TreeTyping>(7)); },
              CAVS_ERROR_INVALID_ARGUMENT, {"unknown tree typing 7"});
  // Past the int32 limit: refused before any chain is built (this took
  // 12 GB and half a minute when the lengths were checked chain by chain).
  expectError([] { makeChains({1500000000, 1500000000}); },
              CAVS_ERROR_INVALID_GRAPH,
              {"sample 1: the batch would have 3000000000 vertices, more "
               "than the int32 limit 2147483647"});
}

using SentenceLoader = TempDirTest;

// Tests one chain per line with word ids, blanks around words ignored.
TEST_F(SentenceLoader, ChainsOfWords) {
  const std::string path =
      writeFile("text.txt", " the cat sat \n\tthe <unk>\n");
  Vocab vocab;
  const int32_t unk = vocab.add("<unk>");
  GraphBatch batch = loadSentenceChains(path, vocab);
  EXPECT_EQ(toVector(batch.sampleOffsets()), (std::vector<int32_t>{0, 3, 5}));
  EXPECT_EQ(toVector(batch.attribute("word")),
            (std::vector<int32_t>{1, 2, 3, 1, unk}));
  EXPECT_EQ(allChildren(batch), (std::vector<int32_t>{-1, 0, 1, -1, 3}));

  Vocab fixed;
  fixed.add("<unk>");
  fixed.add("the");
  GraphBatch mapped = loadSentenceChains(path, fixed, WordPolicy::mapTo(0));
  EXPECT_EQ(toVector(mapped.attribute("word")),
            (std::vector<int32_t>{1, 0, 0, 1, 0}));
}

TEST_F(SentenceLoader, BlankLine) {
  const std::string path = writeFile("text.txt", "a b\n   \nc\n");
  Vocab vocab;
  expectError([&] { loadSentenceChains(path, vocab); }, CAVS_ERROR_PARSE,
              {path + ":2: blank line; expected a sentence"});
}

// Tests that a word holding a NUL byte is refused where it stands: the C
// API hands words out as C strings, which would cut it short (a lattice
// spelled "ab\0cd" as "ab").
TEST_F(SentenceLoader, NulByteInAWord) {
  const std::string path =
      writeFile("text.txt", std::string("a b\nx ab\0cd\n", 12));
  Vocab vocab;
  expectError([&] { loadSentenceChains(path, vocab); }, CAVS_ERROR_PARSE,
              {path + ":2:3: word 'ab\\x00cd' contains a NUL byte"});
  // Also with a fixed vocabulary, where it would have become unknown.
  expectError([&] { loadSentenceChains(path, vocab, WordPolicy::mapTo(-1)); },
              CAVS_ERROR_PARSE,
              {path + ":2:3: word 'ab\\x00cd' contains a NUL byte"});
}

//===----------------------------------------------------------------------===//
// Edge lists
//===----------------------------------------------------------------------===//

class EdgeListLoader : public TempDirTest {
protected:
  void expectFailure(const std::string &text, cavs_status status,
                     const std::string &where, const std::string &message) {
    const std::string path = writeFile("graph.txt", text);
    expectError([&] { loadEdgeList(path); }, status,
                {path + ":" + where + " " + message});
  }
};

// Tests a DAG with two types, forward references and an attribute.
TEST_F(EdgeListLoader, DagWithTypesAndAttributes) {
  const std::string path = writeFile("graph.txt", R"(# two samples
types 0 2          # leaf, internal
attributes input

sample 4
0 1 1 2 7          # reads 1 and 2, which come later
1 0 8
2 1 1 -1 9         # shares 1 with vertex 0
3 1 0 2 10
sample 1
0 0 11
)");
  GraphBatch batch = loadEdgeList(path);
  EXPECT_EQ(batch.numSamples(), 2);
  EXPECT_EQ(toVector(batch.types()), (std::vector<int32_t>{1, 0, 1, 1, 0}));
  EXPECT_EQ(allChildren(batch), (std::vector<int32_t>{1, 2, 1, -1, 0, 2}));
  EXPECT_EQ(toVector(batch.attribute("input")),
            (std::vector<int32_t>{7, 8, 9, 10, 11}));
  EXPECT_EQ(toVector(batch.parentCounts()),
            (std::vector<int32_t>{1, 2, 2, 0, 0}));
  EXPECT_EQ(toVector(batch.roots()), (std::vector<int32_t>{3, 4}));
}

TEST_F(EdgeListLoader, Directives) {
  expectFailure("sample 1\n", CAVS_ERROR_PARSE,
                "1:1:", "expected 'types' before 'sample'");
  expectFailure("types 1\nfoo\n", CAVS_ERROR_PARSE, "2:1:",
                "expected 'types', 'attributes' or 'sample' but found 'foo'");
  expectFailure("types two\n", CAVS_ERROR_PARSE,
                "1:7:", "expected an arity but found 'two'");
  expectFailure("types\n", CAVS_ERROR_PARSE,
                "1:1:", "a graph needs at least one vertex type");
  // At the arity (it was at 'types').
  expectFailure("types 0 4097\n", CAVS_ERROR_PARSE,
                "1:9:", "type 1 has arity 4097, outside [0, 4096]");
  expectFailure("types -1\n", CAVS_ERROR_PARSE,
                "1:7:", "type 0 has arity -1, outside [0, 4096]");
  expectFailure("types 1\ntypes 1\n", CAVS_ERROR_PARSE,
                "2:1:", "a second 'types' line");
  expectFailure("types 0\nsample 1\n0 0\nattributes a\n", CAVS_ERROR_PARSE,
                "4:1:", "'attributes' must come before the first sample");
  expectFailure("types 0\nattributes a a\n", CAVS_ERROR_PARSE,
                "2:14:", "attribute 'a' is declared twice");
  expectFailure("types 0\nsample 0\n", CAVS_ERROR_PARSE,
                "2:8:", "a sample needs at least 1 vertex, not 0");
}

TEST_F(EdgeListLoader, VertexLines) {
  expectFailure("types 0\nsample 2\n0 0\n2 0\n", CAVS_ERROR_PARSE, "4:1:",
                "expected vertex 1 (vertices are listed in order, one per "
                "line) but found 2");
  expectFailure("types 0\nsample 1\n0 3\n", CAVS_ERROR_PARSE,
                "3:3:", "unknown type id 3 (the file declares types 0 to 0)");
  expectFailure("types 1\nsample 2\n0 0 -1\n1 0 5\n", CAVS_ERROR_PARSE, "4:5:",
                "child 5 is outside the sample's vertices [0, 2) (-1 for an "
                "absent child)");
  expectFailure("types 1\nsample 1\n0 0 0\n", CAVS_ERROR_PARSE,
                "3:5:", "vertex 0 is its own child");
  expectFailure("types 2\nsample 1\n0 0 -1\n", CAVS_ERROR_PARSE, "3:",
                "vertex 0 of type 0 needs 2 children and 0 attributes but "
                "the line has only 1 of them");
  expectFailure("types 0\nsample 1\n0 0 4\n", CAVS_ERROR_PARSE, "3:5:",
                "unexpected '4': vertex 0 of type 0 has 0 children and 0 "
                "attributes");
  expectFailure("types 0\nattributes a\nsample 1\n0 0 x\n", CAVS_ERROR_PARSE,
                "4:5:", "expected an attribute but found 'x'");
  expectFailure("types 0\nattributes a\nsample 1\n0 0 2147483648\n",
                CAVS_ERROR_PARSE, "4:5:",
                "expected an attribute but found '2147483648', which is out "
                "of the int32 range");
}

TEST_F(EdgeListLoader, TruncatedSample) {
  expectFailure("types 0\nsample 3\n0 0\n1 0\n", CAVS_ERROR_PARSE, "2:",
                "the sample declares 3 vertices but the file ends after 2 "
                "(truncated?)");
  expectFailure("types 0\nsample 3\n0 0\nsample 1\n", CAVS_ERROR_PARSE, "4:1:",
                "expected vertex 1 of the 3-vertex sample from line 2 but "
                "found 'sample'");
}

TEST_F(EdgeListLoader, CycleReportedAtSampleLine) {
  expectFailure("types 1\n\nsample 2\n0 0 1\n1 0 0\n", CAVS_ERROR_INVALID_GRAPH,
                "3:",
                "sample 0: cycle of 2 vertices through child links: 0 -> 1 "
                "-> 0");
}

TEST_F(EdgeListLoader, NoTypesOrSamples) {
  const std::string comments = writeFile("comments.txt", "# nothing\n\n");
  expectError([&] { loadEdgeList(comments); }, CAVS_ERROR_PARSE,
              {comments + ": no 'types' line"});
  const std::string noSamples = writeFile("types.txt", "types 1\n");
  expectError([&] { loadEdgeList(noSamples); }, CAVS_ERROR_INVALID_GRAPH,
              {noSamples + ": the batch has no samples"});
}

//===----------------------------------------------------------------------===//
// Vocabularies
//===----------------------------------------------------------------------===//

using VocabFile = TempDirTest;

// Tests that save and load keep ids, and that lookups of absent words fail.
TEST_F(VocabFile, SaveLoadRoundTrip) {
  Vocab vocab;
  EXPECT_EQ(vocab.add("<unk>"), 0);
  EXPECT_EQ(vocab.add("-LRB-"), 1);
  EXPECT_EQ(vocab.add("<unk>"), 0);
  const std::string path = (dir / "vocab.txt").string();
  vocab.save(path);
  Vocab loaded = Vocab::load(path);
  EXPECT_EQ(loaded.size(), 2);
  EXPECT_EQ(loaded.lookup("-LRB-"), 1);
  EXPECT_EQ(loaded.lookup("absent"), -1);
  expectError([&] { loaded.word(2); }, CAVS_ERROR_INVALID_ARGUMENT,
              {"word id 2 is out of range"});
}

// Tests that word pointers from the C ABI survive later additions.
TEST(Vocab, WordPointersAreStable) {
  Vocab vocab;
  vocab.add("first");
  const char *first = cavs_vocab_word(vocab.get(), 0);
  for (int i = 0; i < 10000; ++i)
    vocab.add("w" + std::to_string(i));
  EXPECT_STREQ(first, "first");
  EXPECT_EQ(first, cavs_vocab_word(vocab.get(), 0));
}

TEST_F(VocabFile, Errors) {
  const std::string dup = writeFile("dup.txt", "a\nb\na\n");
  expectError([&] { Vocab::load(dup); }, CAVS_ERROR_PARSE,
              {dup + ":3: duplicate word 'a' (first on line 1)"});
  const std::string blank = writeFile("blank.txt", "a\n\nb\n");
  expectError([&] { Vocab::load(blank); }, CAVS_ERROR_PARSE,
              {blank + ":2: blank line; expected one word per line"});
  const std::string spaced = writeFile("spaced.txt", "a b\n");
  expectError([&] { Vocab::load(spaced); }, CAVS_ERROR_PARSE,
              {spaced + ":1:3: unexpected 'b' after the word 'a'"});
  // An error of the file, where it stands (it was INVALID_ARGUMENT, no
  // column), as the other loaders report it.
  const std::string nul = writeFile("nul.txt", std::string("b\n a\0x\n", 8));
  expectError([&] { Vocab::load(nul); }, CAVS_ERROR_PARSE,
              {nul + ":2:2: word 'a\\x00x' contains a NUL byte"});
  expectError([] { Vocab().add("a b"); }, CAVS_ERROR_INVALID_ARGUMENT,
              {"word 'a b' contains whitespace"});
  expectError([] { Vocab().add(""); }, CAVS_ERROR_INVALID_ARGUMENT,
              {"words must not be empty"});
  expectError([&] { Vocab().save((dir / "no" / "such.txt").string()); },
              CAVS_ERROR_IO, {"cannot create"});
}

//===----------------------------------------------------------------------===//
// Files that are not regular files
//===----------------------------------------------------------------------===//

using NonRegularFile = TempDirTest;

// Tests that every loader of the C ABI refuses a directory, a FIFO and a
// character device at once, naming what it is: reading /dev/zero would
// never end and opening a FIFO would wait for a writer.
TEST_F(NonRegularFile, EveryLoaderRefusesIt) {
  const std::string fifo = (dir / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::pair<std::string, std::string> files[] = {
      {dir.string(), "a directory"},
      {fifo, "a FIFO"},
      {"/dev/zero", "a character device"}};
  cavs_vocab *vocab = nullptr;
  ASSERT_EQ(cavs_vocab_create(&vocab), CAVS_OK);
  using Load = std::function<cavs_status(const char *)>;
  cavs_graph_batch *batch = nullptr;
  const std::pair<std::string, Load> loaders[] = {
      {"SST trees",
       [&](const char *path) {
         return cavs_load_sst_trees(path, vocab, 1, -1, CAVS_TREE_ONE_TYPE,
                                    &batch);
       }},
      {"sentences",
       [&](const char *path) {
         return cavs_load_sentence_chains(path, vocab, 1, -1,
                                          CAVS_TREE_ONE_TYPE, &batch);
       }},
      {"parent arrays",
       [&](const char *path) {
         return cavs_load_parent_arrays(path, 0, CAVS_TREE_ONE_TYPE, &batch);
       }},
      {"edge list",
       [&](const char *path) { return cavs_load_edge_list(path, &batch); }},
      {"vocabulary",
       [&](const char *path) {
         cavs_vocab *loaded = nullptr;
         return cavs_vocab_load(path, &loaded);
       }},
  };
  for (const auto &[file, kind] : files)
    for (const auto &[what, load] : loaders) {
      SCOPED_TRACE(what + " from " + file);
      EXPECT_EQ(load(file.c_str()), CAVS_ERROR_IO);
      EXPECT_EQ(std::string(cavs_last_error_message()),
                "cannot read " + what + " '" + file + "': it is " + kind +
                    ", not a regular file");
    }
  EXPECT_EQ(batch, nullptr);
  // Saving refuses them too, as checkpoints do (onto a FIFO it waited for
  // a reader forever).
  int32_t id = -1;
  ASSERT_EQ(cavs_vocab_add(vocab, "w", &id), CAVS_OK);
  for (const auto &[file, kind] : files) {
    SCOPED_TRACE("vocabulary saved to " + file);
    EXPECT_EQ(cavs_vocab_save(vocab, file.c_str()), CAVS_ERROR_IO);
    EXPECT_EQ(std::string(cavs_last_error_message()),
              "cannot save vocabulary '" + file + "': it is " + kind +
                  ", not a regular file");
  }
  cavs_vocab_destroy(vocab);
}

//===----------------------------------------------------------------------===//
// Input quoted in messages
//===----------------------------------------------------------------------===//

using QuotedInput = TempDirTest;

// Tests that a 1 MB token is quoted clipped, with the number of bytes left
// out, so every loader's message stays short.
TEST_F(QuotedInput, LongTokensAreClipped) {
  const std::string token(1 << 20, 'x');
  const std::string quoted = "'" + std::string(80, 'x') + "…(+" +
                             std::to_string(token.size() - 80) + " bytes)'";
  Vocab vocab;
  const std::pair<std::string, std::function<void(const std::string &)>>
      loaders[] = {
          {token, [&](const std::string &path) { loadSstTrees(path, vocab); }},
          {token, [](const std::string &path) { loadParentArrays(path); }},
          {token, [](const std::string &path) { loadEdgeList(path); }},
          {"a " + token, [](const std::string &path) { Vocab::load(path); }},
      };
  for (const auto &[text, load] : loaders) {
    const std::string path = writeFile("input.txt", text + "\n");
    try {
      load(path);
      ADD_FAILURE() << "loaded a file of 1 MB tokens";
    } catch (const Error &error) {
      const std::string message = error.what();
      EXPECT_EQ(error.status(), CAVS_ERROR_PARSE) << message;
      EXPECT_NE(message.find(quoted), std::string::npos) << message;
      EXPECT_LT(message.size(), 300u) << message;
    }
  }
}

// Tests that bytes that are not printable UTF-8 are escaped, so a NUL does
// not cut the C ABI's message short, while UTF-8 text is kept.
TEST_F(QuotedInput, UnprintableBytesAreEscaped) {
  const std::string token = std::string("typ\x01") + "es" + '\0';
  const std::string path = writeFile("list.txt", token + " 1\n");
  expectError([&] { loadEdgeList(path); }, CAVS_ERROR_PARSE,
              {path + ":1:1: expected 'types' before 'typ\\x01es\\x00'"});
  const std::string words = writeFile("words.txt", "café\nthé\ncafé\n");
  expectError([&] { Vocab::load(words); }, CAVS_ERROR_PARSE,
              {words + ":3: duplicate word 'café' (first on line 1)"});
}

} // namespace
} // namespace cavs::test
