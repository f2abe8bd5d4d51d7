//===- Excerpt.cpp - user input quoted in messages ------------------------===//
//
// fmt's debug format ("{:?}") does the escaping; it also adds double quotes,
// which are dropped because messages quote with '...'.
//
//===----------------------------------------------------------------------===//
#include "support/Excerpt.h"

#include <fmt/format.h>

#include <algorithm>

namespace cavs::runtime {

namespace {

bool isUtf8Continuation(char c) { return (c & 0xc0) == 0x80; }

} // namespace

std::string excerpt(std::string_view text) {
  size_t shown = std::min(text.size(), kMaxExcerptBytes);
  // Back up to the start of a character (at most 3 bytes in valid UTF-8),
  // so a clipped character is not shown as escaped bytes.
  if (shown < text.size())
    for (int i = 0; i < 3 && shown > 0 && isUtf8Continuation(text[shown]); ++i)
      --shown;
  std::string quoted = fmt::format("{:?}", text.substr(0, shown));
  std::string result = quoted.substr(1, quoted.size() - 2);
  if (shown < text.size())
    result += fmt::format("…(+{} bytes)", text.size() - shown);
  return result;
}

} // namespace cavs::runtime
