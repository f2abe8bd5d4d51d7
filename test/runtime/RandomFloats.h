//===- RandomFloats.h - random inputs of the ops tests --------------------===//
#ifndef CAVS_TEST_RUNTIME_RANDOMFLOATS_H
#define CAVS_TEST_RUNTIME_RANDOMFLOATS_H

#include <cstddef>
#include <random>
#include <vector>

namespace cavs::test {

/// `count` floats drawn uniformly from [-1, 1).
inline std::vector<float> randomFloats(std::mt19937 &rng, size_t count) {
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::vector<float> values(count);
  for (float &v : values)
    v = value(rng);
  return values;
}

} // namespace cavs::test

#endif // CAVS_TEST_RUNTIME_RANDOMFLOATS_H
