//===- WordVectorsTest.cpp - pretrained word vectors into a table ---------===//
//
// cavs_load_word_vectors on generated files: GloVe (no header) and word2vec
// (a "count dim" header), plain and gzipped (written with zlib here). The
// vectors must land in the rows of their vocabulary words, the other rows
// keep their initial values, the report counts what was found, and every
// error leaves the table untouched. A 400k-word file checks that loading
// stays linear.
//
//===----------------------------------------------------------------------===//
#include "ModelFixtures.h"
#include "TestSupport.h"

#include <zlib.h>

#include <chrono>
#include <cmath>
#include <sstream>

namespace cavs::test {
namespace {

/// The table: tinyModel()'s "embed" [10, 4], uniform initial values.
constexpr int32_t kRows = 10, kDim = 4;

/// The vector the generated files give word `w<i>`: i + 0.5, i + 0.25, ...
std::vector<float> vectorOf(int32_t i) {
  return {i + 0.5f, i + 0.25f, -float(i), i * 0.125f};
}

/// A vector line of `word` with `values`.
std::string line(const std::string &word, const std::vector<float> &values) {
  std::ostringstream text;
  text << word;
  for (float value : values)
    text << ' ' << value;
  text << '\n';
  return text.str();
}

class WordVectors : public TempDirTest {
protected:
  void SetUp() override {
    TempDirTest::SetUp();
    for (int32_t i = 0; i < kRows; ++i)
      vocab.add("w" + std::to_string(i));
  }

  /// Writes `text` to `name`, gzip-compressed when `gzip`.
  std::string write(const std::string &name, const std::string &text,
                    bool gzip) {
    if (!gzip)
      return writeFile(name, text);
    const std::string path = (dir / name).string();
    gzFile file = gzopen(path.c_str(), "wb");
    EXPECT_NE(file, nullptr);
    EXPECT_EQ(gzwrite(file, text.data(), unsigned(text.size())),
              int(text.size()));
    EXPECT_EQ(gzclose(file), Z_OK);
    return path;
  }

  cavs_word_vectors_report load(const std::string &path, uint32_t flags = 0) {
    return loadWordVectors(path, vocab, params.get(), "embed", flags);
  }

  /// Expects the load of `path` to fail with `status` and `fragments`, and
  /// the table to stay as it was.
  void expectFailure(const std::string &path, cavs_status status,
                     std::initializer_list<std::string> fragments,
                     const std::string &param = "embed", uint32_t flags = 0) {
    const std::vector<float> before = toVector(params.values("embed"));
    expectError(
        [&] { loadWordVectors(path, vocab, params.get(), param, flags); },
        status, fragments);
    EXPECT_EQ(toVector(params.values("embed")), before);
  }

