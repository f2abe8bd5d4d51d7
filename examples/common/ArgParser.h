//===- ArgParser.h - declarative command lines ------------------*- C++ -*-===//
//
// Every app registers its flags once (name, help, the variable it sets, the
// valid range), and the parser derives both the checking and the --help text
// from that, so the two never disagree and no app repeats flag parsing.
// Defaults shown in --help are the variables' values at registration.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_EXAMPLES_ARGPARSER_H
#define CAVS_EXAMPLES_ARGPARSER_H

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cavs_examples {

/// A malformed command line or unusable input path; apps exit with 2.
class UsageError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

class ArgParser {
public:
  /// `program` names the app in messages; `description` starts --help.
  ArgParser(std::string program, std::string description);

  const std::string &program() const { return program_; }

  /// A flag without a value that sets `*target` to true.
  void toggle(const std::string &name, const std::string &help, bool *target);
  /// An integer flag in [lo, hi].
  void integer(const std::string &name, const std::string &help,
               int64_t *target, int64_t lo, int64_t hi);
  /// The same for the narrower integer types the apps keep.
  void integer(const std::string &name, const std::string &help,
               int32_t *target, int64_t lo, int64_t hi);
  void integer(const std::string &name, const std::string &help,
               uint64_t *target, int64_t lo, int64_t hi);
  /// A finite non-negative number.
  void number(const std::string &name, const std::string &help, double *target);
  /// A string; `given` (optional) is set when the flag appears, `nonEmpty`
  /// rejects "".
  void text(const std::string &name, const std::string &metavar,
            const std::string &help, std::string *target, bool *given = nullptr,
            bool nonEmpty = true);
  /// A string that `check` accepts: it returns what is wrong with a value,
  /// or "" (e.g. a device name the runtime parses).
  void checkedText(const std::string &name, const std::string &metavar,
                   const std::string &help, std::string *target,
                   std::function<std::string(const std::string &)> check);
  /// One of `choices`.
  void choice(const std::string &name, const std::string &help,
              std::string *target, std::vector<std::string> choices);

  /// Parses `--flag value` and `--flag=value`; returns false when --help was
  /// asked for (the caller prints usage()). Throws UsageError.
  bool parse(int argc, char **argv) const;
  /// Whether the last parse() met flag `name`: for flags that only apply
  /// with others, which an app refuses rather than ignores.
  bool given(const std::string &name) const;

  /// The --help text.
  std::string usage() const;

private:
  struct Flag {
    std::string name, metavar, help, defaultText;
    bool takesValue = true;
    std::function<void(const std::string &)> set;
  };
  void add(Flag flag);
  const Flag *find(const std::string &name) const;

  std::string program_, description_;
  std::vector<Flag> flags_;
  mutable std::vector<std::string> given_;
};

} // namespace cavs_examples

#endif // CAVS_EXAMPLES_ARGPARSER_H
