//===- Parser.cpp - recursive-descent parser for .cavs --------------------===//
//
// One function per grammar rule (see docs/language.md). Every parse function
// returns null after reporting an error; only the statement and declaration
// loops recover, so one mistake produces one diagnostic.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/Parser.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/Error.h"

using namespace cavs;
using namespace cavs::checked;

/// Literals longer than this are rejected: no sensible model needs one, and
/// converting megabytes of digits exactly would take quadratic time.
static constexpr size_t kMaxLiteralLength = 128;

class Parser::NestingScope {
public:
  explicit NestingScope(Parser &parser) : parser(parser) { ++parser.depth; }
  ~NestingScope() { --parser.depth; }

  /// Reports and returns false when the nesting limit is exceeded. The
  /// depth also counts the outermost expression of a statement or
  /// declaration, which is nested in nothing: 200 parentheses around it
  /// make 200 levels, as do a vertex block and 199 blocks within it.
  bool check(llvm::SMLoc loc) {
    if (parser.depth <= kMaxNestingDepth + 1)
      return true;
    parser.diag.error(loc, "nesting depth exceeds the limit of " +
                               llvm::Twine(kMaxNestingDepth));
    return false;
  }

private:
  Parser &parser;
};

Parser::Parser(Lexer &lexer, DiagEngine &diag) : lexer(lexer), diag(diag) {
  lex();
  prevTokEnd = tok.getLoc();
}

//===----------------------------------------------------------------------===//
// Tokens
//===----------------------------------------------------------------------===//

void Parser::lex() {
  // The lexer's own errors are never dropped; the parser's are while the
  // token follows one of them.
  diag.setFollowingLexError(false);
  const unsigned errors = diag.getNumErrors();
  tok = lexer.lex();
  diag.setFollowingLexError(diag.getNumErrors() != errors);
}

void Parser::consume() {
  prevTokEnd = tok.getEndLoc();
  lex();
}

bool Parser::consumeIf(TokenKind kind) {
  if (tok.isNot(kind))
    return false;
  consume();
  return true;
}

bool Parser::expect(TokenKind kind, llvm::StringRef context) {
  if (consumeIf(kind))
    return true;
  llvm::SMLoc loc = kind == TokenKind::semi ? prevTokEnd : tok.getLoc();
  diag.error(loc, "expected " + describeTokenKind(kind) +
                      (context.empty() ? "" : " ") + context);
  return false;
}

bool Parser::expectClosing(TokenKind kind, llvm::SMLoc openLoc) {
  if (consumeIf(kind))
    return true;
  std::string close = describeTokenKind(kind);
  diag.error(tok.getLoc(), "expected " + close);
  const char *open = kind == TokenKind::r_paren    ? "'('"
                     : kind == TokenKind::r_square ? "'['"
                                                   : "'{'";
  diag.note(openLoc, llvm::Twine("to match this ") + open);
  return false;
}

bool Parser::keywordNamesAValue() const {
  if (!isKeyword(tok.getKind()))
    return false;
  const char next = lexer.peekChar();
  return next == '=' || next == ',' || next == '[';
}

bool Parser::expectIdentifier(llvm::StringRef what, llvm::StringRef &name,
                              llvm::SMLoc &loc) {
  if (tok.isNot(TokenKind::identifier)) {
    const char *gapBegin = prevTokEnd.getPointer();
    const bool sameLine =
        llvm::StringRef(gapBegin, tok.getLoc().getPointer() - gapBegin)
            .find('\n') == llvm::StringRef::npos;
    if (!isKeyword(tok.getKind()) || (startsDeclaration(tok.getKind()) &&
                                      !sameLine && !keywordNamesAValue())) {
      diag.error(tok.getLoc(), "expected " + what);
      return false;
    }
    // Reported once, where it was first taken as a name.
    if (keywordsAsNames.insert(tok.getSpelling()).second)
      diag.error(tok.getLoc(), "expected " + what + ", found the keyword " +
                                   describeTokenKind(tok.getKind()));
  }
  name = tok.getSpelling();
  loc = tok.getLoc();
  consume();
  return true;
}

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

