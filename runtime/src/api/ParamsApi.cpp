//===- ParamsApi.cpp - C ABI of parameter and gradient stores -------------===//
//
// Thin adapters from cavs/model.h onto ParamStore and GradStore; accessors
// are NULL- and range-safe.
//
//===----------------------------------------------------------------------===//
#include "api/Handles.h"
#include "cavs/model.h"
#include "support/Guard.h"

#include <memory>

using namespace cavs::runtime;

namespace {

const ModelLayout *layoutOf(const cavs_param_store *store) {
  return store ? &store->impl.layout() : nullptr;
}

const ModelLayout *layoutOf(const cavs_grad_store *grads) {
  return grads ? &grads->impl.layout() : nullptr;
}

const cavs_param_info *paramInfo(const ModelLayout *layout, int32_t index) {
  return layout && index >= 0 && index < layout->numParams()
             ? &layout->param(index)
             : nullptr;
}

const cavs_pack_info *packInfo(const ModelLayout *layout, int32_t index) {
  return layout && index >= 0 && index < layout->numPacks()
             ? &layout->pack(index)
             : nullptr;
}

/// The elements of parameter `index` in `data`, or NULL when out of range.
template <typename Float>
Float *paramIn(const ModelLayout *layout, Float *data, int32_t index) {
  const cavs_param_info *info = paramInfo(layout, index);
  return info ? data + info->offset : nullptr;
}

/// The elements of pack `index` in `data`, or NULL when out of range.
float *packIn(const ModelLayout *layout, float *data, int32_t index) {
  const cavs_pack_info *info = packInfo(layout, index);
  return info ? data + info->offset : nullptr;
}

bool tracks(const cavs_grad_store *grads, int32_t param) {
  return paramInfo(layoutOf(grads), param) && grads->impl.tracksRows(param);
}

} // namespace

extern "C" {

cavs_status cavs_param_store_create(const cavs_model_desc *desc, uint64_t seed,
                                    cavs_param_store **out_store) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(desc, "desc"));
    CAVS_RETURN_IF_ERROR(requireNonNull(out_store, "out_store"));
    auto handle = std::make_unique<cavs_param_store>();
    CAVS_RETURN_IF_ERROR(ParamStore::create(*desc, seed, handle->impl));
    *out_store = handle.release();
    return Status();
  });
}

void cavs_param_store_destroy(cavs_param_store *store) { delete store; }

const char *cavs_param_store_model_name(const cavs_param_store *store) {
  return store ? store->impl.layout().name().c_str() : nullptr;
}

uint64_t cavs_param_store_signature(const cavs_param_store *store) {
  return store ? store->impl.layout().signature() : 0;
}

int64_t cavs_param_store_size(const cavs_param_store *store) {
  return store ? store->impl.layout().size() : 0;
}

float *cavs_param_store_data(cavs_param_store *store) {
  return store ? store->impl.data() : nullptr;
}

const float *cavs_param_store_values(const cavs_param_store *store) {
  return store ? store->impl.data() : nullptr;
}

int32_t cavs_param_store_num_params(const cavs_param_store *store) {
  return store ? store->impl.layout().numParams() : 0;
}

int32_t cavs_param_store_find_param(const cavs_param_store *store,
                                    const char *name) {
  return store && name ? store->impl.layout().findParam(name) : -1;
}

const cavs_param_info *cavs_param_store_param(const cavs_param_store *store,
                                              int32_t index) {
  return paramInfo(layoutOf(store), index);
}

float *cavs_param_store_param_data(cavs_param_store *store, int32_t index) {
  return paramIn(layoutOf(store), cavs_param_store_data(store), index);
}

const float *cavs_param_store_param_values(const cavs_param_store *store,
                                           int32_t index) {
  return paramIn(layoutOf(store), cavs_param_store_values(store), index);
}

