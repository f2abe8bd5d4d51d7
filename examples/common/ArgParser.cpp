//===- ArgParser.cpp - declarative command lines --------------------------===//
#include "ArgParser.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace cavs_examples {

namespace {
int64_t parseInteger(const std::string &flag, const std::string &text,
                     int64_t lo, int64_t hi) {
  errno = 0;
  char *end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE || value < lo ||
      value > hi)
    throw UsageError(flag + " expects an integer in [" + std::to_string(lo) +
                     ", " + std::to_string(hi) + "], got '" + text + "'");
  return value;
}

/// Shortest text that reads back as `value` (0.05, not 0.050000).
std::string formatNumber(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}
} // namespace

ArgParser::ArgParser(std::string program, std::string description)
    : program_(std::move(program)), description_(std::move(description)) {
  Flag help{"--help", "", "print this text", "", false, nullptr};
  flags_.push_back(std::move(help));
}

void ArgParser::add(Flag flag) {
  if (find(flag.name))
    throw std::logic_error("ArgParser: " + flag.name + " registered twice");
  flags_.insert(flags_.end() - 1, std::move(flag)); // --help stays last
}

const ArgParser::Flag *ArgParser::find(const std::string &name) const {
  for (const Flag &flag : flags_)
    if (flag.name == name)
      return &flag;
  return nullptr;
}

void ArgParser::toggle(const std::string &name, const std::string &help,
                       bool *target) {
  add({name, "", help, "", false,
       [target](const std::string &) { *target = true; }});
}

void ArgParser::integer(const std::string &name, const std::string &help,
                        int64_t *target, int64_t lo, int64_t hi) {
  add({name, "N", help, *target <= 0 ? "" : std::to_string(*target), true,
       [=](const std::string &text) {
         *target = parseInteger(name, text, lo, hi);
       }});
}

void ArgParser::integer(const std::string &name, const std::string &help,
                        int32_t *target, int64_t lo, int64_t hi) {
  add({name, "N", help, *target <= 0 ? "" : std::to_string(*target), true,
       [=](const std::string &text) {
         *target = int32_t(parseInteger(name, text, lo, hi));
       }});
}

void ArgParser::integer(const std::string &name, const std::string &help,
                        uint64_t *target, int64_t lo, int64_t hi) {
  add({name, "N", help, std::to_string(*target), true,
       [=](const std::string &text) {
         *target = uint64_t(parseInteger(name, text, lo, hi));
       }});
}

void ArgParser::number(const std::string &name, const std::string &help,
                       double *target) {
  add({name, "X", help, formatNumber(*target), true,
       [=](const std::string &text) {
         errno = 0;
         char *end = nullptr;
         const double value = std::strtod(text.c_str(), &end);
         // strtod also reads hexadecimal ("0x10"), which no one means here.
         if (text.empty() || *end != '\0' || errno == ERANGE || !(value >= 0) ||
             !std::isfinite(value) ||
             text.find_first_of("xX") != std::string::npos)
           throw UsageError(name + " expects a non-negative number, got '" +
                            text + "'");
         *target = value;
       }});
}

void ArgParser::text(const std::string &name, const std::string &metavar,
                     const std::string &help, std::string *target, bool *given,
                     bool nonEmpty) {
  add({name, metavar, help, *target, true, [=](const std::string &text) {
         if (nonEmpty && text.empty())
           throw UsageError(name + " needs a non-empty value");
         *target = text;
         if (given)
           *given = true;
       }});
}

void ArgParser::checkedText(
    const std::string &name, const std::string &metavar,
    const std::string &help, std::string *target,
    std::function<std::string(const std::string &)> check) {
  add({name, metavar, help, *target, true, [=](const std::string &text) {
         const std::string problem = check(text);
         if (!problem.empty())
           throw UsageError(name + " " + text + ": " + problem);
         *target = text;
       }});
}

void ArgParser::choice(const std::string &name, const std::string &help,
                       std::string *target, std::vector<std::string> choices) {
  std::string list;
  for (const std::string &c : choices)
    list += (list.empty() ? "" : "|") + c;
  add({name, list, help, *target, true, [=](const std::string &text) {
         for (const std::string &c : choices)
           if (c == text) {
             *target = text;
             return;
           }
         throw UsageError(name + " expects one of " + list + ", got '" + text +
                          "'");
       }});
}

bool ArgParser::parse(int argc, char **argv) const {
  bool help = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    std::string name = arg, value;
    bool inlineValue = false;
    if (const size_t eq = arg.find('=');
        arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
      inlineValue = true;
    }
    if (name == "-h")
      name = "--help";
    const Flag *flag = find(name);
    if (!flag)
      throw UsageError("unknown option '" + arg + "'");
    if (!flag->takesValue && inlineValue)
      throw UsageError(name + " takes no value");
    if (flag->takesValue && !inlineValue) {
      if (i + 1 >= argc)
        throw UsageError(name + " needs a value");
      value = argv[++i];
    }
    if (name == "--help")
      help = true;
    else
      flag->set(value);
    given_.push_back(name);
  }
  return !help;
}

bool ArgParser::given(const std::string &name) const {
  return std::find(given_.begin(), given_.end(), name) != given_.end();
}

std::string ArgParser::usage() const {
  constexpr size_t kIndent = 20, kWidth = 79;
  std::string text =
      "usage: " + program_ + " [options]\n\n" + description_ + "\n\n";
  for (const Flag &flag : flags_) {
    std::string line = "  " + flag.name;
    if (!flag.metavar.empty())
      line += " " + flag.metavar;
    std::string help = flag.help;
    if (!flag.defaultText.empty())
      help += " (" + flag.defaultText + ")";
    // Help words fill the column from kIndent on, wrapped at kWidth.
    std::istringstream words(help);
    bool fresh = true; // nothing on the help column of `line` yet
    for (std::string word; words >> word;) {
      if (!fresh && line.size() + 1 + word.size() > kWidth) {
        text += line + "\n";
        line.clear();
        fresh = true;
      }
      if (fresh) {
        if (line.size() + 1 > kIndent) {
          text += line + "\n";
          line.clear();
        }
        line.resize(kIndent, ' ');
        line += word;
        fresh = false;
      } else {
        line += " " + word;
      }
    }
    text += line + "\n";
  }
  return text;
}

} // namespace cavs_examples
