//===- Json.cpp - a minimal JSON reader for baseline results --------------===//
#include "Json.h"

#include <cstdlib>
#include <limits>
#include <stdexcept>

namespace cavs::bench {

/// Recursive descent over the text; positions are byte offsets.
class JsonParser {
public:
  explicit JsonParser(const std::string &text) : text_(text) {}

  JsonValue document() {
    JsonValue value = parseValue();
    skipSpace();
    if (at_ != text_.size())
      fail("trailing characters");
    return value;
  }

private:
  [[noreturn]] void fail(const std::string &what) const {
    throw std::runtime_error("malformed JSON at offset " + std::to_string(at_) +
                             ": " + what);
  }
  void skipSpace() {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\n' ||
                                  text_[at_] == '\t' || text_[at_] == '\r'))
      ++at_;
  }
  bool consume(const std::string &token) {
    if (text_.compare(at_, token.size(), token) != 0)
      return false;
    at_ += token.size();
    return true;
  }
  void expect(char c) {
    skipSpace();
    if (at_ >= text_.size() || text_[at_] != c)
      fail(std::string("expected '") + c + "'");
    ++at_;
  }

  JsonValue parseValue() {
    skipSpace();
    JsonValue value;
    if (at_ >= text_.size())
      fail("unexpected end");
    const char c = text_[at_];
    if (c == '{') {
      value.kind_ = JsonValue::Kind::Object;
      ++at_;
      skipSpace();
      if (consume("}"))
        return value;
      do {
        skipSpace();
        std::string key = parseString();
        expect(':');
        value.object_[key] = parseValue();
        skipSpace();
      } while (consume(","));
      expect('}');
    } else if (c == '[') {
      value.kind_ = JsonValue::Kind::Array;
      ++at_;
      skipSpace();
      if (consume("]"))
        return value;
      do
        value.array_.push_back(parseValue());
      while ((skipSpace(), consume(",")));
      expect(']');
    } else if (c == '"') {
      value.kind_ = JsonValue::Kind::String;
      value.string_ = parseString();
    } else if (consume("true") || consume("false")) {
      value.kind_ = JsonValue::Kind::Bool;
      value.number_ = text_[at_ - 1] == 'e' && c == 't';
    } else if (consume("null")) {
      value.kind_ = JsonValue::Kind::Null;
    } else if (consume("NaN")) {
      // Python's json writes NaN and (-)Infinity for non-finite floats.
      value.kind_ = JsonValue::Kind::Number;
      value.number_ = std::numeric_limits<double>::quiet_NaN();
    } else if (consume("Infinity") || consume("-Infinity")) {
      value.kind_ = JsonValue::Kind::Number;
      value.number_ =
          (c == '-' ? -1 : 1) * std::numeric_limits<double>::infinity();
    } else {
      char *end = nullptr;
      value.kind_ = JsonValue::Kind::Number;
      value.number_ = std::strtod(text_.c_str() + at_, &end);
      if (end == text_.c_str() + at_)
        fail("expected a value");
      at_ = size_t(end - text_.c_str());
    }
    return value;
  }

  /// A string at the cursor; \u escapes outside ASCII become '?', as the
  /// results only hold ASCII names.
  std::string parseString() {
    if (!consume("\""))
      fail("expected a string");
    std::string out;
    while (at_ < text_.size() && text_[at_] != '"') {
      char c = text_[at_++];
      if (c == '\\' && at_ < text_.size()) {
        const char e = text_[at_++];
        if (e == 'n')
          c = '\n';
        else if (e == 't')
          c = '\t';
        else if (e == 'u') {
          const long code =
              std::strtol(text_.substr(at_, 4).c_str(), nullptr, 16);
          at_ += 4;
          c = code < 128 ? char(code) : '?';
        } else
          c = e; // \" \\ \/ and the rare \b \f \r, kept literally
      }
      out += c;
    }
    if (!consume("\""))
      fail("unterminated string");
    return out;
  }

  const std::string &text_;
  size_t at_ = 0;
};

JsonValue JsonValue::parse(const std::string &text) {
  return JsonParser(text).document();
}

bool JsonValue::has(const std::string &key) const {
  return kind_ == Kind::Object && object_.count(key) != 0;
}

const JsonValue &JsonValue::operator[](const std::string &key) const {
  if (!has(key))
    throw std::runtime_error("JSON: no member '" + key + "'");
  return object_.at(key);
}

double JsonValue::number() const {
  if (kind_ != Kind::Number)
    throw std::runtime_error("JSON: expected a number");
  return number_;
}

const std::string &JsonValue::string() const {
  if (kind_ != Kind::String)
    throw std::runtime_error("JSON: expected a string");
  return string_;
}

const std::vector<JsonValue> &JsonValue::array() const {
  if (kind_ != Kind::Array)
    throw std::runtime_error("JSON: expected an array");
  return array_;
}

std::vector<double> JsonValue::numbers() const {
  std::vector<double> values;
  for (const JsonValue &item : array())
    values.push_back(item.number());
  return values;
}

} // namespace cavs::bench
