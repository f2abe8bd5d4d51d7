//===- FastExp.h - exp of non-positive floats, in vectorizable form -------===//
//
// The softmax loops take exp(x - row max) over rows of up to 10,000 logits
// (a language model's output layer), and a call of libm's scalar expf per
// element was a sixth of an LSTM language model's training time. This is
// Cephes' expf (a degree-6 polynomial on x - n ln 2, scaled by 2^n) written
// with plain arithmetic, a float-to-int conversion and a bit cast, so the
// compiler vectorizes the loops that call it. It is within 2 ulp of expf
// for x in [-87.3, 0] and returns 0 below, where expf underflows anyway.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_OPS_FASTEXP_H
#define CAVS_RUNTIME_OPS_FASTEXP_H

#include <cstdint>
#include <cstring>

namespace cavs::runtime {

/// exp(x) for x <= 0 (0 for x < -87.33, where 2^n would be subnormal).
inline float expNonPositive(float x) {
  constexpr float kLowest = -87.33654f;
  constexpr float kLog2e = 1.44269504088896341f;
  // ln 2 split so that n * kLn2Hi is exact.
  constexpr float kLn2Hi = 0.693359375f, kLn2Lo = -2.12194440e-4f;
  const bool underflow = x < kLowest;
  const float clamped = underflow ? kLowest : x;
  // Round to nearest by adding 1.5 * 2^23: no libm call, vectorizes.
  constexpr float kRound = 12582912.0f;
  const float n = (clamped * kLog2e + kRound) - kRound;
  const float r = clamped - n * kLn2Hi - n * kLn2Lo;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const float poly = p * r * r + r + 1.0f;
  const uint32_t bits = uint32_t(int32_t(n) + 127) << 23;
  float scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return underflow ? 0.0f : poly * scale;
}

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_OPS_FASTEXP_H
