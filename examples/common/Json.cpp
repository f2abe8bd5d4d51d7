//===- Json.cpp - one JSON object written as text -------------------------===//
#include "Json.h"

#include <cmath>
#include <cstdio>

namespace cavs_examples {

namespace {
/// `text` as a JSON string: quotes, backslashes and control characters
/// escaped; other bytes (UTF-8) as they are.
void appendQuoted(std::string &out, std::string_view text) {
  out += '"';
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", unsigned(c));
      out += escaped;
    } else {
      out += c;
    }
  }
  out += '"';
}
} // namespace

void JsonObject::key(std::string_view key) {
  if (body_.size() > 1)
    body_ += ", ";
  appendQuoted(body_, key);
  body_ += ": ";
}

JsonObject &JsonObject::integer(std::string_view key, int64_t value) {
  this->key(key);
  body_ += std::to_string(value);
  return *this;
}

JsonObject &JsonObject::number(std::string_view key, double value) {
  this->key(key);
  if (!std::isfinite(value)) {
    body_ += "null";
    return *this;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.7g", value);
  body_ += text;
  return *this;
}

JsonObject &JsonObject::text(std::string_view key, std::string_view value) {
  this->key(key);
  appendQuoted(body_, value);
  return *this;
}

JsonObject &JsonObject::object(std::string_view key, const JsonObject &value) {
  this->key(key);
  body_ += value.str();
  return *this;
}

} // namespace cavs_examples
