//===- Stopwatch.h - wall-clock timing of the executor's phases -----------===//
//
// The executor reports the time of every phase (cavs_model_timing); a
// Stopwatch measures one with the monotonic std::chrono::steady_clock.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_EXEC_STOPWATCH_H
#define CAVS_RUNTIME_EXEC_STOPWATCH_H

#include <chrono>

namespace cavs::runtime {

/// Measures the time since its construction.
class Stopwatch {
public:
  /// Seconds elapsed since construction.
  double seconds() const {
    return std::chrono::duration<double>(Clock::now() - start_).count();
  }

private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point start_ = Clock::now();
};

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_EXEC_STOPWATCH_H