int32_t cavs_param_store_num_packs(const cavs_param_store *store) {
  return store ? store->impl.layout().numPacks() : 0;
}

int32_t cavs_param_store_find_pack(const cavs_param_store *store,
                                   const char *name) {
  return store && name ? store->impl.layout().findPack(name) : -1;
}

const cavs_pack_info *cavs_param_store_pack(const cavs_param_store *store,
                                            int32_t index) {
  return packInfo(layoutOf(store), index);
}

float *cavs_param_store_pack_data(cavs_param_store *store, int32_t index) {
  return packIn(layoutOf(store), cavs_param_store_data(store), index);
}

cavs_status cavs_param_store_set_frozen(cavs_param_store *store, int32_t index,
                                        int32_t frozen) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(store, "store"));
    if (!paramInfo(layoutOf(store), index))
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "parameter index {} is out of range; model '{}' has {} "
                       "parameters",
                       index, store->impl.layout().name(),
                       store->impl.layout().numParams());
    store->impl.setFrozen(index, frozen != 0);
    return Status();
  });
}

int32_t cavs_param_store_frozen(const cavs_param_store *store, int32_t index) {
  return paramInfo(layoutOf(store), index) && store->impl.frozen(index) ? 1 : 0;
}

cavs_status cavs_grad_store_create(const cavs_param_store *params,
                                   cavs_grad_store **out_grads) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(params, "params"));
    CAVS_RETURN_IF_ERROR(requireNonNull(out_grads, "out_grads"));
    *out_grads = new cavs_grad_store{GradStore(params->impl.sharedLayout())};
    return Status();
  });
}

void cavs_grad_store_destroy(cavs_grad_store *grads) { delete grads; }

int64_t cavs_grad_store_size(const cavs_grad_store *grads) {
  return grads ? grads->impl.layout().size() : 0;
}

float *cavs_grad_store_data(cavs_grad_store *grads) {
  return grads ? grads->impl.data() : nullptr;
}

const cavs_param_info *cavs_grad_store_param(const cavs_grad_store *grads,
                                             int32_t index) {
  return paramInfo(layoutOf(grads), index);
}

const cavs_pack_info *cavs_grad_store_pack(const cavs_grad_store *grads,
                                           int32_t index) {
  return packInfo(layoutOf(grads), index);
}

float *cavs_grad_store_param_data(cavs_grad_store *grads, int32_t index) {
  return paramIn(layoutOf(grads), cavs_grad_store_data(grads), index);
}

float *cavs_grad_store_pack_data(cavs_grad_store *grads, int32_t index) {
  return packIn(layoutOf(grads), cavs_grad_store_data(grads), index);
}

void cavs_grad_store_zero(cavs_grad_store *grads) {
  if (grads)
    grads->impl.zero();
}

cavs_status cavs_grad_store_track_rows(cavs_grad_store *grads, int32_t param) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(grads, "grads"));
    return grads->impl.trackRows(param);
  });
}

int32_t cavs_grad_store_tracks_rows(const cavs_grad_store *grads,
                                    int32_t param) {
  return tracks(grads, param) ? 1 : 0;
}

cavs_status cavs_grad_store_mark_rows(cavs_grad_store *grads, int32_t param,
                                      const int32_t *rows, int64_t count) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(grads, "grads"));
    if (count > 0)
      CAVS_RETURN_IF_ERROR(requireNonNull(rows, "rows"));
    return grads->impl.markRows(param, rows, count);
  });
}

int64_t cavs_grad_store_num_touched_rows(const cavs_grad_store *grads,
                                         int32_t param) {
  return tracks(grads, param)
             ? static_cast<int64_t>(grads->impl.touchedRows(param).size())
             : 0;
}

const int32_t *cavs_grad_store_touched_rows(const cavs_grad_store *grads,
                                            int32_t param) {
  return tracks(grads, param) ? grads->impl.touchedRows(param).data() : nullptr;
}

} // extern "C"
