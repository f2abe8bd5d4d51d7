//===- WordVectors.cpp - pretrained word vectors into an embedding table --===//
//
// One pass over the streamed file: each line is split into fields, its
// word looked up in the vocabulary's hash map, and only the values of
// vocabulary words are parsed, into a staging area. The table is written
// after the last line, so a bad line anywhere leaves it untouched. Time is
// linear in the file's size, memory in the vocabulary's vectors.
//
//===----------------------------------------------------------------------===//
#include "vectors/WordVectors.h"

#include "graph/TextFile.h"
#include "support/Excerpt.h"
#include "vectors/LineReader.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <vector>

namespace cavs::runtime {

namespace {

constexpr const char *kWhat = "word vectors";

/// The vectors of vocabulary words, kept until the whole file is valid.
struct Staged {
  /// Per vocabulary id, whether its vector was read (the first one counts).
  std::vector<uint8_t> seen;
  /// The ids read, and their values back to back in the same order.
  std::vector<int32_t> ids;
  std::vector<float> values;
};

/// Whether `fields` are two integers, as word2vec's header "count dim".
bool parseHeader(const std::vector<std::string_view> &fields, int64_t &count,
                 int64_t &dim) {
  auto integer = [](std::string_view text, int64_t &value) {
    const char *end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    return ec == std::errc() && ptr == end;
  };
  return fields.size() == 2 && integer(fields[0], count) &&
         integer(fields[1], dim);
}

/// Reads the lines of a vector file into Staged.
class VectorReader {
public:
  VectorReader(const std::string &path, const Vocab &vocab, int64_t columns,
               cavs_word_vectors_report &report)
      : path_(path), vocab_(vocab), columns_(columns), report_(report) {
    staged_.seen.assign(static_cast<size_t>(vocab.size()), 0);
  }

  Status read(LineReader &reader) {
    std::string_view line;
    for (bool more;;) {
      CAVS_RETURN_IF_ERROR(reader.next(line, more));
      if (!more)
        break;
      line_ = line;
      lineNumber_ = reader.lineNumber();
      CAVS_RETURN_IF_ERROR(readLine());
    }
    if (announced_ >= 0 && announced_ != report_.file_vectors)
      return makeError(CAVS_ERROR_PARSE,
                       "{}:1: the word2vec header announces {} vectors but "
                       "the file has {}",
                       path_, announced_, report_.file_vectors);
    if (report_.file_vectors == 0)
      return makeError(CAVS_ERROR_PARSE, "{} '{}' holds no vectors", kWhat,
                       path_);
    return Status();
  }

  const Staged &staged() const { return staged_; }

private:
  Status readLine() {
    fields_.clear();
    Tokens tokens(line_);
    for (std::string_view field; tokens.next(field);)
      fields_.push_back(field);
    if (fields_.empty())
      return error(CAVS_ERROR_PARSE, 0,
                   "blank line; expected a word and {} values", columns_);
    // Two integers on the first line are word2vec's header, a malformed
    // one if either is out of range.
    if (lineNumber_ == 1 && parseHeader(fields_, announced_, dim_)) {
      if (announced_ < 0 || dim_ < 1)
        return error(CAVS_ERROR_PARSE, 0,
                     "the word2vec header '{} {}' needs a vector count >= 0 "
                     "and a dimension >= 1",
                     announced_, dim_);
      report_.word2vec_header = 1;
      return checkDim();
    }
    if (dim_ == 0) {
      dim_ = static_cast<int64_t>(fields_.size()) - 1;
      CAVS_RETURN_IF_ERROR(checkDim());
    }
    ++report_.file_vectors;
    const int64_t values = static_cast<int64_t>(fields_.size()) - 1;
    if (values < dim_)
      return error(CAVS_ERROR_PARSE, 0, "'{}' has {} values; expected {}",
                   excerpt(fields_[0]), values, dim_);
    if (values > dim_) { // A word with blanks: no vocabulary word.
      ++report_.skipped_lines;
      return Status();
    }
    const int32_t id = vocab_.lookup(fields_[0]);
    if (id < 0 || staged_.seen[id])
      return Status();
    staged_.seen[id] = 1;
    staged_.ids.push_back(id);
    const size_t first = staged_.values.size();
    staged_.values.resize(first + static_cast<size_t>(dim_));
    for (int64_t i = 0; i < dim_; ++i)
      CAVS_RETURN_IF_ERROR(parseValue(i, staged_.values[first + i]));
    return Status();
  }

