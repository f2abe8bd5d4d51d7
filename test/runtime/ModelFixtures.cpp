//===- ModelFixtures.cpp - model descriptors for the parameter tests ------===//
//
// Builders of parameter descriptors and the shared tiny model.
//
//===----------------------------------------------------------------------===//
#include "ModelFixtures.h"

#include <gtest/gtest.h>

namespace cavs::test {

cavs_model_desc ModelSpec::desc() const {
  cavs_model_desc desc{};
  desc.version = CAVS_MODEL_DESC_VERSION;
  desc.num_params = static_cast<int32_t>(params.size());
  desc.num_packs = static_cast<int32_t>(packs.size());
  desc.name = name.c_str();
  desc.signature = signature;
  desc.params = params.data();
  packDescs_.clear();
  for (const PackSpec &pack : packs)
    packDescs_.push_back({pack.name, static_cast<int32_t>(pack.members.size()),
                          pack.members.data()});
  desc.packs = packDescs_.empty() ? nullptr : packDescs_.data();
  return desc;
}

cavs_param_desc matrixParam(const char *name, int64_t rows, int64_t cols,
                            cavs_init_kind init, double arg0, double arg1) {
  return {name, 2, init, {rows, cols}, {arg0, arg1}};
}

cavs_param_desc vectorParam(const char *name, int64_t size, cavs_init_kind init,
                            double arg0, double arg1) {
  return {name, 1, init, {size, 0}, {arg0, arg1}};
}

ModelSpec tinyModel() {
  ModelSpec spec;
  spec.params = {matrixParam("embed", 10, 4, CAVS_INIT_UNIFORM, -0.1, 0.1),
                 matrixParam("W_iou", 6, 4, CAVS_INIT_XAVIER),
                 matrixParam("W_f", 2, 4, CAVS_INIT_XAVIER),
                 vectorParam("b", 5, CAVS_INIT_CONSTANT, 0.25)};
  spec.packs = {{"W_iou_f", {1, 2}}};
  return spec;
}

std::vector<float> toVector(Span<const float> values) {
  return {values.begin(), values.end()};
}

void assign(Span<float> values, const std::vector<float> &data) {
  ASSERT_EQ(values.size(), data.size());
  std::copy(data.begin(), data.end(), values.begin());
}

} // namespace cavs::test
