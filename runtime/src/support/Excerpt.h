//===- Excerpt.h - user input quoted in messages --------------------------===//
//
// Messages quote what they complain about: a token or line of a loader's
// input, a vocabulary word, a name read from a checkpoint. That text can be
// huge (a 50 MB token) or binary (a name that runs into the next record),
// and a NUL in it would cut the C ABI's message short, so every quote of
// user input goes through excerpt().
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_SUPPORT_EXCERPT_H
#define CAVS_RUNTIME_SUPPORT_EXCERPT_H

#include <cstddef>
#include <string>
#include <string_view>

namespace cavs::runtime {

/// Input bytes an excerpt shows at most.
inline constexpr size_t kMaxExcerptBytes = 80;

/// `text` fit for a message: its first kMaxExcerptBytes bytes (cut at a
/// UTF-8 character boundary) followed by "…(+N bytes)" for the N bytes
/// left out, with what is not printable UTF-8 escaped as C++23's "{:?}"
/// does: \xNN for other bytes, \n, \t, \\ and \".
std::string excerpt(std::string_view text);

/// Whether `text` is valid UTF-8 (control characters included).
bool isUtf8(std::string_view text);

/// `text` with every byte that is not part of printable UTF-8 written as
/// \xNN and nothing else changed: for messages of libraries that quote
/// input raw (the JSON parser's "last read: '...'").
std::string printableText(std::string_view text);

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_SUPPORT_EXCERPT_H
