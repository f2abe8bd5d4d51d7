//===- Json.h - a minimal JSON reader for baseline results ------*- C++ -*-===//
//
// cavs-bench reads the JSON result files of its PyTorch baseline scripts
// (tools/cavs-bench/baselines). It links no JSON library, so this parses
// the whole grammar into a small value tree; numbers become doubles.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_BENCH_JSON_H
#define CAVS_BENCH_JSON_H

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cavs::bench {

class JsonValue {
public:
  enum class Kind { Null, Bool, Number, String, Array, Object };

  /// Parses `text`; throws std::runtime_error naming the offset of the
  /// first malformed character.
  static JsonValue parse(const std::string &text);

  Kind kind() const { return kind_; }
  /// The member `key` of an object; throws when absent or not an object.
  const JsonValue &operator[](const std::string &key) const;
  bool has(const std::string &key) const;
  /// Throw when the value is of another kind.
  double number() const;
  const std::string &string() const;
  const std::vector<JsonValue> &array() const;
  /// A number array as doubles.
  std::vector<double> numbers() const;

private:
  friend class JsonParser;
  Kind kind_ = Kind::Null;
  double number_ = 0;
  std::string string_;
  std::vector<JsonValue> array_;
  std::map<std::string, JsonValue> object_;
};

} // namespace cavs::bench

#endif // CAVS_BENCH_JSON_H
