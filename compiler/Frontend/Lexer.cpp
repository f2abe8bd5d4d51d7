//===- Lexer.cpp - tokenizer for .cavs sources ----------------------------===//
//
// A hand-written single-pass lexer. It works on [begin, end) rather than
// relying on the buffer's NUL terminator, so embedded NUL bytes are ordinary
// invalid characters.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/Lexer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace cavs;

static bool isIdentifierStart(char c) { return llvm::isAlpha(c) || c == '_'; }
static bool isIdentifierBody(char c) { return llvm::isAlnum(c) || c == '_'; }

/// The length of the valid UTF-8 sequence of a non-ASCII character at `p`,
/// or 0 (ASCII, or bytes that are no UTF-8).
static unsigned nonAsciiCharacterLength(const char *p, const char *end) {
  const auto byte = static_cast<unsigned char>(*p);
  if (byte < 0x80)
    return 0;
  const unsigned length = llvm::getNumBytesForUTF8(byte);
  const auto *bytes = reinterpret_cast<const llvm::UTF8 *>(p);
  return length > 1 && length <= unsigned(end - p) &&
                 llvm::isLegalUTF8Sequence(bytes, bytes + length)
             ? length
             : 0;
}

Lexer::Lexer(llvm::StringRef buffer, DiagEngine &diag)
    : cur(buffer.begin()), end(buffer.end()), diag(diag) {}

/// The first byte from `p` on that is neither whitespace nor in a comment.
/// A block comment without its end runs to `end`; where it opens is stored
/// in `unterminated`.
static const char *skipTriviaFrom(const char *p, const char *end,
                                  const char *&unterminated) {
  while (p != end) {
    char c = *p;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
        c == '\f') {
      ++p;
      continue;
    }
    if (c != '/' || end - p < 2)
      return p;
    if (p[1] == '/') {
      while (p != end && *p != '\n')
        ++p;
      continue;
    }
    if (p[1] != '*')
      return p;
    llvm::StringRef rest(p + 2, end - p - 2);
    size_t close = rest.find("*/");
    if (close == llvm::StringRef::npos) {
      unterminated = p;
      return end;
    }
    p = rest.begin() + close + 2;
  }
  return p;
}

void Lexer::skipTrivia() {
  const char *unterminated = nullptr;
  cur = skipTriviaFrom(cur, end, unterminated);
  if (unterminated)
    diag.error(llvm::SMLoc::getFromPointer(unterminated),
               "unterminated block comment");
}

char Lexer::peekChar() const {
  const char *unterminated = nullptr;
  const char *next = skipTriviaFrom(cur, end, unterminated);
  return next == end ? '\0' : *next;
}

Token Lexer::lex() {
  while (true) {
    skipTrivia();
    if (cur == end || diag.shouldStop())
      return Token(TokenKind::eof, llvm::StringRef(end, 0));
    const char *start = cur++;
    switch (*start) {
    case ';':
      return makeToken(TokenKind::semi, start);
    case ',':
      return makeToken(TokenKind::comma, start);
    case ':':
      return makeToken(TokenKind::colon, start);
    case '=':
      return makeToken(TokenKind::equal, start);
    case '(':
      return makeToken(TokenKind::l_paren, start);
    case ')':
      return makeToken(TokenKind::r_paren, start);
    case '[':
      return makeToken(TokenKind::l_square, start);
    case ']':
      return makeToken(TokenKind::r_square, start);
    case '{':
      return makeToken(TokenKind::l_brace, start);
    case '}':
      return makeToken(TokenKind::r_brace, start);
    case '+':
      return makeToken(TokenKind::plus, start);
    case '-':
      return makeToken(TokenKind::minus, start);
    case '*':
      return makeToken(TokenKind::star, start);
    case '/':
      return makeToken(TokenKind::slash, start);
    case '@':
      return makeToken(TokenKind::at, start);
    case '.':
      if (cur != end && *cur == '.') {
        ++cur;
        return makeToken(TokenKind::dotdot, start);
      }
      if (cur != end && llvm::isDigit(*cur))
        return lexNumber(start);
      break;
    default:
      if (isIdentifierStart(*start))
        return lexIdentifierOrKeyword(start);
      if (unsigned length = nonAsciiCharacterLength(start, end)) {
        cur = start + length;
        return lexIdentifierOrKeyword(start);
      }
      if (llvm::isDigit(*start))
        return lexNumber(start);
      break;
    }
    // Anything else is reported and skipped; printable characters are shown
    // as themselves, other bytes (NUL, UTF-8, control) as a hex escape.
    std::string shown;
    llvm::raw_string_ostream os(shown);
    if (llvm::isPrint(*start))
      os << *start;
    else
      os << "\\x" << llvm::format_hex_no_prefix((unsigned char)*start, 2);
    diag.error(llvm::SMLoc::getFromPointer(start),
               "unexpected character '" + shown + "'");
  }
}

/// "00F6", "1F600": at least four hex digits, as U+ notation writes them.
static std::string codePointName(llvm::UTF32 codePoint) {
  std::string hex = llvm::utohexstr(codePoint);
  return std::string(hex.size() < 4 ? 4 - hex.size() : 0, '0') + hex;
}