std::unique_ptr<ModuleAST> Parser::parseModule() {
  auto module = std::make_unique<ModuleAST>();
  module->loc = tok.getLoc();
  bool modelLineSeen = tok.is(TokenKind::kw_model);
  if (modelLineSeen) {
    consume();
    if (!expectIdentifier("model name", module->name, module->nameLoc) ||
        !expect(TokenKind::semi, "after model name"))
      skipToDeclaration();
  } else {
    // Resynchronise as after any bad declaration, so that the same token is
    // not reported again as a bad declaration.
    diag.error(tok.getLoc(), "expected 'model NAME;' at the start of the file");
    skipToDeclaration();
  }

  while (tok.isNot(TokenKind::eof)) {
    // A late `model NAME;` of a file that lacks it at the start is that
    // one mistake, already reported: it still names the model.
    if (tok.is(TokenKind::kw_model) && !modelLineSeen) {
      modelLineSeen = true;
      consume();
      if (!expectIdentifier("model name", module->name, module->nameLoc) ||
          !expect(TokenKind::semi, "after model name"))
        skipToDeclaration();
      continue;
    }
    if (DeclPtr decl = parseDecl())
      module->decls.push_back(std::move(decl));
    else
      skipToDeclaration();
  }
  return module;
}

DeclPtr Parser::parseDecl() {
  switch (tok.getKind()) {
  case TokenKind::kw_dim:
    return parseDim();
  case TokenKind::kw_state:
    return parseState();
  case TokenKind::kw_param:
    return parseParam();
  case TokenKind::kw_vertex:
    return parseVertex();
  case TokenKind::kw_model:
    diag.error(tok.getLoc(), "'model' may only appear once, at the start of "
                             "the file");
    break;
  default:
    diag.error(tok.getLoc(), "expected 'dim', 'state', 'param' or 'vertex'");
    break;
  }
  // Make progress before resynchronising on the next declaration keyword.
  consume();
  return nullptr;
}

DeclPtr Parser::parseDim() {
  llvm::SMLoc loc = tok.getLoc();
  consume();
  llvm::StringRef name;
  llvm::SMLoc nameLoc;
  if (!expectIdentifier("dim name", name, nameLoc) ||
      !expect(TokenKind::equal, "after dim name"))
    return nullptr;
  ExprPtr value = parseExpr();
  if (!value || !expect(TokenKind::semi, "after dim declaration"))
    return nullptr;
  return std::make_unique<DimDecl>(loc, name, nameLoc, std::move(value));
}

DeclPtr Parser::parseState() {
  llvm::SMLoc loc = tok.getLoc();
  consume();
  std::optional<TypeSpec> type = parseType();
  if (!type || !expect(TokenKind::semi, "after state declaration"))
    return nullptr;
  return std::make_unique<StateDecl>(loc, std::move(*type));
}

DeclPtr Parser::parseParam() {
  llvm::SMLoc loc = tok.getLoc();
  consume();
  llvm::StringRef name;
  llvm::SMLoc nameLoc;
  if (!expectIdentifier("parameter name", name, nameLoc) ||
      !expect(TokenKind::colon, "after parameter name"))
    return nullptr;
  std::optional<TypeSpec> type = parseType();
  if (!type || !expect(TokenKind::equal, "before parameter initializer"))
    return nullptr;

  InitKind init;
  switch (tok.getKind()) {
#define CAVS_INIT_KIND(keyword, NAME, value, args)                             \
  case TokenKind::kw_##keyword:                                                \
    init = InitKind::keyword;                                                  \
    break;
#include "cavs/init_kinds.def"
  default:
    diag.error(tok.getLoc(), "expected initializer ('zeros', 'ones', "
                             "'xavier', 'constant', 'uniform' or 'normal')");
    return nullptr;
  }
  llvm::SMLoc initLoc = tok.getLoc();
  consume();

  llvm::SmallVector<ExprPtr, 2> args;
  if (tok.is(TokenKind::l_paren)) {
    llvm::SMLoc openLoc = tok.getLoc();
    consume();
    if (tok.isNot(TokenKind::r_paren)) {
      do {
        ExprPtr arg = parseInitArg();
        if (!arg)
          return nullptr;
        args.push_back(std::move(arg));
      } while (consumeIf(TokenKind::comma));
    }
    if (!expectClosing(TokenKind::r_paren, openLoc))
      return nullptr;
  }
  if (!expect(TokenKind::semi, "after parameter declaration"))
    return nullptr;
  return std::make_unique<ParamDecl>(loc, name, nameLoc, std::move(*type), init,
                                     initLoc, std::move(args));
}

