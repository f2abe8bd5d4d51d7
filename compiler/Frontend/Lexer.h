//===- Lexer.h - tokenizer for .cavs sources --------------------*- C++ -*-===//
//
// Turns the main buffer of a SourceMgr into tokens. The lexer never fails:
// invalid characters and unterminated comments are reported and skipped, so
// the parser always sees a well-formed token stream ending in `eof`.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_COMPILER_FRONTEND_LEXER_H
#define CAVS_COMPILER_FRONTEND_LEXER_H

#include "compiler/Frontend/Diagnostics.h"
#include "compiler/Frontend/Token.h"

#include "llvm/ADT/StringSet.h"

namespace cavs {

/// Produces the tokens of one source buffer on demand.
class Lexer {
public:
  /// Lexes `buffer`, which must stay alive as long as the tokens are used.
  Lexer(llvm::StringRef buffer, DiagEngine &diag);

  /// Returns the next token; `eof` at the end of the buffer (and forever
  /// after), or as soon as the diagnostics engine gave up.
  Token lex();
  /// The first character of the token after the last one lexed ('\0' at
  /// the end of the buffer), without lexing it or reporting anything.
  char peekChar() const;

private:
  /// Skips whitespace and comments, reporting unterminated block comments.
  void skipTrivia();
  Token lexIdentifierOrKeyword(const char *start);
  Token lexNumber(const char *start);
  /// Reports and skips what runs on from a number lexed from `start` (a
  /// second '.', letters); false when nothing does.
  bool skipMalformedRest(const char *start);
  Token makeToken(TokenKind kind, const char *start) const {
    return Token(kind, llvm::StringRef(start, cur - start));
  }

  const char *cur;
  const char *end;
  DiagEngine &diag;
  /// The names with non-ASCII characters reported so far.
  llvm::StringSet<> nonAsciiNames;
};

} // namespace cavs

#endif // CAVS_COMPILER_FRONTEND_LEXER_H
