//===- Load.cpp - matching a checkpoint to a model and restoring it -------===//
//
// After parseCheckpoint has validated the file on its own, the records are
// matched against the model: signature, then every tensor by name (so the
// order in the file does not matter) with its shape, for the parameters and
// every optimizer slot. A signature mismatch also names the first parameter
// that differs (or, when none does, the state width): the same model
// compiled with other sizes keeps its name, so the signatures alone would
// not tell what changed. Restoring starts only when all of that passed and
// the new optimizer state and training state are allocated, so a failure
// changes nothing.
//
//===----------------------------------------------------------------------===//
#include "checkpoint/Checkpoint.h"

#include "checkpoint/Parse.h"
#include "optim/Options.h"
#include "support/Excerpt.h"
#include "support/ReadFile.h"

#include <cstring>

namespace cavs::runtime {

using namespace checkpoint;

namespace {

/// For each parameter of `layout`, the data of the record that holds it.
/// A failure names the first difference; callers prefix where it is.
Status matchTensors(const ModelLayout &layout,
                    const std::vector<TensorRecord> &records,
                    std::vector<const unsigned char *> &data) {
  data.assign(size_t(layout.numParams()), nullptr);
  for (const TensorRecord &record : records) {
    const int32_t index = layout.findParam(record.name);
    if (index < 0)
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "tensor '{}' is not a parameter of model '{}'",
                       excerpt(record.name), layout.name());
    if (data[index])
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "parameter '{}' appears twice", record.name);
    const cavs_param_info &info = layout.param(index);
    if (record.rank != info.rank || record.shape[0] != info.shape[0] ||
        record.shape[1] != info.shape[1])
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "parameter '{}' has shape {} in the checkpoint but {} "
                       "in the model",
                       record.name, formatShape(record.rank, record.shape),
                       formatShape(info.rank, info.shape));
    data[index] = record.data;
  }
  for (int32_t i = 0; i < layout.numParams(); ++i)
    if (!data[i])
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "parameter '{}' of model '{}' is missing",
                       layout.param(i).name, layout.name());
  return Status();
}

/// Copies each parameter's record data to its offset in `values`.
void copyTensors(const ModelLayout &layout,
                 const std::vector<const unsigned char *> &data,
                 float *values) {
  for (int32_t i = 0; i < layout.numParams(); ++i) {
    const cavs_param_info &info = layout.param(i);
    std::memcpy(values + info.offset, data[i],
                static_cast<size_t>(info.size) * sizeof(float));
  }
}

/// Checks that `contents` can restore `optimizer`.
Status checkOptimizerKind(const std::string &path, const Contents &contents,
                          const Optimizer &optimizer) {
  const cavs_optimizer_kind kind = optimizer.options().kind;
  if (!contents.optimizer)
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "checkpoint '{}' holds no optimizer state to restore "
                     "the {} optimizer from",
                     path, optimizerKindName(kind));
  const cavs_optimizer_kind saved = contents.optimizer->options.kind;
  if (saved != kind)
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "checkpoint '{}' holds {} optimizer state, not {}", path,
                     optimizerKindName(saved), optimizerKindName(kind));
  return Status();
}

} // namespace

Status loadCheckpoint(const std::string &path, ParamStore &params,
                      Optimizer *optimizer, TrainState *state) {
  const ModelLayout &layout = params.layout();
  if (optimizer)
    CAVS_RETURN_IF_ERROR(
        requireSameModel(layout, optimizer->layout(), "the optimizer"));
  FileBytes bytes;
  CAVS_RETURN_IF_ERROR(readWholeFile(path, "checkpoint", bytes));
  Contents contents;
  CAVS_RETURN_IF_ERROR(parseCheckpoint(path, bytes, contents));
  std::vector<const unsigned char *> paramData;
  Status paramsMatch = matchTensors(layout, contents.params, paramData);
  // The signature covers the parameters' names and shapes and the state
  // width: when the parameters all match, the state width is what differs.
  if (contents.signature != layout.signature())
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "checkpoint '{}' was saved from model '{}' (signature "
                     "{:#018x}), not from model '{}' (signature {:#018x}): {}",
                     path, excerpt(contents.modelName), contents.signature,
                     layout.name(), layout.signature(),
                     paramsMatch.ok()
                         ? "every parameter has the model's name and shape, "
                           "so the state widths differ (or an older cavsc "
                           "signed one of the two)"
                         : paramsMatch.message());
  const std::string context = fmt::format("checkpoint '{}'", path);
  CAVS_RETURN_IF_ERROR(std::move(paramsMatch).withPrefix(context + ": "));
  // Optimizer state is checked even when it is not restored: a checkpoint
  // is either valid as a whole or rejected.
  std::vector<std::vector<const unsigned char *>> slotData;
  if (contents.optimizer)
    for (const SlotRecord &slot : contents.optimizer->slots)
      CAVS_RETURN_IF_ERROR(
          matchTensors(layout, slot.tensors, slotData.emplace_back())
              .withPrefix(fmt::format(
                  "{}, {} state '{}': ", context,
                  optimizerKindName(contents.optimizer->options.kind),
                  slot.name)));
  if (optimizer)
    CAVS_RETURN_IF_ERROR(checkOptimizerKind(path, contents, *optimizer));

  // Allocate (the one step that can fail) before changing anything.
  std::vector<AlignedBuffer> slots;
  if (optimizer)
    for (const std::vector<const unsigned char *> &data : slotData)
      copyTensors(layout, data, slots.emplace_back(layout.size()).data());
  TrainState restored;
  for (const TrainFieldRecord &field : contents.trainState)
    CAVS_RETURN_IF_ERROR(restored.set(field.name, field.type, field.bits));
  copyTensors(layout, paramData, params.data());
  if (state)
    state->swap(restored);
  if (optimizer)
    optimizer->restore(contents.optimizer->options,
                       contents.optimizer->stepCount, std::move(slots));
  return Status();
}

} // namespace cavs::runtime
