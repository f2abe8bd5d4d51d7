//===- Progress.h - a progress bar on stderr --------------------*- C++ -*-===//
//
// Drawn only when stderr is a terminal (nothing at all otherwise, so logs
// and pipes stay clean), redrawn at most ten times a second, and erased by
// finish().
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_EXAMPLES_PROGRESS_H
#define CAVS_EXAMPLES_PROGRESS_H

#include <chrono>
#include <cstdint>
#include <string>

namespace cavs_examples {

class ProgressBar {
public:
  ProgressBar(std::string label, int64_t total);
  ~ProgressBar() { finish(); }
  ProgressBar(const ProgressBar &) = delete;
  ProgressBar &operator=(const ProgressBar &) = delete;

  /// `done` of `total` units finished; `status` is shown after the bar.
  void update(int64_t done, const std::string &status = {});
  /// Erases the bar.
  void finish();

private:
  std::string label_;
  int64_t total_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, lastDraw_;
};

} // namespace cavs_examples

#endif // CAVS_EXAMPLES_PROGRESS_H
