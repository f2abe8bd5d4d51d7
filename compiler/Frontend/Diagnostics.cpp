//===- Diagnostics.cpp - error reporting for the .cavs frontend -----------===//
//
// Implements DiagEngine: error limit, de-duplication and printing through the
// SourceMgr in the usual `file:line:col: error: message` + caret form. User
// text is clipped in both parts: a quoted name longer than kMaxQuoted bytes
// and a source line longer than kMaxLine (a 1 MB line, a 50 MB token) show
// an excerpt with a marker, not the whole, cut between UTF-8 sequences.
// Source lines, file names and command-line text go through printableText,
// so that a file of binary garbage cannot send escape sequences to the
// terminal; the caret counts the columns characters take there.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/Diagnostics.h"

#include "compiler/Support/PrintableText.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/raw_ostream.h"

using namespace cavs;

/// Bytes of a quoted name, and of source line around the caret, shown.
static constexpr size_t kMaxQuoted = 80, kMaxLine = 160;

/// `message` with every '...' quote longer than kMaxQuoted clipped.
static std::string clipQuotes(llvm::StringRef message) {
  std::string clipped;
  while (true) {
    size_t open = message.find('\'');
    size_t close =
        open == llvm::StringRef::npos ? open : message.find('\'', open + 1);
    if (close == llvm::StringRef::npos)
      return clipped + message.str();
    llvm::StringRef quoted = message.slice(open + 1, close);
    clipped += message.take_front(open + 1).str();
    llvm::StringRef shown = utf8Prefix(quoted, kMaxQuoted);
    if (shown.size() < quoted.size())
      clipped += (shown + "…(+" + llvm::Twine(quoted.size() - shown.size()) +
                  " bytes)")
                     .str();
    else
      clipped += quoted.str();
    clipped += '\'';
    message = message.drop_front(close + 1);
  }
}

DiagEngine::DiagEngine(llvm::SourceMgr &sourceMgr, llvm::StringRef progName,
                       unsigned errorLimit)
    : sourceMgr(sourceMgr), progName(progName.str()), errorLimit(errorLimit) {}

void DiagEngine::error(llvm::SMLoc loc, const llvm::Twine &message) {
  report(loc, message.str(), /*once=*/false);
}

void DiagEngine::errorOnce(llvm::SMLoc loc, const llvm::Twine &message) {
  report(loc, message.str(), /*once=*/true);
}

void DiagEngine::report(llvm::SMLoc loc, const std::string &text, bool once) {
  lastErrorDropped = true;
  if (stopped || followingLexError || (once && reportedTexts.count(text)))
    return;
  if (!(loc.isValid() ? reportedLocs.insert(loc.getPointer()).second
                      : reportedTexts.insert(text).second))
    return;
  if (once)
    reportedTexts.insert(text);
  if (numErrors == errorLimit) {
    stopped = true;
    print(llvm::SMLoc(), llvm::SourceMgr::DK_Note,
          "too many errors emitted, stopping now");
    return;
  }
  ++numErrors;
  lastErrorDropped = false;
  print(loc, llvm::SourceMgr::DK_Error, text);
}

void DiagEngine::note(llvm::SMLoc loc, const llvm::Twine &message) {
  if (!lastErrorDropped)
    print(loc, llvm::SourceMgr::DK_Note, message);
}

void DiagEngine::print(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
                       const llvm::Twine &message) {
  if (loc.isValid()) {
    printDiagnostic(sourceMgr, loc, kind, message.str());
    return;
  }
  // A location-less SMDiagnostic prints its "file name" as the prefix, which
  // gives the conventional `cavsc: error: ...` of command-line errors. They
  // quote command-line text (-D values), made printable like source lines.
  sourceMgr.PrintMessage(
      llvm::errs(),
      llvm::SMDiagnostic(progName, kind,
                         clipQuotes(printableText(message.str()))));
}

void cavs::printDiagnostic(llvm::SourceMgr &sourceMgr, llvm::SMLoc loc,
                           llvm::SourceMgr::DiagKind kind,
                           llvm::StringRef message) {
  std::string text = clipQuotes(printableText(message));
  unsigned buffer = sourceMgr.FindBufferContainingLoc(loc);
  auto [line, column] = sourceMgr.getLineAndColumn(loc, buffer);
  llvm::StringRef rest(loc.getPointer() - (column - 1),
                       sourceMgr.getMemoryBuffer(buffer)->getBufferEnd() -
                           loc.getPointer() + (column - 1));
  llvm::StringRef lineText = rest.take_until([](char c) {
    return c == '\n' || c == '\r';
  });
  // All of a short line, the caret's neighbourhood of a long one, with
  // "..." where the line goes on; only what is shown is made printable.
  const bool longLine = lineText.size() > kMaxLine;
  size_t caret = column - 1, context = kMaxLine / 2;
  size_t begin = longLine && caret > context ? caret - context : 0;
  size_t end =
      longLine ? std::min(lineText.size(), caret + context) : lineText.size();
  // Whole characters only: back off the continuation bytes a cut lands on.
  while (begin > 0 &&
         (static_cast<unsigned char>(lineText[begin]) & 0xc0) == 0x80)
    --begin;
  end = begin +
        utf8Prefix(lineText.slice(begin, lineText.size()), end - begin).size();
  const std::string shown = printableText(lineText.slice(begin, end));
  llvm::StringRef file =
      sourceMgr.getMemoryBuffer(buffer)->getBufferIdentifier();
  const std::string fileShown = printableText(file);
  // SourceMgr prints no caret under a line with non-ASCII characters, so
  // those lines take the path below too.
  if (!longLine && shown == lineText && llvm::isASCII(lineText) &&
      fileShown == file) {
    sourceMgr.PrintMessage(loc, kind, text);
    return;
  }
  // The location goes into the prefix as SourceMgr would print it.
  std::string excerpt = (begin > 0 ? "..." : "") + shown +
                        (end < lineText.size() ? "..." : "");
  // Under the excerpt up to the caret: a tab for a tab (so that both
  // expand alike), and for every other character as many spaces as the
  // columns it takes (two for a wide one, none for a combining mark).
  std::string underline;
  llvm::StringRef before =
      llvm::StringRef(excerpt).take_front(caret - begin + (begin > 0 ? 3 : 0));
  while (!before.empty()) {
    const unsigned length = std::max<unsigned>(
        1, llvm::getNumBytesForUTF8(static_cast<unsigned char>(before[0])));
    llvm::StringRef character = before.take_front(length);
    underline += character == "\t" ? std::string("\t")
                                   : std::string(displayWidth(character), ' ');
    before = before.drop_front(character.size());
  }
  std::string where =
      (fileShown + ":" + llvm::Twine(line) + ":" + llvm::Twine(column)).str();
  sourceMgr.PrintMessage(
      llvm::errs(),
      llvm::SMDiagnostic(where, kind,
                         text + "\n" + excerpt + "\n" + underline + "^"));
}
