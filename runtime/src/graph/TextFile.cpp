//===- TextFile.cpp - line-oriented reading of text inputs ----------------===//
//
// Files are read with stdio so that errno gives the reason of a failure
// (missing file, directory, permissions) for the message.
//
//===----------------------------------------------------------------------===//
#include "graph/TextFile.h"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <memory>

namespace cavs::runtime {

Status TextFile::read(const std::string &path, TextFile &out) {
  std::unique_ptr<FILE, int (*)(FILE *)> file(std::fopen(path.c_str(), "rb"),
                                              &std::fclose);
  if (!file)
    return makeError(CAVS_ERROR_IO, "cannot open '{}': {}", path,
                     std::strerror(errno));
  std::string text;
  char buffer[1 << 16];
  size_t got;
  while ((got = std::fread(buffer, 1, sizeof buffer, file.get())) > 0)
    text.append(buffer, got);
  if (std::ferror(file.get()))
    return makeError(CAVS_ERROR_IO, "cannot read '{}': {}", path,
                     std::strerror(errno));
  out = TextFile();
  out.path_ = path;
  out.text_ = std::move(text);
  return Status();
}

bool TextFile::nextLine(std::string_view &line) {
  if (next_ >= text_.size())
    return false;
  size_t end = text_.find('\n', next_);
  if (end == std::string::npos)
    end = text_.size();
  line = std::string_view(text_).substr(next_, end - next_);
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
