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

/// The length of the valid UTF-8 character at the start of `text`, or 0.
size_t utf8CharacterLength(std::string_view text) {
  const auto lead = static_cast<unsigned char>(text[0]);
  if (lead < 0x80)
    return 1;
  const size_t length = lead >= 0xc2 && lead <= 0xdf   ? 2
                        : lead >= 0xe0 && lead <= 0xef ? 3
                        : lead >= 0xf0 && lead <= 0xf4 ? 4
                                                       : 0;
  if (length == 0 || text.size() < length)
    return 0;
  for (size_t i = 1; i < length; ++i)
    if (!isUtf8Continuation(text[i]))
      return 0;
  const auto second = static_cast<unsigned char>(text[1]);
  // Overlong forms, UTF-16 surrogates and code points beyond U+10FFFF.
  if ((lead == 0xe0 && second < 0xa0) || (lead == 0xed && second > 0x9f) ||
      (lead == 0xf0 && second < 0x90) || (lead == 0xf4 && second > 0x8f))
    return 0;
  return length;
}

/// The length of the valid UTF-8 character at the start of `text` that is
/// not a control character, or 0.
size_t printableCharacterLength(std::string_view text) {
  const auto lead = static_cast<unsigned char>(text[0]);
  if (lead < 0x80)
    return lead >= 0x20 && lead != 0x7f ? 1 : 0;
  return utf8CharacterLength(text);
}

} // namespace

bool isUtf8(std::string_view text) {
  while (!text.empty()) {
    const size_t length = utf8CharacterLength(text);
    if (length == 0)
      return false;
    text.remove_prefix(length);
  }
  return true;
}

std::string printableText(std::string_view text) {
  std::string result;
  result.reserve(text.size());
  while (!text.empty()) {
    if (const size_t length = printableCharacterLength(text)) {
      result.append(text.substr(0, length));
      text.remove_prefix(length);
    } else {
      result += fmt::format("\\x{:02x}", static_cast<unsigned char>(text[0]));
      text.remove_prefix(1);
    }
  }
  return result;
}

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