Token Lexer::lexIdentifierOrKeyword(const char *start) {
  // Letters such as 'ö' or '∂' belong to the name they stand in, reported
  // once for the name rather than once per byte with a parse error after.
  const char *firstNonAscii =
      nonAsciiCharacterLength(start, end) != 0 ? start : nullptr;
  while (cur != end) {
    if (isIdentifierBody(*cur)) {
      ++cur;
    } else if (unsigned length = nonAsciiCharacterLength(cur, end)) {
      if (!firstNonAscii)
        firstNonAscii = cur;
      cur += length;
    } else {
      break;
    }
  }
  llvm::StringRef spelling(start, cur - start);
  // Once per name: its other uses are the same mistake. The code point
  // tells an invisible character (a no-break space, U+00A0) from a space.
  if (firstNonAscii && nonAsciiNames.insert(spelling).second) {
    const auto *bytes = reinterpret_cast<const llvm::UTF8 *>(firstNonAscii);
    llvm::UTF32 codePoint = 0;
    llvm::convertUTF8Sequence(&bytes, reinterpret_cast<const llvm::UTF8 *>(cur),
                              &codePoint, llvm::strictConversion);
    diag.error(llvm::SMLoc::getFromPointer(start),
               "name '" + spelling + "' has non-ASCII characters (U+" +
                   codePointName(codePoint) +
                   " first): names are ASCII letters, digits and '_'");
  }
  TokenKind kind = llvm::StringSwitch<TokenKind>(spelling)
#define KEYWORD(SPELLING) .Case(#SPELLING, TokenKind::kw_##SPELLING)
#include "compiler/Frontend/TokenKinds.def"
                       .Default(TokenKind::identifier);
  return Token(kind, spelling);
}

/// After the number lexed from `start`: letters,
/// digits and dots that run on from it (`1.5.5`, `1e`, `1e+`, `0x10`,
/// `2abc`) make one malformed literal, reported once with what is wrong and
/// skipped; otherwise they would lex as a second number or a name, and the
/// parser would report a missing ';' instead.
bool Lexer::skipMalformedRest(const char *start) {
  const char *rest = cur;
  while (cur != end) {
    if (isIdentifierBody(*cur)) {
      bool exponent = *cur == 'e' || *cur == 'E';
      ++cur;
      if (exponent && cur != end && (*cur == '+' || *cur == '-'))
        ++cur;
    } else if (*cur == '.' && cur + 1 != end && llvm::isDigit(cur[1])) {
      ++cur;
    } else {
      break;
    }
  }
  if (cur == rest)
    return false;
  const char *problem;
  if (*rest == '.')
    problem = "a number has one '.' at most, before its exponent";
  else if ((*rest == 'x' || *rest == 'X') && rest == start + 1 &&
           *start == '0')
    problem = "numbers are decimal: write the value in decimal digits";
  else if (*rest == 'e' || *rest == 'E')
    problem = "an exponent needs digits, as in 1e3 or 2.5e-3";
  else
    problem = "a name cannot start with a digit";
  diag.error(llvm::SMLoc::getFromPointer(start),
             "malformed number '" + llvm::StringRef(start, cur - start) +
                 "': " + problem);
  return true;
}

/// Numbers are `digits`, `digits.digits` and either followed by an exponent;
/// `0..n` lexes as `0` `..` `n`. `start` is a digit, or a '.' before one:
/// `.5` and `5.` are reported with the spelling to use instead and lexed as
/// the floats they mean, so that nothing after them fails too.
Token Lexer::lexNumber(const char *start) {
  auto skipDigits = [&] {
    while (cur != end && llvm::isDigit(*cur))
      ++cur;
  };
  skipDigits();
  const char *dot = *start == '.' ? start : nullptr;
  if (!dot && cur != end && *cur == '.' && (end - cur < 2 || cur[1] != '.')) {
    dot = cur++;
    skipDigits();
  }
  bool isFloat = dot != nullptr;
  if (cur != end && (*cur == 'e' || *cur == 'E')) {
    const char *exponent = cur + 1;
    if (exponent != end && (*exponent == '+' || *exponent == '-'))
      ++exponent;
    if (exponent != end && llvm::isDigit(*exponent)) {
      isFloat = true;
      cur = exponent;
      skipDigits();
    }
  }
  Token token =
      makeToken(isFloat ? TokenKind::floating : TokenKind::integer, start);
  if (skipMalformedRest(start))
    return token;
  bool noDigitBefore = dot == start;
  bool noDigitAfter = dot && (dot + 1 == end || !llvm::isDigit(dot[1]));
  if (noDigitBefore || noDigitAfter) {
    std::string fixed = token.getSpelling().str();
    fixed.insert(dot - start + (noDigitBefore ? 0 : 1), "0");
    diag.error(llvm::SMLoc::getFromPointer(dot),
               llvm::Twine("a floating-point literal needs a digit ") +
                   (noDigitBefore ? "before" : "after") + " '.': write '" +
                   fixed + "'");
  }
  return token;
}
