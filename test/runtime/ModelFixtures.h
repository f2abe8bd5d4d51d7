//===- ModelFixtures.h - model descriptors for the parameter tests --------===//
//
// ModelSpec owns the arrays of a cavs_model_desc so that tests can build and
// vary descriptors; tinyModel() is the model most tests share: an embedding
// table, a pack of two matrices and a bias vector.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_TEST_RUNTIME_MODELFIXTURES_H
#define CAVS_TEST_RUNTIME_MODELFIXTURES_H

#include "cavs/runtime.hpp"

#include <string>
#include <vector>

namespace cavs::test {

/// A pack of a ModelSpec.
struct PackSpec {
  const char *name;
  /// Parameter indices, in stacking order.
  std::vector<int32_t> members;
};

/// A model descriptor over owned arrays. desc() points into the spec, so it
/// is valid while the spec lives unchanged.
struct ModelSpec {
  std::string name = "tiny";
  uint64_t signature = 0x5eed5eed0000cafeull;
  std::vector<cavs_param_desc> params;
  std::vector<PackSpec> packs;

  cavs_model_desc desc() const;

private:
  // The descriptors of `packs`, rebuilt by desc().
  mutable std::vector<cavs_pack_desc> packDescs_;
};

/// A matrix parameter descriptor.
cavs_param_desc matrixParam(const char *name, int64_t rows, int64_t cols,
                            cavs_init_kind init = CAVS_INIT_ZEROS,
                            double arg0 = 0, double arg1 = 0);
/// A vector parameter descriptor.
cavs_param_desc vectorParam(const char *name, int64_t size,
                            cavs_init_kind init = CAVS_INIT_ZEROS,
                            double arg0 = 0, double arg1 = 0);

/// Parameters (index: name shape init):
///   0: embed [10, 4] uniform(-0.1, 0.1)
///   1: W_iou [6, 4]  xavier     } pack 0 "W_iou_f" [8, 4]
///   2: W_f   [2, 4]  xavier     }
///   3: b     [5]     constant(0.25)
ModelSpec tinyModel();

/// A copy of `values`.
std::vector<float> toVector(Span<const float> values);
inline std::vector<float> toVector(Span<float> values) {
  return {values.begin(), values.end()};
}

/// Sets `values` to `data` (sizes must match).
void assign(Span<float> values, const std::vector<float> &data);

} // namespace cavs::test

#endif // CAVS_TEST_RUNTIME_MODELFIXTURES_H
