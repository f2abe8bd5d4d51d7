//===- Initializers.cpp - zeros, ones, constant, uniform, normal, xavier --===//
//
// Values are computed in double and rounded to float once. Uniform values
// are lo + (hi - lo) * u with u in [0, 1); normal values come from the
// Box-Muller transform, both outputs of each pair used in order. Only
// log/sqrt/sin/cos come from libm, so results match across platforms
// wherever those are correctly rounded (glibc's are; a libm that is off by
// an ulp flips a float's last bit in rare cases).
//
//===----------------------------------------------------------------------===//
#include "params/Initializers.h"

#include "params/Random.h"

#include <algorithm>
#include <cmath>

namespace cavs::runtime {

namespace {

void fillUniform(Xoshiro256 &random, double lo, double hi, float *values,
                 int64_t size) {
  for (int64_t i = 0; i < size; ++i)
    values[i] = static_cast<float>(lo + (hi - lo) * random.uniform());
}

void fillNormal(Xoshiro256 &random, double mean, double deviation,
                float *values, int64_t size) {
  constexpr double kTwoPi = 6.283185307179586476925286766559;
  for (int64_t i = 0; i < size; i += 2) {
    // 1 - u lies in (0, 1], so the logarithm is finite.
    const double radius = std::sqrt(-2.0 * std::log(1.0 - random.uniform()));
    const double angle = kTwoPi * random.uniform();
    values[i] = static_cast<float>(mean + deviation * radius * std::cos(angle));
    if (i + 1 < size)
      values[i + 1] =
          static_cast<float>(mean + deviation * radius * std::sin(angle));
  }
}

/// The Glorot bound sqrt(6 / (fan_in + fan_out)); a vector of n elements
/// counts as fan_in = fan_out = n.
double xavierLimit(const cavs_param_info &info) {
  const double fanOut = static_cast<double>(info.shape[0]);
  const double fanIn =
      info.rank == 2 ? static_cast<double>(info.shape[1]) : fanOut;
  return std::sqrt(6.0 / (fanIn + fanOut));
}

} // namespace

void initializeParam(const cavs_param_info &info, const ParamInit &init,
                     uint64_t seed, float *values) {
  Xoshiro256 random(parameterStreamSeed(seed, info.name));
  float *end = values + info.size;
  switch (init.kind) {
  case CAVS_INIT_ZEROS:
    std::fill(values, end, 0.0f);
    break;
  case CAVS_INIT_ONES:
    std::fill(values, end, 1.0f);
    break;
  case CAVS_INIT_CONSTANT:
    std::fill(values, end, static_cast<float>(init.args[0]));
    break;
  case CAVS_INIT_UNIFORM:
    fillUniform(random, init.args[0], init.args[1], values, info.size);
    break;
  case CAVS_INIT_NORMAL:
    fillNormal(random, init.args[0], init.args[1], values, info.size);
    break;
  case CAVS_INIT_XAVIER: {
    const double limit = xavierLimit(info);
    fillUniform(random, -limit, limit, values, info.size);
    break;
  }
  case CAVS_INIT_FORCE_INT32:
    break;
  }
}

} // namespace cavs::runtime
