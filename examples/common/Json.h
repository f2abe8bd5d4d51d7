//===- Json.h - one JSON object written as text -----------------*- C++ -*-===//
//
// What the apps write for machines (--metrics) is flat JSON objects with a
// few nested ones; this builds such an object member by member, escaping
// strings, and writes a number that JSON cannot hold (NaN, infinity: a
// diverged loss) as null, so every line stays valid JSON.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_EXAMPLES_JSON_H
#define CAVS_EXAMPLES_JSON_H

#include <cstdint>
#include <string>
#include <string_view>

namespace cavs_examples {

class JsonObject {
public:
  JsonObject &integer(std::string_view key, int64_t value);
  /// Seven significant digits (a float loss has no more); null when not
  /// finite.
  JsonObject &number(std::string_view key, double value);
  JsonObject &text(std::string_view key, std::string_view value);
  JsonObject &object(std::string_view key, const JsonObject &value);

  /// The object, on one line.
  std::string str() const { return body_ + "}"; }

private:
  /// Starts a member: the separator and the quoted key.
  void key(std::string_view key);

  std::string body_ = "{";
};

} // namespace cavs_examples

#endif // CAVS_EXAMPLES_JSON_H
