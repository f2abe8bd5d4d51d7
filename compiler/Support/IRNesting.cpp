//===- IRNesting.cpp - a bound on the nesting depth of MLIR text ----------===//
//
// A single pass over the bytes with MLIR's lexical rules for what is not
// code: "..." strings (with \ escapes, ended by a newline as in MLIR's
// lexer) and // comments. The "->" of function types and affine maps is not
// a closing '>'.
//
//===----------------------------------------------------------------------===//
#include "compiler/Support/IRNesting.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

/// Longer source lines are not quoted under the diagnostic.
static constexpr size_t kMaxQuotedLine = 200;

const char *cavs::findTooDeepNesting(StringRef text, unsigned limit) {
  // The closers still expected; a closer that does not match the innermost
  // opener is skipped (the parser stops there anyway), so the depth seen
  // here is never smaller than the parser's.
  SmallVector<char, 64> expected;
  const char *p = text.begin(), *end = text.end();
  while (p != end) {
    char c = *p++;
    switch (c) {
    case '"':
      while (p != end && *p != '"' && *p != '\n')
        p += (*p == '\\' && p + 1 != end) ? 2 : 1;
      if (p != end && *p == '"')
        ++p;
      break;
    case '/':
      if (p != end && *p == '/')
        while (p != end && *p != '\n')
          ++p;
      break;
    case '-':
      if (p != end && *p == '>')
        ++p;
      break;
    case '(':
    case '[':
    case '{':
    case '<':
      if (expected.size() >= limit)
        return p - 1;
      expected.push_back(c == '(' ? ')'
                         : c == '[' ? ']'
                         : c == '{' ? '}'
                                    : '>');
      break;
    case ')':
    case ']':
    case '}':
    case '>':
      if (!expected.empty() && expected.back() == c)
        expected.pop_back();
      break;
    default:
      break;
    }
  }
  return nullptr;
}

LogicalResult cavs::checkIRNesting(SourceMgr &sourceMgr, unsigned limit) {
  unsigned mainId = sourceMgr.getMainFileID();
  const MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(mainId);
  const char *tooDeep = findTooDeepNesting(buffer->getBuffer(), limit);
  if (!tooDeep)
    return success();
  std::string message =
      ("nesting depth exceeds the limit of " + Twine(limit)).str();
  SMLoc loc = SMLoc::getFromPointer(tooDeep);
  SMDiagnostic diag = sourceMgr.GetMessage(loc, SourceMgr::DK_Error, message);
  // Deep nesting usually sits on one huge line; quoting it (and a caret
  // line as wide) would bury the message, so then only the position is
  // given.
  if (diag.getLineContents().size() > kMaxQuotedLine)
    diag = SMDiagnostic((buffer->getBufferIdentifier() + ":" +
                         Twine(diag.getLineNo()) + ":" +
                         Twine(diag.getColumnNo() + 1))
                            .str(),
                        SourceMgr::DK_Error, message);
  sourceMgr.PrintMessage(errs(), diag);
  return failure();
}
