//===- TextFile.cpp - line-oriented reading of text inputs ----------------===//
#include "graph/TextFile.h"

#include <charconv>

namespace cavs::runtime {

Status TextFile::read(const std::string &path, const char *what,
                      TextFile &out) {
  FileBytes bytes;
  CAVS_RETURN_IF_ERROR(readWholeFile(path, what, bytes));
  out = TextFile();
  out.path_ = path;
  out.bytes_ = std::move(bytes);
  // A UTF-8 byte-order mark (some editors write one) is no part of the
  // first word, tree or number.
  if (out.bytes_.text().substr(0, 3) == kUtf8ByteOrderMark)
    out.next_ = 3;
  return Status();
}

bool TextFile::nextLine(std::string_view &line) {
  const std::string_view text = bytes_.text();
  if (next_ >= text.size())
    return false;
  size_t end = text.find('\n', next_);
  if (end == std::string_view::npos)
    end = text.size();
  line = text.substr(next_, end - next_);
  if (!line.empty() && line.back() == '\r')
    line.remove_suffix(1);
  next_ = end + 1;
  ++lineNumber_;
  return true;
}

std::string TextFile::location(int64_t column) const {
  if (column > 0)
    return fmt::format("{}:{}:{}: ", path_, lineNumber_, column);
  return lineLocation(lineNumber_);
}

std::string TextFile::lineLocation(int64_t line) const {
  return fmt::format("{}:{}: ", path_, line);
}

bool Tokens::next(std::string_view &token) {
  while (pos_ < line_.size() && isBlank(line_[pos_]))
    ++pos_;
  if (pos_ == line_.size())
    return false;
  size_t end = pos_;
  while (end < line_.size() && !isBlank(line_[end]))
    ++end;
  token = line_.substr(pos_, end - pos_);
  pos_ = end;
  return true;
}

bool parseInt32(std::string_view token, int32_t &value) {
  const char *end = token.data() + token.size();
  auto [ptr, ec] = std::from_chars(token.data(), end, value);
  return ec == std::errc() && ptr == end && !token.empty();
}

} // namespace cavs::runtime
