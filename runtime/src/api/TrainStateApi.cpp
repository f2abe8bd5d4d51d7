//===- TrainStateApi.cpp - C ABI of training states -----------------------===//
//
// Thin adapters from the cavs_train_state part of cavs/checkpoint.h onto
// TrainState.
//
//===----------------------------------------------------------------------===//
#include "api/Handles.h"
#include "cavs/checkpoint.h"
#include "support/Guard.h"

#include <cstring>

using namespace cavs::runtime;

namespace {
Status setField(cavs_train_state *state, const char *name,
                cavs_train_field_type type, uint64_t bits) {
  CAVS_RETURN_IF_ERROR(requireNonNull(state, "state"));
  CAVS_RETURN_IF_ERROR(requireNonNull(name, "name"));
  return state->impl.set(name, type, bits);
}

Status getField(const cavs_train_state *state, const char *name,
                cavs_train_field_type type, void *out_value) {
  CAVS_RETURN_IF_ERROR(requireNonNull(state, "state"));
  CAVS_RETURN_IF_ERROR(requireNonNull(name, "name"));
  CAVS_RETURN_IF_ERROR(requireNonNull(out_value, "out_value"));
  uint64_t bits = 0;
  CAVS_RETURN_IF_ERROR(state->impl.get(name, type, bits));
  // Both types are 8 bytes; an f64 is kept as its bit pattern.
  std::memcpy(out_value, &bits, sizeof bits);
  return Status();
}
} // namespace

extern "C" {

cavs_status cavs_train_state_create(cavs_train_state **out_state) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(out_state, "out_state"));
    *out_state = new cavs_train_state();
    return Status();
  });
}

void cavs_train_state_destroy(cavs_train_state *state) { delete state; }

cavs_status cavs_train_state_set_u64(cavs_train_state *state, const char *name,
                                     uint64_t value) {
  return guard(
      [&] { return setField(state, name, CAVS_TRAIN_FIELD_U64, value); });
}

cavs_status cavs_train_state_set_f64(cavs_train_state *state, const char *name,
                                     double value) {
  static_assert(sizeof(double) == sizeof(uint64_t));
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return guard(
      [&] { return setField(state, name, CAVS_TRAIN_FIELD_F64, bits); });
}

cavs_status cavs_train_state_get_u64(const cavs_train_state *state,
                                     const char *name, uint64_t *out_value) {
  return guard(
      [&] { return getField(state, name, CAVS_TRAIN_FIELD_U64, out_value); });
}

cavs_status cavs_train_state_get_f64(const cavs_train_state *state,
                                     const char *name, double *out_value) {
  return guard(
      [&] { return getField(state, name, CAVS_TRAIN_FIELD_F64, out_value); });
}

int32_t cavs_train_state_num_fields(const cavs_train_state *state) {
  return state ? static_cast<int32_t>(state->impl.fields().size()) : 0;
}

cavs_status cavs_train_state_field(const cavs_train_state *state, int32_t index,
                                   const char **out_name,
                                   cavs_train_field_type *out_type) {
  return guard([&] {
    CAVS_RETURN_IF_ERROR(requireNonNull(state, "state"));
    CAVS_RETURN_IF_ERROR(requireNonNull(out_name, "out_name"));
    CAVS_RETURN_IF_ERROR(requireNonNull(out_type, "out_type"));
    const int32_t count = cavs_train_state_num_fields(state);
    if (index < 0 || index >= count)
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "training-state field {} does not exist (the state "
                       "has {})",
                       index, count);
    const TrainField &field = state->impl.fields()[size_t(index)];
    *out_name = field.name.c_str();
    *out_type = field.type;
    return Status();
  });
}

} // extern "C"
