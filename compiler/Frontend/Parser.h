//===- Parser.h - recursive-descent parser for .cavs ------------*- C++ -*-===//
//
// Builds the AST of one source file. Errors are reported through the
// DiagEngine and the parser resynchronises (at the next ';' or '}' inside a
// vertex function, at the next declaration keyword at top level), so one run
// reports as many independent syntax errors as possible. Nesting depth is
// bounded so that no input can exhaust the stack, here or in later walks.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_COMPILER_FRONTEND_PARSER_H
#define CAVS_COMPILER_FRONTEND_PARSER_H

#include "compiler/Frontend/AST.h"
#include "compiler/Frontend/Lexer.h"

#include "llvm/ADT/StringSet.h"

#include <optional>

namespace cavs {

/// The deepest nesting of expressions or blocks the parser accepts:
/// parentheses, calls, brackets, negations and blocks.
constexpr unsigned kMaxNestingDepth = 200;

/// The most operators on one path of an expression tree (a leaf has
/// height 1, so the tree is at most one taller). Chains of binary operators
/// (a flat sum of many terms) do not nest, but their trees are as tall as
/// they are long and the later stages recurse over them; cavsc runs those on
/// a large stack, and a longer chain could not be lowered anyway (the
/// frontend's limit of 65,536 operations).
constexpr unsigned kMaxChainOperators = 1 << 16;

/// Parses a token stream into a ModuleAST.
class Parser {
public:
  Parser(Lexer &lexer, DiagEngine &diag);

  /// Parses the whole input. Always returns a module; declarations and
  /// statements that could not be parsed are reported and left out.
  std::unique_ptr<ModuleAST> parseModule();

private:
  /// Counts one level of nesting for as long as it lives.
  class NestingScope;

  //===--- Tokens ---------------------------------------------------------===//
  /// Reads the next token into `tok`, marking it as following a lexer
  /// error when the lexer reported one on the way.
  void lex();
  void consume();
  bool consumeIf(TokenKind kind);
  /// Consumes a `kind` token, else reports "expected K <context>". A missing
  /// ';' is reported just after the previous token, where it belongs.
  bool expect(TokenKind kind, llvm::StringRef context);
  /// Consumes the closing bracket `kind` matching the one at `openLoc`, else
  /// reports it with a note at the opening bracket.
  bool expectClosing(TokenKind kind, llvm::SMLoc openLoc);
  /// Consumes an identifier into `name`/`loc`, else reports "expected WHAT".
  /// A keyword there is reported as such and still taken as the name
  /// (`model dim;` is one mistake, not two), unless it starts a
  /// declaration on a later line: then the name is what is missing.
  bool expectIdentifier(llvm::StringRef what, llvm::StringRef &name,
                        llvm::SMLoc &loc);
  /// Whether the current token is a keyword that the next one shows is
  /// meant as a name (`loss = ...`, `state, c = ...`, `h[k] = ...`): that
  /// is one mistake, reported once, and the keyword is then taken as the
  /// name throughout.
  bool keywordNamesAValue() const;

  //===--- Declarations ---------------------------------------------------===//
  DeclPtr parseDecl();
  DeclPtr parseDim();
  DeclPtr parseState();
  DeclPtr parseParam();
  DeclPtr parseVertex();
  std::optional<TypeSpec> parseType();
  ExprPtr parseInitArg();

  //===--- Statements -----------------------------------------------------===//
  /// Parses `{ stmt* }` into `body`; false if the braces are broken.
  bool parseBlock(std::vector<StmtPtr> &body);
  StmtPtr parseStmt();
  StmtPtr parseAssign();
  StmtPtr parseFor();
  StmtPtr parseScatter();
  StmtPtr parsePush();
  StmtPtr parseLoss();

  //===--- Expressions ----------------------------------------------------===//
  /// An expression, one level deeper; a level too deep is reported at
  /// `openLoc` (the '(' that opened it) when given, else at its start.
  ExprPtr parseExpr(llvm::SMLoc openLoc = {});
  ExprPtr parseAdditive();
  ExprPtr parseMultiplicative();
  ExprPtr parseUnary();
  ExprPtr parsePostfix();
  ExprPtr parsePrimary();
  ExprPtr parseNumber();
  ExprPtr parseCall(llvm::StringRef callee, llvm::SMLoc loc);
  /// Rejects (reports and returns null) a node taller than the nesting limit.
  ExprPtr limitHeight(ExprPtr expr);

  //===--- Error recovery -------------------------------------------------===//
  /// Skips to just after the next ';' (or balanced `{...}` group), or to a
  /// '}' or declaration keyword that ends the enclosing block.
  void skipStatement();
  /// Skips to the next declaration keyword.
  void skipToDeclaration();

  Lexer &lexer;
  DiagEngine &diag;
  Token tok;
  llvm::SMLoc prevTokEnd;
  /// Keywords reported and taken as names, which later read as names.
  llvm::StringSet<> keywordsAsNames;
  unsigned depth = 0;
};

} // namespace cavs

#endif // CAVS_COMPILER_FRONTEND_PARSER_H
