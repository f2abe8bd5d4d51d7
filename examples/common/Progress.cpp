//===- Progress.cpp - a progress bar on stderr ----------------------------===//
#include "Progress.h"

#include <cstdio>
#include <unistd.h>
#include <utility>

namespace cavs_examples {

ProgressBar::ProgressBar(std::string label, int64_t total)
    : label_(std::move(label)), total_(total > 0 ? total : 1),
      enabled_(isatty(STDERR_FILENO) != 0),
      start_(std::chrono::steady_clock::now()), lastDraw_() {}

void ProgressBar::update(int64_t done, const std::string &status) {
  if (!enabled_)
    return;
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && done < total_ &&
      now - lastDraw_ < std::chrono::milliseconds(100))
    return;
  lastDraw_ = now;
  drawn_ = true;
  constexpr int kWidth = 30;
  const double fraction = double(done) / double(total_);
  const int filled = int(fraction * kWidth + 0.5);
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double eta =
      done > 0 ? elapsed * double(total_ - done) / double(done) : 0;
  std::string bar(size_t(filled), '#');
  bar.resize(kWidth, '.');
  std::fprintf(stderr, "\r\033[K%s [%s] %3.0f%%  %.0f s, eta %.0f s  %s",
               label_.c_str(), bar.c_str(), 100 * fraction, elapsed, eta,
               status.c_str());
  std::fflush(stderr);
}

void ProgressBar::finish() {
  if (enabled_ && drawn_) {
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
  }
  drawn_ = false;
}

} // namespace cavs_examples
