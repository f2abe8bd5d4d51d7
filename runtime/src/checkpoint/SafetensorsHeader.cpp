//===- SafetensorsHeader.cpp - the strict JSON parse of a header ----------===//
//
// The header is read with nlohmann::json's SAX interface straight into a
// Header, never into a JSON document: the schema is checked at each event,
// so the first value of the wrong type, a duplicate key (which a document
// would silently overwrite) or nesting deeper than the schema stops the
// parse at once, and memory stays proportional to the header's tensors.
//
//===----------------------------------------------------------------------===//
#include "checkpoint/Safetensors.h"

#include "support/Excerpt.h"
#include "support/ReadFile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iterator>
#include <unordered_set>

namespace cavs::runtime::safetensors {

namespace {

using Json = nlohmann::json;

constexpr std::string_view kMetadataKey = "__metadata__";
/// The fields of a tensor object; bit i of a mask stands for kFields[i].
constexpr std::string_view kFields[] = {"dtype", "shape", "data_offsets"};

/// Builds a Header from the parser's events; every handler returns false
/// (stopping the parse) with error() set when the header breaks the schema.
class HeaderBuilder final : public nlohmann::json_sax<Json> {
public:
  explicit HeaderBuilder(Header &out) : out_(out) {}

  const std::string &error() const { return error_; }

  bool null() override { return unexpected("null"); }
  bool boolean(bool) override { return unexpected("a boolean"); }
  bool number_integer(number_integer_t) override {
    return unexpected("a negative number");
  }
  bool number_float(number_float_t, const string_t &text) override {
    return unexpected(fmt::format("the number {}", excerpt(text)));
  }
  bool binary(binary_t &) override { return unexpected("binary data"); }
  bool number_unsigned(number_unsigned_t value) override;
  bool string(string_t &value) override;
  bool start_object(std::size_t) override;
  bool key(string_t &name) override;
  bool end_object() override;
  bool start_array(std::size_t) override;
  bool end_array() override;
  bool parse_error(std::size_t, const std::string &,
                   const nlohmann::detail::exception &error) override;

private:
  /// The containers the parse is in.
  enum class In { Header, Tensor, Metadata, Shape, Offsets };

  bool fail(std::string message) {
    error_ = std::move(message);
    return false;
  }
  /// A value of the wrong type (`got`) at the current position.
  bool unexpected(std::string_view got) {
    return fail(fmt::format("{}, not {}", expectation(), got));
  }
  /// What the value at the current position must be.
  std::string expectation() const;
  TensorEntry &tensor() const { return out_.tensors.back(); }

