//===- Random.h - reproducible randomness -----------------------*- C++ -*-===//
//
// Generated data sets, shuffles and per-vertex choices must be the same on
// every platform for a given seed, so nothing here uses the std::
// distributions (whose output differs between standard libraries): only
// std::mt19937_64, whose output the standard fixes, and splitmix64.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_EXAMPLES_RANDOM_H
#define CAVS_EXAMPLES_RANDOM_H

#include <cstdint>
#include <random>
#include <vector>

namespace cavs_examples {

/// The splitmix64 finaliser: a well-mixed hash of `x`.
inline uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

class Random {
public:
  explicit Random(uint64_t seed) : engine_(seed) {}
  /// Uniform in [lo, hi].
  int32_t uniform(int32_t lo, int32_t hi) {
    return lo + int32_t(engine_() % uint64_t(hi - lo + 1));
  }
  /// True with probability percent / 100.
  bool percent(int32_t percent) { return uniform(0, 99) < percent; }

private:
  std::mt19937_64 engine_;
};

/// The sample order of successive epochs: a seeded Fisher-Yates shuffle of
/// 0..n-1, reshuffled (not restarted) every epoch.
class Shuffler {
public:
  Shuffler(int32_t n, uint64_t seed) : order_(size_t(n)), state_(seed) {
    for (int32_t i = 0; i < n; ++i)
      order_[size_t(i)] = i;
  }
  const std::vector<int32_t> &next() {
    for (size_t i = order_.size(); i > 1; --i) {
      std::swap(order_[i - 1], order_[size_t(splitmix64(state_) % i)]);
      state_ += 0x9e3779b97f4a7c15ull; // the splitmix64 sequence
    }
    return order_;
  }
  /// The splitmix64 counter: where the next shuffle starts.
  uint64_t state() const { return state_; }

private:
  std::vector<int32_t> order_;
  uint64_t state_;
};

} // namespace cavs_examples

#endif // CAVS_EXAMPLES_RANDOM_H
