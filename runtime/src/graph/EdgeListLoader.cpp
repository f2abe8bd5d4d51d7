//===- EdgeListLoader.cpp - the cavs edge-list format ---------------------===//
//
// A small line-based format for arbitrary DAGs with several vertex types and
// attributes (see cavs/loaders.h and docs/runtime.md). Per-line problems are
// found while parsing, so they point at a column; a cycle is found by the
// builder once a sample is complete and is reported at its `sample` line.
//
//===----------------------------------------------------------------------===//
#include "graph/Loaders.h"

#include "graph/TextFile.h"
#include "support/Excerpt.h"

#include <charconv>

namespace cavs::runtime {

namespace {

class EdgeListParser {
public:
  explicit EdgeListParser(TextFile &file) : file_(file) {}

  Status parse(GraphBatch &out) {
    std::string_view line;
    while (file_.nextLine(line)) {
      line = line.substr(0, line.find('#'));
      Tokens tokens(line);
      std::string_view first;
      if (!tokens.next(first))
        continue;
      CAVS_RETURN_IF_ERROR(inSample() ? vertexLine(tokens, first)
                                      : directive(tokens, first));
    }
    if (inSample())
      return makeError(CAVS_ERROR_PARSE,
                       "{}the sample declares {} vertices but the file ends "
                       "after {} (truncated?)",
                       file_.lineLocation(sampleLine_), numVertices_,
                       nextVertex_);
    if (!haveTypes_)
      return makeError(CAVS_ERROR_PARSE, "{}: no 'types' line", file_.path());
    return builder_.finalize(out).withPrefix(file_.path() + ": ");
  }

private:
  bool inSample() const { return nextVertex_ < numVertices_; }

  /// Reads the integer `token` into `value`; `what` names it in errors.
  Status integer(const Tokens &tokens, std::string_view token, const char *what,
                 int32_t &value) const {
    if (parseInt32(token, value))
      return Status();
    int32_t ignored;
    const char *end = token.data() + token.size();
    if (auto [ptr, ec] = std::from_chars(token.data(), end, ignored);
        ec == std::errc::result_out_of_range && ptr == end)
      return file_.errorAt(tokens.column(token),
                           "expected {} but found '{}', which is out of the "
                           "int32 range",
                           what, excerpt(token));
    return file_.errorAt(tokens.column(token), "expected {} but found '{}'",
                         what, excerpt(token));
  }

  Status directive(Tokens &tokens, std::string_view keyword) {
    const int64_t column = tokens.column(keyword);
    if (keyword == "types")
      return typesLine(tokens, column);
    if (!haveTypes_)
      return file_.errorAt(column, "expected 'types' before '{}'",
                           excerpt(keyword));
    if (keyword == "attributes")
      return attributesLine(tokens, column);
    if (keyword == "sample")
      return sampleLine(tokens);
    return file_.errorAt(column,
                         "expected 'types', 'attributes' or 'sample' but "
                         "found '{}'",
                         excerpt(keyword));
  }

  Status typesLine(Tokens &tokens, int64_t column) {
    if (haveTypes_)
      return file_.errorAt(column, "a second 'types' line");
    std::vector<int32_t> arities;
    std::string_view token;
    while (tokens.next(token)) {
      int32_t arity;
      CAVS_RETURN_IF_ERROR(integer(tokens, token, "an arity", arity));
      // At the value, where the builder's check would point at 'types'.
      if (arity < 0 || arity > CAVS_MAX_ARITY)
        return file_.errorAt(tokens.column(token),
                             "type {} has arity {}, outside [0, {}]",
                             arities.size(), arity, CAVS_MAX_ARITY);
      arities.push_back(arity);
    }
    if (Status s = GraphBuilder::create(std::move(arities), builder_); !s.ok())
      return Status(CAVS_ERROR_PARSE, file_.location(column) + s.message());
    haveTypes_ = true;
    return Status();
  }

  Status attributesLine(Tokens &tokens, int64_t column) {
    if (sampleLine_ > 0)
      return file_.errorAt(column, "'attributes' must come before the first "
                                   "sample");
    std::string_view name;
    while (tokens.next(name)) {
      int32_t index;
      if (Status s = builder_.addAttribute(std::string(name), index); !s.ok())
        return Status(CAVS_ERROR_PARSE,
                      file_.location(tokens.column(name)) + s.message());
    }
    return Status();
  }

