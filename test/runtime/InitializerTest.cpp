//===- InitializerTest.cpp - initial parameter values ---------------------===//
//
// Checks every initializer kind: exact values, statistics on large tensors
// (bounds, mean, variance within a few standard errors), determinism, the
// independence of parameters from each other, and golden values that pin
// the generator so results stay the same on every platform.
//
//===----------------------------------------------------------------------===//
#include "ModelFixtures.h"
#include "TestSupport.h"

#include <cmath>

namespace cavs::test {
namespace {

struct Moments {
  double mean = 0, variance = 0, min = HUGE_VAL, max = -HUGE_VAL;
};

Moments momentsOf(Span<float> values) {
  Moments m;
  for (float v : values) {
    m.mean += v;
    m.min = std::min<double>(m.min, v);
    m.max = std::max<double>(m.max, v);
  }
  m.mean /= double(values.size());
  for (float v : values)
    m.variance += (v - m.mean) * (v - m.mean);
  m.variance /= double(values.size());
  return m;
}

/// A store with the single parameter `param`.
ParamStore single(const cavs_param_desc &param, uint64_t seed = 7) {
  ModelSpec spec;
  spec.params = {param};
  return ParamStore(spec.desc(), seed);
}

// Tests the constant kinds, which fill exactly.
TEST(Initializers, Constants) {
  ModelSpec spec;
  spec.params = {vectorParam("z", 33, CAVS_INIT_ZEROS),
                 matrixParam("o", 3, 5, CAVS_INIT_ONES),
                 matrixParam("c", 2, 2, CAVS_INIT_CONSTANT, -1.5)};
  ParamStore params(spec.desc(), 3);
  for (float v : params.values("z"))
    EXPECT_EQ(v, 0.0f);
  for (float v : params.values("o"))
    EXPECT_EQ(v, 1.0f);
  for (float v : params.values("c"))
    EXPECT_EQ(v, -1.5f);
}

// Tests uniform(lo, hi) on 300k values: bounds, mean and variance
// (hi - lo)^2 / 12.
TEST(Initializers, UniformStatistics) {
  ParamStore params =
      single(matrixParam("u", 1000, 300, CAVS_INIT_UNIFORM, -0.05, 0.15));
  const Moments m = momentsOf(params.values(0));
  EXPECT_GE(m.min, -0.05);
  EXPECT_LE(m.max, 0.15);
  EXPECT_LT(m.min, -0.0499); // the whole range is used
  EXPECT_GT(m.max, 0.1499);
  // Standard error of the mean: 0.2 / sqrt(12 * 3e5) ~ 1.1e-4.
  EXPECT_NEAR(m.mean, 0.05, 6e-4);
  EXPECT_NEAR(m.variance, 0.04 / 12, 0.04 / 12 * 0.02);
}

// Tests normal(mean, std) on 300k values: mean, variance and the share of
// values within one standard deviation (68.27%).
TEST(Initializers, NormalStatistics) {
  ParamStore params =
      single(matrixParam("n", 600, 500, CAVS_INIT_NORMAL, 1.5, 2.0));
  Span<float> values = params.values(0);
  const Moments m = momentsOf(values);
  EXPECT_NEAR(m.mean, 1.5, 0.02); // standard error 2 / sqrt(3e5) ~ 0.0037
  EXPECT_NEAR(std::sqrt(m.variance), 2.0, 0.02);
  int64_t within = 0;
  for (float v : values)
    within += std::fabs(v - 1.5) <= 2.0;
  EXPECT_NEAR(double(within) / double(values.size()), 0.6827, 0.005);
  EXPECT_GT(m.max, 1.5 + 4 * 2.0); // tails exist
}

// Tests xavier on a matrix: bound sqrt(6 / (rows + cols)), variance
// bound^2 / 3.
TEST(Initializers, XavierMatrix) {
  ParamStore params = single(matrixParam("w", 450, 300, CAVS_INIT_XAVIER));
  const double limit = std::sqrt(6.0 / 750.0);
  const Moments m = momentsOf(params.values(0));
  EXPECT_GE(m.min, -limit - 1e-7);
  EXPECT_LE(m.max, limit + 1e-7);
  EXPECT_GT(m.max, limit * 0.999);
  EXPECT_NEAR(m.mean, 0.0, 6e-4);
  EXPECT_NEAR(m.variance, limit * limit / 3, limit * limit / 3 * 0.02);
}

// Tests xavier on a vector of n: fan_in = fan_out = n, bound sqrt(3 / n).
TEST(Initializers, XavierVector) {
  ParamStore params = single(vectorParam("v", 100000, CAVS_INIT_XAVIER));
  const double limit = std::sqrt(3.0 / 100000.0);
  const Moments m = momentsOf(params.values(0));
  EXPECT_GE(m.min, -limit - 1e-7);
  EXPECT_LE(m.max, limit + 1e-7);
  EXPECT_GT(m.max, limit * 0.999);
  EXPECT_NEAR(m.variance, limit * limit / 3, limit * limit / 3 * 0.03);
}

// Tests that two stores from the same seed are bit-identical and that
// another seed gives other values.
TEST(Initializers, Deterministic) {
  ParamStore a(tinyModel().desc(), 42), b(tinyModel().desc(), 42);
  ParamStore c(tinyModel().desc(), 43);
  EXPECT_EQ(toVector(a.data()), toVector(b.data()));
  EXPECT_NE(toVector(a.values("embed")), toVector(c.values("embed")));
  EXPECT_NE(toVector(a.values("W_f")), toVector(c.values("W_f")));
}

// Tests that a parameter's values depend only on the seed and its own name
// and initializer: not on the other parameters, their order or packs.
TEST(Initializers, ParametersAreIndependent) {
  ParamStore reference(tinyModel().desc(), 42);
  ModelSpec other;
  other.params = {vectorParam("extra", 17, CAVS_INIT_NORMAL, 0, 1),
                  matrixParam("W_f", 2, 4, CAVS_INIT_XAVIER),
                  matrixParam("embed", 10, 4, CAVS_INIT_UNIFORM, -0.1, 0.1)};
  ParamStore reordered(other.desc(), 42);
  EXPECT_EQ(toVector(reordered.values("embed")),
            toVector(reference.values("embed")));
  EXPECT_EQ(toVector(reordered.values("W_f")),
            toVector(reference.values("W_f")));
  // Parameters of equal shape and kind still differ (their own streams).
  ModelSpec twins;
  twins.params = {vectorParam("p", 8, CAVS_INIT_UNIFORM, 0, 1),
                  vectorParam("q", 8, CAVS_INIT_UNIFORM, 0, 1)};
  ParamStore store(twins.desc(), 42);
  EXPECT_NE(toVector(store.values("p")), toVector(store.values("q")));
}

// Tests golden values, computed independently from the documented
// generator (splitmix64 + xoshiro256**, stream seed splitmix64(seed) ^
// fnv1a64(name)), so any change of the streams is caught.
TEST(Initializers, GoldenValues) {
  ParamStore uniform =
      single(vectorParam("w", 4, CAVS_INIT_UNIFORM, -1, 1), 42);
  EXPECT_EQ(toVector(uniform.values(0)),
            (std::vector<float>{0x1.5f48f6p-2f, -0x1.5f4c2ep-1f,
                                -0x1.477384p-2f, 0x1.539eccp-1f}));
  ParamStore normal = single(vectorParam("n", 4, CAVS_INIT_NORMAL, 0.5, 2), 42);
  EXPECT_EQ(toVector(normal.values(0)),
            (std::vector<float>{0x1.bb9f22p-2f, 0x1.bca554p-4f, 0x1.7328e0p-5f,
                                0x1.0782b8p-1f}));
}

} // namespace
} // namespace cavs::test