  Header &out_;
  std::vector<In> stack_;
  /// The last key of the innermost object.
  std::string key_;
  std::unordered_set<std::string> headerKeys_, metadataKeys_;
  /// The fields of the current tensor so far (bits as in kFields).
  unsigned seenFields_ = 0;
  std::vector<uint64_t> offsets_;
  std::string error_;
};

std::string HeaderBuilder::expectation() const {
  if (stack_.empty())
    return "the header must be a JSON object";
  switch (stack_.back()) {
  case In::Header:
    if (key_ == kMetadataKey)
      return "__metadata__ must be an object of strings";
    return fmt::format("tensor '{}' must be an object", excerpt(key_));
  case In::Metadata:
    return fmt::format("__metadata__ value '{}' must be a string",
                       excerpt(key_));
  case In::Tensor:
    if (key_ == "dtype")
      return fmt::format("the dtype of tensor '{}' must be a string",
                         excerpt(tensor().name));
    if (key_ == "shape")
      return fmt::format("the shape of tensor '{}' must be an array",
                         excerpt(tensor().name));
    return fmt::format("the data_offsets of tensor '{}' must be an array",
                       excerpt(tensor().name));
  case In::Shape:
    return fmt::format("the dimensions of tensor '{}' must be non-negative "
                       "integers",
                       excerpt(tensor().name));
  case In::Offsets:
    return fmt::format("the data_offsets of tensor '{}' must be non-negative "
                       "integers",
                       excerpt(tensor().name));
  }
  return "";
}

bool HeaderBuilder::number_unsigned(number_unsigned_t value) {
  if (stack_.empty() ||
      (stack_.back() != In::Shape && stack_.back() != In::Offsets))
    return unexpected(fmt::format("the number {}", value));
  if (stack_.back() == In::Offsets) {
    if (offsets_.size() == 2)
      return fail(fmt::format("tensor '{}' has more than 2 data_offsets",
                              excerpt(tensor().name)));
    offsets_.push_back(value);
    return true;
  }
  if (tensor().shape.size() == kMaxRank)
    return fail(fmt::format("tensor '{}' has more than {} dimensions",
                            excerpt(tensor().name), kMaxRank));
  tensor().shape.push_back(value);
  return true;
}

bool HeaderBuilder::string(string_t &value) {
  if (!stack_.empty() && stack_.back() == In::Metadata) {
    out_.metadata.emplace_back(key_, std::move(value));
    return true;
  }
  if (!stack_.empty() && stack_.back() == In::Tensor && key_ == "dtype") {
    tensor().dtype = std::move(value);
    return true;
  }
  return unexpected(fmt::format("the string \"{}\"", excerpt(value)));
}

bool HeaderBuilder::start_object(std::size_t) {
  if (stack_.empty()) {
    stack_.push_back(In::Header);
    return true;
  }
  if (stack_.back() != In::Header)
    return unexpected("an object");
  if (key_ == kMetadataKey) {
    stack_.push_back(In::Metadata);
    return true;
  }
  out_.tensors.emplace_back().name = key_;
  seenFields_ = 0;
  stack_.push_back(In::Tensor);
  return true;
}

bool HeaderBuilder::key(string_t &name) {
  switch (stack_.back()) {
  case In::Header:
    if (!headerKeys_.insert(name).second)
      return fail(fmt::format("the key '{}' appears twice", excerpt(name)));
    break;
  case In::Metadata:
    if (!metadataKeys_.insert(name).second)
      return fail(
          fmt::format("__metadata__ key '{}' appears twice", excerpt(name)));
    break;
  default: { // In::Tensor: the only other container with keys.
    const auto *field = std::find(std::begin(kFields), std::end(kFields), name);
    if (field == std::end(kFields))
      return fail(fmt::format("tensor '{}' has the unknown field '{}' (only "
                              "dtype, shape and data_offsets)",
                              excerpt(tensor().name), excerpt(name)));
    const unsigned bit = 1u << (field - std::begin(kFields));
    if (seenFields_ & bit)
      return fail(fmt::format("tensor '{}' has field '{}' twice",
                              excerpt(tensor().name), name));
    seenFields_ |= bit;
  }
  }
  key_ = std::move(name);
  return true;
}

bool HeaderBuilder::end_object() {
  if (stack_.back() == In::Tensor)
    for (size_t i = 0; i < std::size(kFields); ++i)
      if (!(seenFields_ & (1u << i)))
        return fail(fmt::format("tensor '{}' has no {}", excerpt(tensor().name),
                                kFields[i]));
  stack_.pop_back();
  // The key that led to the closed object is that of the enclosing one.
  key_.clear();
  return true;
}

bool HeaderBuilder::start_array(std::size_t) {
  if (stack_.empty() || stack_.back() != In::Tensor || key_ == "dtype")
    return unexpected("an array");
  if (key_ == "shape") {
    stack_.push_back(In::Shape);
  } else {
    offsets_.clear();
    stack_.push_back(In::Offsets);
  }
  return true;
}

bool HeaderBuilder::end_array() {
  if (stack_.back() == In::Offsets) {
    if (offsets_.size() != 2)
      return fail(fmt::format("tensor '{}' has {} data_offsets instead of 2",
                              excerpt(tensor().name), offsets_.size()));
    tensor().begin = offsets_[0];
    tensor().end = offsets_[1];
  }
  stack_.pop_back();
  return true;
}

bool HeaderBuilder::parse_error(std::size_t, const std::string &,
                                const nlohmann::detail::exception &error) {
  // what() is "[json.exception.parse_error.101] parse error at line 1,
  // column 5: ..."; the bracketed id means nothing to a reader.
  std::string_view what = error.what();
  if (const size_t close = what.find("] "); close != std::string_view::npos)
    what.remove_prefix(close + 2);
  // It quotes the bytes it last read raw, invalid UTF-8 included.
  return fail(
      fmt::format("the header is not valid JSON: {}", printableText(what)));
}

} // namespace

Status parseHeader(std::string_view json, Header &out) {
  // nlohmann's parser ends the input at a NUL byte and skips a leading
  // UTF-8 byte order mark, where JSON (and the reference implementation)
  // allow neither: "{...}\0 garbage" loaded.
  if (const size_t nul = json.find('\0'); nul != std::string_view::npos)
    return makeError(CAVS_ERROR_PARSE,
                     "the header is not valid JSON: a NUL byte at offset {}",
                     nul);
  if (json.substr(0, 3) == kUtf8ByteOrderMark)
    return Status(CAVS_ERROR_PARSE, "the header is not valid JSON: it starts "
                                    "with a UTF-8 byte order mark");
  Header header;
  HeaderBuilder builder(header);
  if (!Json::sax_parse(json.begin(), json.end(), &builder))
    return Status(CAVS_ERROR_PARSE, builder.error());
  out = std::move(header);
  return Status();
}

} // namespace cavs::runtime::safetensors