  Status sampleLine(Tokens &tokens) {
    std::string_view token, extra;
    if (!tokens.next(token))
      return file_.error("'sample' needs a vertex count");
    int32_t n;
    CAVS_RETURN_IF_ERROR(integer(tokens, token, "a vertex count", n));
    if (n < 1)
      return file_.errorAt(tokens.column(token),
                           "a sample needs at least 1 vertex, not {}", n);
    if (tokens.next(extra))
      return file_.errorAt(tokens.column(extra), "unexpected '{}'",
                           excerpt(extra));
    if (Status s = builder_.checkSampleSize(n); !s.ok())
      return std::move(s).withPrefix(file_.location());
    // Sized per vertex line rather than here, so a huge count in a short
    // file cannot allocate much.
    types_.clear();
    children_.clear();
    attributeValues_.assign(builder_.numAttributes(), {});
    numVertices_ = n;
    nextVertex_ = 0;
    sampleLine_ = file_.lineNumber();
    return Status();
  }

  Status vertexLine(Tokens &tokens, std::string_view first) {
    int32_t vertex, type;
    if (!parseInt32(first, vertex))
      return file_.errorAt(tokens.column(first),
                           "expected vertex {} of the {}-vertex sample from "
                           "line {} but found '{}'",
                           nextVertex_, numVertices_, sampleLine_,
                           excerpt(first));
    if (vertex != nextVertex_)
      return file_.errorAt(tokens.column(first),
                           "expected vertex {} (vertices are listed in order, "
                           "one per line) but found {}",
                           nextVertex_, vertex);
    std::string_view token;
    if (!tokens.next(token))
      return file_.error("vertex {} has no type", vertex);
    CAVS_RETURN_IF_ERROR(integer(tokens, token, "a type", type));
    if (type < 0 || type >= builder_.numTypes())
      return file_.errorAt(tokens.column(token),
                           "unknown type id {} (the file declares types 0 to "
                           "{})",
                           type, builder_.numTypes() - 1);
    const int32_t arity = builder_.arity(type);
    const int32_t numAttributes = builder_.numAttributes();
    for (int32_t field = 0; field < arity + numAttributes; ++field) {
      if (!tokens.next(token))
        return file_.error("vertex {} of type {} needs {} children and {} "
                           "attributes but the line has only {} of them",
                           vertex, type, arity, numAttributes, field);
      int32_t value;
      if (field >= arity) {
        CAVS_RETURN_IF_ERROR(integer(tokens, token, "an attribute", value));
        attributeValues_[field - arity].push_back(value);
        continue;
      }
      CAVS_RETURN_IF_ERROR(integer(tokens, token, "a child vertex", value));
      if (value < -1 || value >= numVertices_)
        return file_.errorAt(tokens.column(token),
                             "child {} is outside the sample's vertices [0, "
                             "{}) (-1 for an absent child)",
                             value, numVertices_);
      if (value == vertex)
        return file_.errorAt(tokens.column(token), "vertex {} is its own child",
                             vertex);
      children_.push_back(value);
    }
    if (tokens.next(token))
      return file_.errorAt(tokens.column(token),
                           "unexpected '{}': vertex {} of type {} has {} "
                           "children and {} attributes",
                           excerpt(token), vertex, type, arity, numAttributes);
    types_.push_back(type);
    children_.resize(size_t(nextVertex_ + 1) * builder_.maxArity(), -1);
    if (++nextVertex_ == numVertices_)
      return addSample();
    return Status();
  }

  Status addSample() {
    std::vector<const int32_t *> attributes;
    for (const std::vector<int32_t> &values : attributeValues_)
      attributes.push_back(values.data());
    Status s = builder_.addSample(numVertices_, types_.data(), children_.data(),
                                  attributes.data());
    return std::move(s).withPrefix(file_.lineLocation(sampleLine_));
  }

  TextFile &file_;
  GraphBuilder builder_;
  bool haveTypes_ = false;
  // The sample being read: its size, next vertex and `sample` line.
  int32_t numVertices_ = 0;
  int32_t nextVertex_ = 0;
  int64_t sampleLine_ = 0;
  std::vector<int32_t> types_, children_;
  std::vector<std::vector<int32_t>> attributeValues_;
};

} // namespace

Status loadEdgeList(const std::string &path, GraphBatch &out) {
  TextFile file;
  CAVS_RETURN_IF_ERROR(TextFile::read(path, "edge list", file));
  return EdgeListParser(file).parse(out);
}

} // namespace cavs::runtime