/// An initializer argument is a literal, optionally negated.
ExprPtr Parser::parseInitArg() {
  llvm::SMLoc minusLoc = tok.getLoc();
  bool negate = consumeIf(TokenKind::minus);
  if (tok.isNot(TokenKind::integer) && tok.isNot(TokenKind::floating)) {
    diag.error(tok.getLoc(), "expected a number");
    return nullptr;
  }
  ExprPtr number = parseNumber();
  if (!number || !negate)
    return number;
  return std::make_unique<NegExpr>(minusLoc, std::move(number));
}

DeclPtr Parser::parseVertex() {
  llvm::SMLoc loc = tok.getLoc();
  consume();
  llvm::StringRef name;
  llvm::SMLoc nameLoc;
  if (!expectIdentifier("vertex function name", name, nameLoc))
    return nullptr;
  llvm::SMLoc openLoc = tok.getLoc();
  if (!expect(TokenKind::l_paren, "after vertex function name") ||
      !expect(TokenKind::kw_arity, "") ||
      !expect(TokenKind::equal, "after 'arity'"))
    return nullptr;
  ExprPtr arity = parseExpr();
  if (!arity || !expectClosing(TokenKind::r_paren, openLoc))
    return nullptr;
  std::vector<StmtPtr> body;
  if (!parseBlock(body))
    return nullptr;
  return std::make_unique<VertexDecl>(loc, name, nameLoc, std::move(arity),
                                      std::move(body));
}

