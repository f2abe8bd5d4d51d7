//===- Deadline.h - a point in time some seconds from now -----------------===//
//
// The distributed trainer polls its collectives against a deadline of
// cavs_dist_options::timeout_seconds, which may be any positive number: a
// huge one means "wait as long as it takes", where converting it to clock
// ticks overflowed and made every wait fail at once.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_SUPPORT_DEADLINE_H
#define CAVS_RUNTIME_SUPPORT_DEADLINE_H

#include <chrono>

namespace cavs::runtime {

/// The steady-clock time `seconds` (> 0) from now, or the clock's last
/// time point when that lies beyond it.
inline std::chrono::steady_clock::time_point deadlineAfter(double seconds) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point now = Clock::now();
  const std::chrono::duration<double> left = Clock::time_point::max() - now;
  if (seconds >= left.count())
    return Clock::time_point::max();
  return now + std::chrono::duration_cast<Clock::duration>(
                   std::chrono::duration<double>(seconds));
}

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_SUPPORT_DEADLINE_H
