//===- Progress.h - progress of a training pass on stderr -------*- C++ -*-===//
//
// On a terminal: a bar redrawn in place at most ten times a second and
// erased by finish(). Elsewhere (nohup, CI, a pipe), where redrawing would
// fill the log with carriage returns, a plain line every few seconds, each
// flushed at once, so that a log shows a long epoch advancing.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_EXAMPLES_PROGRESS_H
#define CAVS_EXAMPLES_PROGRESS_H

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace cavs_examples {

class ProgressBar {
public:
  /// Progress of `total` units on stderr, a bar or, when stderr is not a
  /// terminal, a line every `lineSeconds`; nothing when that is 0.
  ProgressBar(std::string label, int64_t total, double lineSeconds);
  /// The same on `out`, drawn as on a terminal when `terminal` says so.
  ProgressBar(std::string label, int64_t total, double lineSeconds,
              std::FILE *out, bool terminal);
  ~ProgressBar() { finish(); }
  ProgressBar(const ProgressBar &) = delete;
  ProgressBar &operator=(const ProgressBar &) = delete;

  /// `done` of `total` units finished; `status` is shown after the figures.
  void update(int64_t done, const std::string &status = {});
  /// Erases the bar.
  void finish();

private:
  using Clock = std::chrono::steady_clock;

  std::string label_;
  int64_t total_;
  std::FILE *out_;
  bool terminal_;
  /// Between redraws of the bar or plain lines; zero: disabled.
  Clock::duration interval_;
  bool drawn_ = false;
  Clock::time_point start_, lastDraw_;
};

} // namespace cavs_examples

#endif // CAVS_EXAMPLES_PROGRESS_H
