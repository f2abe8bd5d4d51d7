//===- TrainState.cpp - the training state a checkpoint carries -----------===//
#include "checkpoint/TrainState.h"

#include "support/Excerpt.h"

#include <algorithm>

namespace cavs::runtime {

bool isTrainFieldType(uint32_t type) {
  return type == CAVS_TRAIN_FIELD_U64 || type == CAVS_TRAIN_FIELD_F64;
}

const char *trainFieldTypeName(cavs_train_field_type type) {
  return type == CAVS_TRAIN_FIELD_F64 ? "f64" : "u64";
}

Status TrainState::set(std::string_view name, cavs_train_field_type type,
                       uint64_t bits) {
  if (name.empty())
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "a training-state field needs a name");
  if (!isTrainFieldType(type))
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "training-state field '{}' has the unknown type {}",
                     excerpt(name), int64_t(type));
  auto field =
      std::find_if(fields_.begin(), fields_.end(),
                   [&](const TrainField &f) { return f.name == name; });
  if (field == fields_.end())
    field = fields_.insert(fields_.end(), TrainField{std::string(name)});
  field->type = type;
  field->bits = bits;
  return Status();
}

Status TrainState::get(std::string_view name, cavs_train_field_type type,
                       uint64_t &bits) const {
  auto field =
      std::find_if(fields_.begin(), fields_.end(),
                   [&](const TrainField &f) { return f.name == name; });
  if (field == fields_.end())
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "the training state has no field '{}'", excerpt(name));
  if (field->type != type)
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "training-state field '{}' is a {}, not a {}",
                     excerpt(name), trainFieldTypeName(field->type),
                     trainFieldTypeName(type));
  bits = field->bits;
  return Status();
}

} // namespace cavs::runtime
