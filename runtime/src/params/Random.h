//===- Random.h - the portable random generators of the initializers ------===//
//
// Initial parameter values must be the same on every platform, so they come
// from fixed integer generators (splitmix64 to seed, xoshiro256** to draw)
// rather than std:: distributions, whose output differs between standard
// libraries. Hashing the parameter name into its stream keeps parameters
// independent of each other's presence and order.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_PARAMS_RANDOM_H
#define CAVS_RUNTIME_PARAMS_RANDOM_H

#include <cstdint>
#include <string_view>

namespace cavs::runtime {

/// splitmix64 (Steele, Lea and Flood): advances `state`, returns the output.
inline uint64_t splitmix64(uint64_t &state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// The 64-bit FNV-1a hash of `text`.
inline uint64_t fnv1a64(std::string_view text) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : text)
    hash = (hash ^ c) * 0x100000001b3ull;
  return hash;
}

/// xoshiro256** 1.0 (Blackman and Vigna), seeded through splitmix64.
class Xoshiro256 {
public:
  explicit Xoshiro256(uint64_t seed) {
    for (uint64_t &word : state_)
      word = splitmix64(seed);
  }

  uint64_t next() {
    const uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  /// Uniform in [0, 1), from the top 53 bits (exact in a double).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t state_[4];
};

/// The seed of the stream of the parameter called `name` under the store
/// seed `seed`.
inline uint64_t parameterStreamSeed(uint64_t seed, std::string_view name) {
  return splitmix64(seed) ^ fnv1a64(name);
}

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_PARAMS_RANDOM_H