std::optional<TypeSpec> Parser::parseType() {
  TypeSpec type;
  type.loc = tok.getLoc();
  if (consumeIf(TokenKind::kw_i32)) {
    type.isI32 = true;
    return type;
  }
  if (!consumeIf(TokenKind::kw_f32)) {
    diag.error(tok.getLoc(), "expected type ('f32[...]' or 'i32')");
    return std::nullopt;
  }
  llvm::SMLoc openLoc = tok.getLoc();
  if (!expect(TokenKind::l_square, "after 'f32'"))
    return std::nullopt;
  if (tok.isNot(TokenKind::r_square)) {
    do {
      ExprPtr dim = parseExpr();
      if (!dim)
        return std::nullopt;
      type.dims.push_back(std::move(dim));
    } while (consumeIf(TokenKind::comma));
  }
  if (!expectClosing(TokenKind::r_square, openLoc))
    return std::nullopt;
  return type;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

bool Parser::parseBlock(std::vector<StmtPtr> &body) {
  llvm::SMLoc openLoc = tok.getLoc();
  if (!expect(TokenKind::l_brace, ""))
    return false;
  NestingScope nesting(*this);
  if (!nesting.check(openLoc))
    return false;
  while (tok.isNot(TokenKind::r_brace) && tok.isNot(TokenKind::eof) &&
         (!startsDeclaration(tok.getKind()) || keywordNamesAValue())) {
    if (StmtPtr stmt = parseStmt())
      body.push_back(std::move(stmt));
    else
      skipStatement();
  }
  return expectClosing(TokenKind::r_brace, openLoc);
}

StmtPtr Parser::parseStmt() {
  if (keywordNamesAValue())
    return parseAssign();
  switch (tok.getKind()) {
  case TokenKind::identifier:
    return parseAssign();
  case TokenKind::kw_for:
    return parseFor();
  case TokenKind::kw_scatter:
    return parseScatter();
  case TokenKind::kw_push:
    return parsePush();
  case TokenKind::kw_loss:
    return parseLoss();
  default:
    diag.error(tok.getLoc(), "expected statement");
    return nullptr;
  }
}

StmtPtr Parser::parseAssign() {
  llvm::SMLoc loc = tok.getLoc();
  llvm::SmallVector<AssignTarget, 1> targets;
  do {
    AssignTarget target;
    if (!expectIdentifier("name", target.name, target.loc))
      return nullptr;
    llvm::SMLoc openLoc = tok.getLoc();
    if (consumeIf(TokenKind::l_square)) {
      target.index = parseExpr();
      if (!target.index || !expectClosing(TokenKind::r_square, openLoc))
        return nullptr;
    }
    targets.push_back(std::move(target));
  } while (consumeIf(TokenKind::comma));
  if (!expect(TokenKind::equal, "in assignment"))
    return nullptr;
  ExprPtr value = parseExpr();
  if (!value || !expect(TokenKind::semi, "after assignment"))
    return nullptr;
  return std::make_unique<AssignStmt>(loc, std::move(targets),
                                      std::move(value));
}

StmtPtr Parser::parseFor() {
  llvm::SMLoc loc = tok.getLoc();
  consume();
  llvm::StringRef var;
  llvm::SMLoc varLoc;
  if (!expectIdentifier("loop variable name", var, varLoc) ||
      !expect(TokenKind::kw_in, "after loop variable"))
    return nullptr;
  ExprPtr begin = parseExpr();
  if (!begin || !expect(TokenKind::dotdot, "in loop range"))
    return nullptr;
  ExprPtr end = parseExpr();
  if (!end)
    return nullptr;
  std::vector<StmtPtr> body;
  if (!parseBlock(body))
    return nullptr;
  return std::make_unique<ForStmt>(loc, var, varLoc, std::move(begin),
                                   std::move(end), std::move(body));
}

StmtPtr Parser::parseScatter() {
  llvm::SMLoc loc = tok.getLoc();
  consume();
  llvm::SMLoc openLoc = tok.getLoc();
  if (!expect(TokenKind::l_paren, "after 'scatter'"))
    return nullptr;
  ExprPtr value = parseExpr();
  if (!value || !expectClosing(TokenKind::r_paren, openLoc) ||
      !expect(TokenKind::semi, "after 'scatter'"))
    return nullptr;
  return std::make_unique<ScatterStmt>(loc, std::move(value));
}

StmtPtr Parser::parsePush() {
  llvm::SMLoc loc = tok.getLoc();
  consume();
  llvm::SMLoc openLoc = tok.getLoc();
  llvm::StringRef name;
  llvm::SMLoc nameLoc;
  if (!expect(TokenKind::l_paren, "after 'push'"))
    return nullptr;
  // `push(gather(0))`: a keyword that starts an expression is no name; the
  // statement is skipped after one error rather than parsed on from it.
  const char next = lexer.peekChar();
  if (isKeyword(tok.getKind()) && next != '=' && next != ')') {
    diag.error(tok.getLoc(), "expected push name, found the keyword " +
                                 describeTokenKind(tok.getKind()) +
                                 ": push(NAME) or push(NAME = VALUE)");
    return nullptr;
  }
  if (!expectIdentifier("push name", name, nameLoc))
    return nullptr;
  ExprPtr value;
  if (consumeIf(TokenKind::equal)) {
    if (!(value = parseExpr()))
      return nullptr;
  } else if (tok.isNot(TokenKind::r_paren)) {
    diag.error(tok.getLoc(), "expected '=' or ')' after push name");
    return nullptr;
  }
  if (!expectClosing(TokenKind::r_paren, openLoc) ||
      !expect(TokenKind::semi, "after 'push'"))
    return nullptr;
  return std::make_unique<PushStmt>(loc, name, nameLoc, std::move(value));
}

StmtPtr Parser::parseLoss() {
  llvm::SMLoc loc = tok.getLoc();
  consume();
  ExprPtr value = parseExpr();
  if (!value || !expect(TokenKind::semi, "after 'loss'"))
    return nullptr;
  return std::make_unique<LossStmt>(loc, std::move(value));
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

ExprPtr Parser::limitHeight(ExprPtr expr) {
  if (expr->getHeight() <= kMaxChainOperators + 1)
    return expr;
  diag.error(expr->getLoc(), "expression is too long: more than " +
                                 llvm::Twine(kMaxChainOperators) +
                                 " operators in a chain");
  return nullptr;
}

ExprPtr Parser::parseExpr(llvm::SMLoc openLoc) {
  NestingScope nesting(*this);
  if (!nesting.check(openLoc.isValid() ? openLoc : tok.getLoc()))
    return nullptr;
  return parseAdditive();
}

ExprPtr Parser::parseAdditive() {
  ExprPtr lhs = parseMultiplicative();
  while (lhs && (tok.is(TokenKind::plus) || tok.is(TokenKind::minus))) {
    BinaryOp op = tok.is(TokenKind::plus) ? BinaryOp::Add : BinaryOp::Sub;
    llvm::SMLoc loc = tok.getLoc();
    consume();
    ExprPtr rhs = parseMultiplicative();
    if (!rhs)
      return nullptr;
    lhs = limitHeight(
        std::make_unique<BinaryExpr>(loc, op, std::move(lhs), std::move(rhs)));
  }
  return lhs;
}

/// `*`, `/` and `@` share one level and associate left, as in Python.
ExprPtr Parser::parseMultiplicative() {
  ExprPtr lhs = parseUnary();
  while (lhs) {
    BinaryOp op;
    if (tok.is(TokenKind::star))
      op = BinaryOp::Mul;
    else if (tok.is(TokenKind::slash))
      op = BinaryOp::Div;
    else if (tok.is(TokenKind::at))
      op = BinaryOp::MatMul;
    else
      break;
    llvm::SMLoc loc = tok.getLoc();
    consume();
    ExprPtr rhs = parseUnary();
    if (!rhs)
      return nullptr;
    lhs = limitHeight(
        std::make_unique<BinaryExpr>(loc, op, std::move(lhs), std::move(rhs)));
  }
  return lhs;
}

ExprPtr Parser::parseUnary() {
  if (tok.isNot(TokenKind::minus))
    return parsePostfix();
  llvm::SMLoc loc = tok.getLoc();
  NestingScope nesting(*this);
  if (!nesting.check(loc))
    return nullptr;
  consume();
  ExprPtr operand = parseUnary();
  if (!operand)
    return nullptr;
  return limitHeight(std::make_unique<NegExpr>(loc, std::move(operand)));
}

ExprPtr Parser::parsePostfix() {
  ExprPtr base = parsePrimary();
  while (base && tok.is(TokenKind::l_square)) {
    llvm::SMLoc openLoc = tok.getLoc();
    consume();
    ExprPtr index = parseExpr();
    if (!index || !expectClosing(TokenKind::r_square, openLoc))
      return nullptr;
    base = limitHeight(std::make_unique<IndexExpr>(openLoc, std::move(base),
                                                   std::move(index)));
  }
  return base;
}

ExprPtr Parser::parsePrimary() {
  llvm::SMLoc loc = tok.getLoc();
  // A keyword already reported where it was taken as a name (`loss =
  // ...`) is that name again, not a second mistake; `gather(k)` and
  // `pull f32[...]` keep their own syntax.
  if (isKeyword(tok.getKind()) && keywordsAsNames.count(tok.getSpelling())) {
    const char next = lexer.peekChar();
    const bool ownSyntax =
        (tok.is(TokenKind::kw_gather) && next == '(') ||
        (tok.is(TokenKind::kw_pull) && (next == 'f' || next == 'i'));
    if (!ownSyntax) {
      llvm::StringRef name = tok.getSpelling();
      consume();
      return std::make_unique<NameExpr>(loc, name);
    }
  }
  switch (tok.getKind()) {
  case TokenKind::integer:
  case TokenKind::floating:
    return parseNumber();
  case TokenKind::identifier: {
    llvm::StringRef name = tok.getSpelling();
    consume();
    if (tok.is(TokenKind::l_paren))
      return parseCall(name, loc);
    return std::make_unique<NameExpr>(loc, name);
  }
  case TokenKind::kw_arity:
    consume();
    return std::make_unique<NameExpr>(loc, "arity");
  case TokenKind::l_paren: {
    consume();
    ExprPtr inner = parseExpr(loc);
    if (!inner || !expectClosing(TokenKind::r_paren, loc))
      return nullptr;
    return inner;
  }
  case TokenKind::kw_pull: {
    consume();
    std::optional<TypeSpec> type = parseType();
    if (!type)
      return nullptr;
    return limitHeight(std::make_unique<PullExpr>(loc, std::move(*type)));
  }
  case TokenKind::kw_gather: {
    consume();
    llvm::SMLoc openLoc = tok.getLoc();
    if (!expect(TokenKind::l_paren, "after 'gather'"))
      return nullptr;
    ExprPtr index = parseExpr();
    if (!index || !expectClosing(TokenKind::r_paren, openLoc))
      return nullptr;
    return limitHeight(std::make_unique<GatherExpr>(loc, std::move(index)));
  }
  default:
    diag.error(loc, "expected expression");
    return nullptr;
  }
}

/// Parses the argument list of a call; the current token is the '('.
ExprPtr Parser::parseCall(llvm::StringRef callee, llvm::SMLoc loc) {
  llvm::SMLoc openLoc = tok.getLoc();
  consume();
  llvm::SmallVector<ExprPtr, 3> args;
  if (tok.isNot(TokenKind::r_paren)) {
    do {
      ExprPtr arg = parseExpr(openLoc);
      if (!arg)
        return nullptr;
      args.push_back(std::move(arg));
    } while (consumeIf(TokenKind::comma));
  }
  if (!expectClosing(TokenKind::r_paren, openLoc))
    return nullptr;
  return limitHeight(std::make_unique<CallExpr>(loc, callee, std::move(args)));
}

ExprPtr Parser::parseNumber() {
  llvm::SMLoc loc = tok.getLoc();
  llvm::StringRef spelling = tok.getSpelling();
  bool isInteger = tok.is(TokenKind::integer);
  consume();
  if (spelling.size() > kMaxLiteralLength) {
    diag.error(loc, "numeric literal is longer than " +
                        llvm::Twine(kMaxLiteralLength) + " characters");
    return nullptr;
  }
  if (isInteger) {
    int64_t value;
    if (spelling.getAsInteger(10, value)) {
      diag.error(loc, "integer literal '" + spelling + "' is too large");
      return nullptr;
    }
    return std::make_unique<NumberExpr>(loc, spelling, true, value,
                                        static_cast<float>(value));
  }
  llvm::APFloat value(llvm::APFloat::IEEEsingle());
  llvm::Expected<llvm::APFloat::opStatus> status =
      value.convertFromString(spelling, llvm::APFloat::rmNearestTiesToEven);
  if (!status) {
    // The lexer only forms valid literals; treat a failure as out of range.
    llvm::consumeError(status.takeError());
    diag.error(loc, "floating-point literal '" + spelling +
                        "' is out of range for f32");
    return nullptr;
  }
  if (*status & llvm::APFloat::opOverflow) {
    diag.error(loc, "floating-point literal '" + spelling +
                        "' is out of range for f32");
    return nullptr;
  }
  return std::make_unique<NumberExpr>(loc, spelling, false, 0,
                                      value.convertToFloat());
}

//===----------------------------------------------------------------------===//
// Error recovery
//===----------------------------------------------------------------------===//

void Parser::skipStatement() {
  unsigned braces = 0;
  while (tok.isNot(TokenKind::eof) && !startsDeclaration(tok.getKind())) {
    switch (tok.getKind()) {
    case TokenKind::semi:
      if (braces == 0) {
        consume();
        return;
      }
      break;
    case TokenKind::l_brace:
      ++braces;
      break;
    case TokenKind::r_brace:
      if (braces == 0)
        return;
      if (--braces == 0) {
        consume();
        return;
      }
      break;
    default:
      break;
    }
    consume();
  }
}

void Parser::skipToDeclaration() {
  while (tok.isNot(TokenKind::eof) && !startsDeclaration(tok.getKind()))
    consume();
}
