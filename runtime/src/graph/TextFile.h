//===- TextFile.h - line-oriented reading of text inputs ------------------===//
//
// Loaders read a whole file into memory once and walk it line by line;
// TextFile keeps the path and line number so every parse error can start
// with "file:line:" (and a column where it helps). Tokens splits a line on
// blanks and knows each token's column.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_GRAPH_TEXTFILE_H
#define CAVS_RUNTIME_GRAPH_TEXTFILE_H

#include "support/ReadFile.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace cavs::runtime {

/// A whole text file with a cursor on its current line.
class TextFile {
public:
  /// Reads the regular file `path`; `what` names it in messages ("SST
  /// trees"). CAVS_ERROR_IO as readWholeFile.
  static Status read(const std::string &path, const char *what, TextFile &out);

  const std::string &path() const { return path_; }
  /// Moves to the next line (without its "\n" or "\r\n"); false at the end.
  bool nextLine(std::string_view &line);
  /// 1-based number of the current line.
  int64_t lineNumber() const { return lineNumber_; }

  /// "path:line: " for the current line, or "path:line:column: " when
  /// `column` (1-based) is positive.
  std::string location(int64_t column = 0) const;
  /// "path:line: " for another line, such as where a sample began.
  std::string lineLocation(int64_t line) const;

  /// A CAVS_ERROR_PARSE error at the current line.
  template <typename... Args>
  Status error(fmt::format_string<Args...> format, Args &&...args) const {
    return errorAt(0, format, std::forward<Args>(args)...);
  }
  /// A CAVS_ERROR_PARSE error at `column` of the current line.
  template <typename... Args>
  Status errorAt(int64_t column, fmt::format_string<Args...> format,
                 Args &&...args) const {
    return Status(CAVS_ERROR_PARSE,
                  location(column) +
                      fmt::format(format, std::forward<Args>(args)...));
  }

private:
  std::string path_;
  FileBytes bytes_;
  size_t next_ = 0;
  int64_t lineNumber_ = 0;
};

/// Splits a line into blank-separated tokens.
class Tokens {
public:
  explicit Tokens(std::string_view line) : line_(line) {}
  /// The next token, or false when the line is exhausted.
  bool next(std::string_view &token);
  /// 1-based column of `token`, which must be a view into the line.
  int64_t column(std::string_view token) const {
    return token.data() - line_.data() + 1;
  }

private:
  std::string_view line_;
  size_t pos_ = 0;
};

/// True for a space, tab or carriage return.
inline bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/// Parses a whole token as a decimal int32; false on any other text or
/// overflow.
bool parseInt32(std::string_view token, int32_t &value);

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_GRAPH_TEXTFILE_H
