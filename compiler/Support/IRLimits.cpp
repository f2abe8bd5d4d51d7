//===- IRLimits.cpp - limits checked on MLIR text before parsing ----------===//
//
// A single pass over the bytes. What is not code: "..." strings (with
// backslash escapes, ended by a newline as in MLIR's lexer) and // comments.
// The "->" of function types and affine maps is not a closing '>'. Names
// (bare or after a sigil: %v, ^bb, #a, !t, @f) are skipped whole, so their
// digits are not taken for numbers.
//
//===----------------------------------------------------------------------===//
#include "compiler/Support/IRLimits.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

/// Longer source lines are not quoted under the diagnostic.
static constexpr size_t kMaxQuotedLine = 200;

static bool isNameStart(char c) {
  return isAlpha(c) || c == '_' || c == '%' || c == '^' || c == '#' ||
         c == '!' || c == '@' || c == '$';
}

static bool isNameChar(char c) {
  return isAlnum(c) || c == '_' || c == '$' || c == '.' || c == '-';
}

cavs::IRLimitViolation cavs::findIRLimitViolation(StringRef text,
                                                  unsigned maxDepth,
                                                  size_t maxLiteral) {
  // The closers still expected; a closer that does not match the innermost
  // opener is skipped (the parser stops there anyway), so the depth seen
  // here is never smaller than the parser's.
  SmallVector<char, 64> expected;
  // The '-' in a row so far: in an affine expression each nests a negation,
  // and MLIR's parser reports a bad one once per level, quoting the line.
  unsigned negations = 0;
  const char *p = text.begin(), *end = text.end();
  while (p != end) {
    const char *start = p;
    char c = *p++;
    if (c == '-' && !(p != end && *p == '>')) {
      if (++negations > maxDepth)
        return {start, ("more than " + Twine(maxDepth) +
                        " '-' in a row (each nests a negation)")
                           .str()};
      continue;
    }
    if (!isSpace(c))
      negations = 0;
    if (isNameStart(c)) {
      // A '-' may continue a sigil's name (%a-1) but not start "->".
      while (p != end && isNameChar(*p) &&
             !(*p == '-' && p + 1 != end && p[1] == '>'))
        ++p;
      continue;
    }
    if (isDigit(c)) {
      bool hex = c == '0' && p != end && *p == 'x';
      if (hex)
        ++p;
      while (p != end && (hex ? isHexDigit(*p) : isDigit(*p)))
        ++p;
      if (size_t(p - start) > maxLiteral)
        return {start, ("numeric literal longer than the limit of " +
                        Twine(maxLiteral) + " characters")
                           .str()};
      continue;
    }
    switch (c) {
    case '\0':
      // MLIR's lexer skips one as if it were a blank.
      return {start, "a NUL byte in the IR text"};
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
    case '-': // "->"; a lone '-' was counted above
      ++p;
      break;
    case '(':
    case '[':
    case '{':
    case '<':
      if (expected.size() >= maxDepth)
        return {
            start,
            ("nesting depth exceeds the limit of " + Twine(maxDepth)).str()};
      expected.push_back(c == '('   ? ')'
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
  return {};
}

LogicalResult cavs::checkIRLimits(SourceMgr &sourceMgr) {
  const MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  IRLimitViolation violation = findIRLimitViolation(buffer->getBuffer());
  if (!violation.where)
    return success();
  SMLoc loc = SMLoc::getFromPointer(violation.where);
  SMDiagnostic diag =
      sourceMgr.GetMessage(loc, SourceMgr::DK_Error, violation.message);
  // Deep nesting and long literals usually sit on one huge line; quoting it
  // (and a caret line as wide) would bury the message, so then only the
  // position is given.
  if (diag.getLineContents().size() > kMaxQuotedLine)
    diag = SMDiagnostic((buffer->getBufferIdentifier() + ":" +
                         Twine(diag.getLineNo()) + ":" +
                         Twine(diag.getColumnNo() + 1))
                            .str(),
                        SourceMgr::DK_Error, violation.message);
  sourceMgr.PrintMessage(errs(), diag);
  return failure();
}
