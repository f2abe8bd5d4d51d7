//===- Diagnostics.cpp - error reporting for the .cavs frontend -----------===//
//
// Implements DiagEngine: error limit, de-duplication and printing through the
// SourceMgr in the usual `file:line:col: error: message` + caret form. User
// text is clipped in both parts: a quoted name longer than kMaxQuoted bytes
// and a source line longer than kMaxLine (a 1 MB line, a 50 MB token) show
// an excerpt with a marker, not the whole. A source line's control
// characters and bytes that are no UTF-8 show as '?', so that a file of
// binary garbage cannot send escape sequences to the terminal.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/Diagnostics.h"

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
    if (quoted.size() > kMaxQuoted)
      clipped += (quoted.take_front(kMaxQuoted) + "…(+" +
                  llvm::Twine(quoted.size() - kMaxQuoted) + " bytes)")
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

/// `line` with each control character (but tab) and each byte that starts
/// no valid UTF-8 sequence replaced by '?': byte for byte, so columns stay.
static std::string printable(llvm::StringRef line) {
  std::string shown = line.str();
  for (size_t i = 0; i < shown.size();) {
    const auto byte = static_cast<unsigned char>(shown[i]);
    if (byte < 0x80) {
      if ((byte < 0x20 && byte != '\t') || byte == 0x7f)
        shown[i] = '?';
      ++i;
      continue;
    }
    const auto *bytes = reinterpret_cast<const llvm::UTF8 *>(shown.data() + i);
    const unsigned length = llvm::getNumBytesForUTF8(byte);
    if (i + length <= shown.size() &&
        llvm::isLegalUTF8Sequence(bytes, bytes + length)) {
      i += length;
      continue;
    }
    shown[i++] = '?';
  }
  return shown;
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
      llvm::SMDiagnostic(progName, kind, clipQuotes(printable(message.str()))));
}

void cavs::printDiagnostic(llvm::SourceMgr &sourceMgr, llvm::SMLoc loc,
                           llvm::SourceMgr::DiagKind kind,
                           llvm::StringRef message) {
  std::string text = clipQuotes(message);
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
  const std::string shown = printable(lineText.slice(begin, end));
  // SourceMgr prints no caret under a line with non-ASCII characters, so
  // those lines take the path below too.
  if (!longLine && shown == lineText && llvm::isASCII(lineText)) {
    sourceMgr.PrintMessage(loc, kind, text);
    return;
  }
  // The location goes into the prefix as SourceMgr would print it.
  std::string excerpt = (begin > 0 ? "..." : "") + shown +
                        (end < lineText.size() ? "..." : "");
  // Under the excerpt up to the caret: a tab for a tab (so that both
  // expand alike), a space for every other character, one per UTF-8
  // sequence rather than per byte.
  std::string underline;
  for (char c : llvm::StringRef(excerpt).take_front(caret - begin +
                                                    (begin > 0 ? 3 : 0)))
    if ((static_cast<unsigned char>(c) & 0xc0) != 0x80)
      underline += c == '\t' ? '\t' : ' ';
  std::string where =
      (sourceMgr.getMemoryBuffer(buffer)->getBufferIdentifier() + ":" +
       llvm::Twine(line) + ":" + llvm::Twine(column))
          .str();
  sourceMgr.PrintMessage(
      llvm::errs(),
      llvm::SMDiagnostic(where, kind,
                         text + "\n" + excerpt + "\n" + underline + "^"));
}
