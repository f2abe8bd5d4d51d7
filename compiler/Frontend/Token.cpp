//===- Token.cpp - token kind names ---------------------------------------===//
//
// Spellings of token kinds for diagnostics such as "expected ';'".
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/Token.h"

#include "llvm/Support/ErrorHandling.h"

using namespace cavs;

std::string cavs::describeTokenKind(TokenKind kind) {
  switch (kind) {
  case TokenKind::eof:
    return "end of file";
  case TokenKind::identifier:
    return "identifier";
  case TokenKind::integer:
    return "integer literal";
  case TokenKind::floating:
    return "floating-point literal";
#define PUNCT(NAME, SPELLING)                                                  \
  case TokenKind::NAME:                                                        \
    return "'" SPELLING "'";
#define KEYWORD(SPELLING)                                                      \
  case TokenKind::kw_##SPELLING:                                               \
    return "'" #SPELLING "'";
#include "compiler/Frontend/TokenKinds.def"
  }
  llvm_unreachable("unknown token kind");
}

bool cavs::isKeyword(TokenKind kind) {
  switch (kind) {
#define KEYWORD(SPELLING) case TokenKind::kw_##SPELLING:
#include "compiler/Frontend/TokenKinds.def"
    return true;
  default:
    return false;
  }
}

bool cavs::startsDeclaration(TokenKind kind) {
  switch (kind) {
  case TokenKind::kw_model:
  case TokenKind::kw_dim:
  case TokenKind::kw_state:
  case TokenKind::kw_param:
  case TokenKind::kw_vertex:
    return true;
  default:
    return false;
  }
}
