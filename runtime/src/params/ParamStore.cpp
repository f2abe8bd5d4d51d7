//===- ParamStore.cpp - creating and initialising parameter stores --------===//
//
// The buffer starts zeroed (so padding is zero) and each parameter is then
// filled by its initializer.
//
//===----------------------------------------------------------------------===//
#include "params/ParamStore.h"

#include "params/Initializers.h"

namespace cavs::runtime {

Status ParamStore::create(const cavs_model_desc &desc, uint64_t seed,
                          ParamStore &out) {
  std::shared_ptr<const ModelLayout> layout;
  CAVS_RETURN_IF_ERROR(ModelLayout::build(desc, layout));
  AlignedBuffer values(layout->size());
  for (int32_t i = 0; i < layout->numParams(); ++i) {
    const cavs_param_info &info = layout->param(i);
    initializeParam(info, layout->init(i), seed, values.data() + info.offset);
  }
  out.frozen_.assign(static_cast<size_t>(layout->numParams()), 0);
  out.layout_ = std::move(layout);
  out.values_ = std::move(values);
  return Status();
}

} // namespace cavs::runtime