  Status parseValue(int64_t i, float &value) const {
    const std::string_view text = fields_[i + 1];
    const char *end = text.data() + text.size();
    // from_chars takes no '+', which printf("%+f") and others write.
    const char *begin = text.data();
    if (text.size() > 1 && text[0] == '+' && text[1] != '-')
      ++begin;
    auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ptr != end || ec == std::errc::invalid_argument)
      return error(CAVS_ERROR_PARSE, column(text),
                   "value {} of '{}' is not a number: '{}'", i + 1,
                   excerpt(fields_[0]), excerpt(text));
    // A value too small for f32 (1e-50) is zero or a subnormal, with its
    // sign, as strtof and numpy read it; only one too large is no f32. In
    // double it parses, or underflows too (1e-400: a negative exponent).
    if (ec == std::errc::result_out_of_range) {
      double wide = 0;
      const bool parsed = std::from_chars(begin, end, wide).ec == std::errc();
      const size_t e = text.find_first_of("eE");
      const bool tooSmall = parsed
                                ? std::fabs(wide) < 1
                                : e != std::string_view::npos &&
                                      e + 1 < text.size() && text[e + 1] == '-';
      if (tooSmall) {
        value = std::copysign(static_cast<float>(parsed ? wide : 0.0),
                              text[0] == '-' ? -1.0f : 1.0f);
        return Status();
      }
    }
    if (ec == std::errc::result_out_of_range || !std::isfinite(value))
      return error(CAVS_ERROR_PARSE, column(text),
                   "value {} of '{}' is not a finite f32: '{}'", i + 1,
                   excerpt(fields_[0]), excerpt(text));
    return Status();
  }

  Status checkDim() {
    report_.dim = static_cast<int32_t>(std::min<int64_t>(dim_, INT32_MAX));
    if (dim_ == columns_)
      return Status();
    return error(CAVS_ERROR_INVALID_ARGUMENT, 0,
                 "the vectors have {} values but the table has {} columns",
                 dim_, columns_);
  }

  int64_t column(std::string_view field) const {
    return field.data() - line_.data() + 1;
  }

  /// An error at `column` (when positive) of the current line.
  template <typename... Args>
  Status error(cavs_status code, int64_t column,
               fmt::format_string<Args...> format, Args &&...args) const {
    const std::string where =
        column > 0 ? fmt::format("{}:{}:{}: ", path_, lineNumber_, column)
                   : fmt::format("{}:{}: ", path_, lineNumber_);
    return Status(code,
                  where + fmt::format(format, std::forward<Args>(args)...));
  }

  const std::string &path_;
  const Vocab &vocab_;
  const int64_t columns_;
  cavs_word_vectors_report &report_;
  Staged staged_;
  std::vector<std::string_view> fields_;
  std::string_view line_;
  int64_t lineNumber_ = 0;
  /// Values per vector, from the header or the first line; 0 before.
  int64_t dim_ = 0;
  /// The header's vector count; -1 without a header.
  int64_t announced_ = -1;
};

/// The matrix parameter `name`, whose rows must match the vocabulary.
Status findTable(const ParamStore &params, const std::string &name,
                 const Vocab &vocab, uint32_t flags,
                 const cavs_param_info *&out) {
  const ModelLayout &layout = params.layout();
  if (flags & ~uint32_t(CAVS_WORD_VECTORS_EXTRA_ROWS))
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "unknown word-vector flags {:#x}", flags);
  const int32_t index = layout.findParam(name);
  if (index < 0)
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "model '{}' has no parameter '{}'", layout.name(),
                     excerpt(name));
  const cavs_param_info &info = layout.param(index);
  if (info.rank != 2)
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "parameter '{}' is a vector; word vectors go into a "
                     "matrix with a row per word",
                     info.name);
  const int64_t rows = info.shape[0], words = vocab.size();
  if (rows < words || (rows > words && !(flags & CAVS_WORD_VECTORS_EXTRA_ROWS)))
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "parameter '{}' has {} rows but the vocabulary has {} "
                     "words; they must be equal{}",
                     info.name, rows, words,
                     rows > words ? " (CAVS_WORD_VECTORS_EXTRA_ROWS allows "
                                    "more rows)"
                                  : "");
  out = &info;
  return Status();
}

} // namespace

Status loadWordVectors(const std::string &path, const Vocab &vocab,
                       ParamStore &params, const std::string &param,
                       uint32_t flags, cavs_word_vectors_report &report) {
  const cavs_param_info *table = nullptr;
  CAVS_RETURN_IF_ERROR(findTable(params, param, vocab, flags, table));
  LineReader reader;
  CAVS_RETURN_IF_ERROR(LineReader::open(path, kWhat, reader));
  cavs_word_vectors_report counts{};
  counts.vocabulary_words = vocab.size();
  VectorReader vectors(path, vocab, table->shape[1], counts);
  CAVS_RETURN_IF_ERROR(vectors.read(reader));
  counts.gzipped = reader.gzipped() ? 1 : 0;

  const Staged &staged = vectors.staged();
  const size_t columns = static_cast<size_t>(table->shape[1]);
  float *rows = params.data() + table->offset;
  for (size_t i = 0; i < staged.ids.size(); ++i)
    std::memcpy(rows + staged.ids[i] * columns,
                staged.values.data() + i * columns, columns * sizeof(float));
  counts.found = static_cast<int32_t>(staged.ids.size());
  report = counts;
  return Status();
}

} // namespace cavs::runtime