  ModelSpec spec = tinyModel();
  ParamStore params{spec.desc(), 7};
  Vocab vocab;
};

// Tests GloVe and word2vec files, plain and gzipped: vectors of vocabulary
// words land in their rows (whatever the file's order), words outside the
// vocabulary are ignored, rows without a vector keep their initial values
// and the report counts it all.
TEST_F(WordVectors, LoadsEveryFormat) {
  const std::vector<float> initial = toVector(params.values("embed"));
  std::string body = line("w7", vectorOf(7)) + line("unknown", vectorOf(1)) +
                     line("w2", vectorOf(2)) + line("w0", vectorOf(0)) +
                     line("W3", vectorOf(3));
  for (bool header : {false, true})
    for (bool gzip : {false, true}) {
      SCOPED_TRACE(std::string(header ? "word2vec" : "GloVe") +
                   (gzip ? ", gzipped" : ""));
      params.values("embed")[0] = 0; // rewritten by the load
      const std::string path =
          write("vectors.txt", (header ? "5 4\n" : "") + body, gzip);
      const cavs_word_vectors_report report = load(path);
      EXPECT_EQ(report.vocabulary_words, kRows);
      EXPECT_EQ(report.found, 3);
      EXPECT_EQ(report.file_vectors, 5);
      EXPECT_EQ(report.skipped_lines, 0);
      EXPECT_EQ(report.dim, kDim);
      EXPECT_EQ(report.word2vec_header, header ? 1 : 0);
      EXPECT_EQ(report.gzipped, gzip ? 1 : 0);
      const Span<float> table = params.values("embed");
      for (int32_t row = 0; row < kRows; ++row) {
        const bool found = row == 0 || row == 2 || row == 7;
        for (int32_t c = 0; c < kDim; ++c)
          EXPECT_EQ(table[row * kDim + c],
                    found ? vectorOf(row)[c] : initial[row * kDim + c])
              << "row " << row << ", column " << c;
      }
    }
}

// Tests the details of the format: a UTF-8 byte-order mark (it became part
// of the first word), CRLF line ends, tabs, a last line without "\n", the
// first of two vectors of a word, and a word containing blanks (skipped and
// counted, as glove.840B's "at name@domain.com" lines).
TEST_F(WordVectors, FormatDetails) {
  const std::string path =
      writeFile("details.txt", "\xEF\xBB\xBFw1\t1 2 3 4\r\n"
                               "w1 9 9 9 9\r\n"
                               "a b 5 6 7 8\r\n"
                               "w4 -1e-3 0.5 2 3");
  const cavs_word_vectors_report report = load(path);
  EXPECT_EQ(report.found, 2);
  EXPECT_EQ(report.file_vectors, 4);
  EXPECT_EQ(report.skipped_lines, 1);
  const Span<float> table = params.values("embed");
  EXPECT_EQ(toVector(Span<float>(table.data() + 1 * kDim, kDim)),
            (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(toVector(Span<float>(table.data() + 4 * kDim, kDim)),
            (std::vector<float>{-1e-3f, 0.5f, 2, 3}));
}

// Tests values that f32 reads as zero or a subnormal (they were "not a
// finite f32") and a leading '+' (it was "not a number"), as strtof does.
TEST_F(WordVectors, TinyValuesAndPlusSigns) {
  const std::string path =
      writeFile("tiny.txt", "w1 1e-50 -1e-60 +1.5 1e-400\nw2 1e-45 +0 -0 2\n");
  const cavs_word_vectors_report report = load(path);
  EXPECT_EQ(report.found, 2);
  const Span<float> table = params.values("embed");
  const float *w1 = table.data() + 1 * kDim, *w2 = table.data() + 2 * kDim;
  EXPECT_EQ(w1[0], 0.0f);
  EXPECT_FALSE(std::signbit(w1[0]));
  EXPECT_EQ(w1[1], 0.0f);
  EXPECT_TRUE(std::signbit(w1[1]));
  EXPECT_EQ(w1[2], 1.5f);
  EXPECT_EQ(w1[3], 0.0f);
  EXPECT_EQ(w2[0], std::strtof("1e-45", nullptr));
  EXPECT_GT(w2[0], 0.0f);
  EXPECT_EQ(w2[1], 0.0f);
  EXPECT_TRUE(std::signbit(w2[2]));
}

// Tests a table with more rows than the vocabulary has words (an app's
// model compiled with a fixed V): refused unless allowed, and then the rows
// past the vocabulary keep their values.
TEST_F(WordVectors, ExtraRows) {
  Vocab small;
  for (const char *word : {"w0", "w1", "w2"})
    small.add(word);
  const std::string path =
      writeFile("v.txt", line("w1", vectorOf(1)) + line("w9", vectorOf(9)));
  const std::vector<float> before = toVector(params.values("embed"));
  expectError([&] { loadWordVectors(path, small, params.get(), "embed"); },
              CAVS_ERROR_INVALID_ARGUMENT,
              {"parameter 'embed' has 10 rows but the vocabulary has 3 words",
               "CAVS_WORD_VECTORS_EXTRA_ROWS"});
  EXPECT_EQ(toVector(params.values("embed")), before);
  const cavs_word_vectors_report report = loadWordVectors(
      path, small, params.get(), "embed", CAVS_WORD_VECTORS_EXTRA_ROWS);
  EXPECT_EQ(report.vocabulary_words, 3);
  EXPECT_EQ(report.found, 1);
  std::vector<float> expected = before;
  std::copy_n(vectorOf(1).begin(), kDim, expected.begin() + kDim);
  EXPECT_EQ(toVector(params.values("embed")), expected);

  // More words than rows never fit.
  vocab.add("w10");
  expectFailure(path, CAVS_ERROR_INVALID_ARGUMENT,
                {"has 10 rows but the vocabulary has 11 words"}, "embed",
                CAVS_WORD_VECTORS_EXTRA_ROWS);
}

// Tests each error: a clear status and message (file:line where a line is
// at fault), and the table unchanged although earlier lines were valid.
TEST_F(WordVectors, ErrorsChangeNothing) {
  const std::string good = line("w1", vectorOf(1)) + line("w2", vectorOf(2));
  expectFailure(write("dim.txt", "w1 1 2 3\n", false),
                CAVS_ERROR_INVALID_ARGUMENT,
                {"dim.txt:1: the vectors have 3 values but the table has 4 "
                 "columns"});
  expectFailure(write("header-dim.txt", "2 300\n" + good, true),
                CAVS_ERROR_INVALID_ARGUMENT,
                {"header-dim.txt:1: the vectors have 300 values"});
  expectFailure(write("short.txt", good + "w3 1 2 3\n", false),
                CAVS_ERROR_PARSE,
                {"short.txt:3: 'w3' has 3 values; expected 4"});
  expectFailure(write("nan.txt", good + "w3 1 nan 3 4\n", false),
                CAVS_ERROR_PARSE,
                {"nan.txt:3:6: value 2 of 'w3' is not a finite f32: 'nan'"});
  expectFailure(write("inf.txt", good + "w3 1 2 -inf 4\n", true),
                CAVS_ERROR_PARSE, {"inf.txt:3:", "not a finite f32: '-inf'"});
  expectFailure(write("huge.txt", good + "w3 1 2 3 1e39\n", false),
                CAVS_ERROR_PARSE, {"huge.txt:3:", "not a finite f32: '1e39'"});
  expectFailure(write("huger.txt", good + "w3 1 2 3 -1e400\n", false),
                CAVS_ERROR_PARSE,
                {"huger.txt:3:", "not a finite f32: '-1e400'"});
  expectFailure(write("text.txt", good + "w3 1 2 x3 4\n", false),
                CAVS_ERROR_PARSE,
                {"text.txt:3:8: value 3 of 'w3' is not a number: 'x3'"});
  expectFailure(
      write("blank.txt", line("w1", vectorOf(1)) + "\n" + good, false),
      CAVS_ERROR_PARSE,
      {"blank.txt:2: blank line; expected a word and 4 values"});
  expectFailure(write("count.txt", "3 4\n" + good, false), CAVS_ERROR_PARSE,
                {"count.txt:1: the word2vec header announces 3 vectors but "
                 "the file has 2"});
  expectFailure(write("negative.txt", "-1 4\n" + good, false), CAVS_ERROR_PARSE,
                {"negative.txt:1: the word2vec header '-1 4' needs a vector "
                 "count >= 0 and a dimension >= 1"});
  expectFailure(write("empty.txt", "", true), CAVS_ERROR_PARSE,
                {"word vectors '", "empty.txt' holds no vectors"});
  expectFailure((dir / "missing.txt").string(), CAVS_ERROR_IO,
                {"cannot open word vectors '", "missing.txt': No such file"});
  expectFailure(dir.string(), CAVS_ERROR_IO,
                {"it is a directory, not a regular file"});
  expectFailure(write("good.txt", good, false), CAVS_ERROR_INVALID_ARGUMENT,
                {"model 'tiny' has no parameter 'embedding'"}, "embedding");
  expectFailure(write("good.txt", good, false), CAVS_ERROR_INVALID_ARGUMENT,
                {"parameter 'b' is a vector"}, "b");
  expectFailure(write("good.txt", good, false), CAVS_ERROR_INVALID_ARGUMENT,
                {"unknown word-vector flags 0x4"}, "embed", 4);

  // A gzip stream cut short, in the middle of valid lines.
  std::string many;
  for (int i = 0; i < 2000; ++i)
    many += line("x" + std::to_string(i), vectorOf(i));
  const std::string whole = write("cut.txt.gz", good + many, true);
  const auto size = std::filesystem::file_size(whole);
  std::filesystem::resize_file(whole, size / 2);
  expectFailure(whole, CAVS_ERROR_PARSE,
                {"cut.txt.gz' is not a valid gzip stream: unexpected end of "
                 "file"});
}

// Tests the C ABI's arguments: the report is optional, NULLs are refused.
TEST_F(WordVectors, CArguments) {
  const std::string path = writeFile("v.txt", line("w3", vectorOf(3)));
  ASSERT_EQ(cavs_load_word_vectors(path.c_str(), vocab.get(), params.get(),
                                   "embed", 0, nullptr),
            CAVS_OK);
  EXPECT_EQ(params.values("embed")[3 * kDim], vectorOf(3)[0]);
  EXPECT_EQ(cavs_load_word_vectors(path.c_str(), nullptr, params.get(), "embed",
                                   0, nullptr),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(cavs_last_error_message(), "vocab must not be NULL");
  EXPECT_EQ(cavs_load_word_vectors(path.c_str(), vocab.get(), params.get(),
                                   nullptr, 0, nullptr),
            CAVS_ERROR_INVALID_ARGUMENT);
}

// Tests that loading is linear: 400,000 words (the size of GloVe 6B), all in
// the vocabulary, in reverse order, and a 4 MB line (a skipped word with
// blanks, longer than the reader's buffer) load in seconds; a quadratic
// step would take hours.
TEST_F(WordVectors, LargeFileIsLinear) {
  constexpr int32_t kWords = 400000;
  Vocab large;
  for (int32_t i = 0; i < kWords; ++i)
    large.add("w" + std::to_string(i));
  ModelSpec big;
  big.params = {matrixParam("embed", kWords, 2)};
  ParamStore store(big.desc(), 1);
  std::string text;
  text.reserve(size_t(kWords) * 24 + (4 << 20));
  for (int32_t i = kWords - 1; i >= 0; --i) {
    text += "w" + std::to_string(i) + " " + std::to_string(i) + " 0.5\n";
    if (i == kWords / 2)
      for (int32_t j = 0; j < (2 << 20); ++j)
        text += j + 1 < (2 << 20) ? "x " : "x\n";
  }
  const std::string path = write("large.txt.gz", text, true);
  const auto start = std::chrono::steady_clock::now();
  const cavs_word_vectors_report report =
      loadWordVectors(path, large, store.get(), "embed");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  EXPECT_EQ(report.found, kWords);
  EXPECT_EQ(report.skipped_lines, 1);
  const Span<float> table = store.values("embed");
  for (int32_t i : {0, 1, kWords / 2, kWords - 1}) {
    EXPECT_EQ(table[2 * i], float(i));
    EXPECT_EQ(table[2 * i + 1], 0.5f);
  }
  EXPECT_LT(seconds, 30) << "loading 400,000 words took " << seconds << " s";
}

} // namespace
} // namespace cavs::test
