//===- Diagnostics.h - error reporting for the .cavs frontend --*- C++ -*-===//
//
// Every frontend diagnostic goes through one DiagEngine so that the error
// limit, the suppression of repeated errors (loops are unrolled, so one bad
// statement would otherwise report once per iteration) and the pairing of
// notes with their error live in one place. Messages are printed through the
// llvm::SourceMgr, so a handler installed on it (a fuzzer, a test) sees them.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_COMPILER_FRONTEND_DIAGNOSTICS_H
#define CAVS_COMPILER_FRONTEND_DIAGNOSTICS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"

#include <set>
#include <string>

namespace cavs {

/// Prints `message` at `loc` (which must be valid) the way SourceMgr does,
/// `file:line:col: error: message` with the source line and a caret, but
/// with long user text clipped: a quoted name to 80 bytes, the source line to
/// 160 bytes around the caret, each with a marker.
void printDiagnostic(llvm::SourceMgr &sourceMgr, llvm::SMLoc loc,
                     llvm::SourceMgr::DiagKind kind, llvm::StringRef message);

/// Collects and prints the diagnostics of one frontend run.
class DiagEngine {
public:
  /// Errors after the first `errorLimit` are dropped and one note says so.
  /// `progName` prefixes diagnostics that have no source location.
  DiagEngine(llvm::SourceMgr &sourceMgr, llvm::StringRef progName,
             unsigned errorLimit = 20);

  /// Reports an error at `loc`, or a location-less one (`prog: error: ...`)
  /// when `loc` is invalid. An error at the location of an earlier one (or,
  /// without a location, with its text) is dropped together with its notes:
  /// a statement in an unrolled loop fails once, not once per iteration,
  /// and a token is not reported twice.
  void error(llvm::SMLoc loc, const llvm::Twine &message);

  /// Like error(), but also dropped when an earlier error had the same text:
  /// for mistakes that every later occurrence would repeat, such as a use
  /// of an undeclared name.
  void errorOnce(llvm::SMLoc loc, const llvm::Twine &message);

  /// Attaches a note to the error reported last; dropped with that error.
  void note(llvm::SMLoc loc, const llvm::Twine &message);

  /// While set, errors (and their notes) are dropped: the parser sets it
  /// while its current token is the first after a character the lexer
  /// reported and skipped, since "expected ';'" there only repeats it.
  void setFollowingLexError(bool following) { followingLexError = following; }

  /// True once any error was reported.
  bool hadError() const { return numErrors != 0; }
  /// The number of errors reported (printed) so far.
  unsigned getNumErrors() const { return numErrors; }

  /// True once the error limit was exceeded: callers should stop working.
  bool shouldStop() const { return stopped; }

  llvm::SourceMgr &getSourceMgr() const { return sourceMgr; }

private:
  /// error() and errorOnce().
  void report(llvm::SMLoc loc, const std::string &text, bool once);
  void print(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
             const llvm::Twine &message);

  llvm::SourceMgr &sourceMgr;
  std::string progName;
  unsigned errorLimit;
  unsigned numErrors = 0;
  bool stopped = false;
  bool lastErrorDropped = false;
  bool followingLexError = false;
  /// The locations of the errors reported, and the texts of those without
  /// a location or reported by errorOnce().
  std::set<const char *> reportedLocs;
  std::set<std::string> reportedTexts;
};

} // namespace cavs

#endif // CAVS_COMPILER_FRONTEND_DIAGNOSTICS_H
