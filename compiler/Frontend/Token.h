//===- Token.h - one token of a .cavs source --------------------*- C++ -*-===//
//
// A token is its kind plus the exact characters it covers in the source
// buffer; the location is derived from those characters, so tokens stay two
// words and never copy text.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_COMPILER_FRONTEND_TOKEN_H
#define CAVS_COMPILER_FRONTEND_TOKEN_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <string>

namespace cavs {

/// Every kind of token; see TokenKinds.def.
enum class TokenKind {
#define TOK(NAME) NAME,
#include "compiler/Frontend/TokenKinds.def"
};

/// How a token kind is named in diagnostics: `';'` and `'vertex'` for
/// punctuation and keywords, a description such as `identifier` otherwise.
std::string describeTokenKind(TokenKind kind);

/// True for the reserved words of the language.
bool isKeyword(TokenKind kind);

/// True for the keywords that start a top-level declaration; the parser's
/// error recovery never skips past one.
bool startsDeclaration(TokenKind kind);

/// A token: its kind and the source characters it spans.
class Token {
public:
  Token() = default;
  Token(TokenKind kind, llvm::StringRef spelling)
      : kind(kind), spelling(spelling) {}

  TokenKind getKind() const { return kind; }
  bool is(TokenKind k) const { return kind == k; }
  bool isNot(TokenKind k) const { return kind != k; }

  /// The characters of the token in the source buffer.
  llvm::StringRef getSpelling() const { return spelling; }

  llvm::SMLoc getLoc() const {
    return llvm::SMLoc::getFromPointer(spelling.begin());
  }
  /// The location just past the last character of the token.
  llvm::SMLoc getEndLoc() const {
    return llvm::SMLoc::getFromPointer(spelling.end());
  }

private:
  TokenKind kind = TokenKind::eof;
  llvm::StringRef spelling;
};

} // namespace cavs

#endif // CAVS_COMPILER_FRONTEND_TOKEN_H
