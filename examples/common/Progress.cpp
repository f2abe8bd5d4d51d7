//===- Progress.cpp - progress of a training pass on stderr ---------------===//
#include "Progress.h"

#include <algorithm>
#include <unistd.h>
#include <utility>

namespace cavs_examples {

namespace {
/// Longer than any run: a century.
constexpr double kMaxLineSeconds = 100.0 * 365 * 24 * 3600;
} // namespace

ProgressBar::ProgressBar(std::string label, int64_t total, double lineSeconds)
    : ProgressBar(std::move(label), total, lineSeconds, stderr,
                  isatty(STDERR_FILENO) != 0) {}

ProgressBar::ProgressBar(std::string label, int64_t total, double lineSeconds,
                         std::FILE *out, bool terminal)
    : label_(std::move(label)), total_(total > 0 ? total : 1), out_(out),
      terminal_(terminal), start_(Clock::now()), lastDraw_(start_) {
  if (lineSeconds <= 0)
    interval_ = Clock::duration::zero();
  else if (terminal)
    interval_ = std::chrono::milliseconds(100);
  else
    // Clock::duration counts nanoseconds in an int64: a longer interval
    // (about 292 years) would overflow into a negative one, due at once,
    // and one under a tick would round to zero, which means no progress.
    interval_ = std::max(Clock::duration(1),
                         std::chrono::duration_cast<Clock::duration>(
                             std::chrono::duration<double>(
                                 std::min(lineSeconds, kMaxLineSeconds))));
}

void ProgressBar::update(int64_t done, const std::string &status) {
  if (interval_ == Clock::duration::zero())
    return;
  const auto now = Clock::now();
  // The bar shows its first state and its last at once; a plain line only
  // comes once an interval has passed (the app's epoch line ends a pass).
  const bool due = now - lastDraw_ >= interval_ ||
                   (terminal_ && (!drawn_ || done >= total_));
  if (!due)
    return;
  lastDraw_ = now;
  drawn_ = true;
  const double fraction = double(done) / double(total_);
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double eta =
      done > 0 ? elapsed * double(total_ - done) / double(done) : 0;
  if (terminal_) {
    constexpr int kWidth = 30;
    std::string bar(size_t(fraction * kWidth + 0.5), '#');
    bar.resize(kWidth, '.');
    std::fprintf(out_, "\r\033[K%s [%s] %3.0f%%  %.0f s, eta %.0f s  %s",
                 label_.c_str(), bar.c_str(), 100 * fraction, elapsed, eta,
                 status.c_str());
  } else {
    std::fprintf(out_, "%s: %lld/%lld (%.0f%%), %.1f s, eta %.0f s%s%s\n",
                 label_.c_str(), (long long)done, (long long)total_,
                 100 * fraction, elapsed, eta, status.empty() ? "" : ", ",
                 status.c_str());
  }
  std::fflush(out_);
}

void ProgressBar::finish() {
  if (terminal_ && drawn_) {
    std::fputs("\r\033[K", out_);
    std::fflush(out_);
  }
  drawn_ = false;
}

} // namespace cavs_examples
