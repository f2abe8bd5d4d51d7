//===- Parse.cpp - checkpoint header, checksum and record parsing ---------===//
//
// The header is checked first, in an order that names the actual problem:
// magic, version (both at fixed positions in every version), then the
// recorded length against the file size (truncation, trailing bytes), then
// the checksum over everything before it. Only then are records parsed, so
// a flipped bit anywhere after the header is reported as a checksum
// mismatch, and record errors can only come from a faulty writer.
//
//===----------------------------------------------------------------------===//
#include "checkpoint/Parse.h"

#include "checkpoint/Crc32c.h"
#include "checkpoint/Format.h"
#include "checkpoint/TrainState.h"
#include "optim/Options.h"
#include "params/ModelLayout.h"
#include "support/Excerpt.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <unordered_map>

namespace cavs::runtime::checkpoint {

namespace {

template <typename T> T load(const unsigned char *bytes) {
  T value;
  std::memcpy(&value, bytes, sizeof value);
  return value;
}

/// Reads the records between the fixed header and the checksum.
class RecordParser {
public:
  RecordParser(const std::string &path, const unsigned char *data,
               uint64_t begin, uint64_t end)
      : path_(path), data_(data), pos_(begin), end_(end) {}

  /// Fills `out` after its version and signature.

  Status contents(Contents &out);

private:
  /// A PARSE error at the current position.
  template <typename... Args>
  Status malformed(fmt::format_string<Args...> format, Args &&...args) const {
    return makeError(CAVS_ERROR_PARSE,
                     "checkpoint '{}' is malformed at byte "
                     "{}: {}",
                     path_, pos_,
                     fmt::format(format, std::forward<Args>(args)...));
  }

  /// Consumes `size` bytes, returning where they start.
  Status skip(uint64_t size, const char *what, const unsigned char *&start) {
    if (size > end_ - pos_)
      return malformed("{} ({} bytes) runs past the end of the records at "
                       "byte {}",
                       what, size, end_);
    start = data_ + pos_;
    pos_ += size;
    return Status();
  }
  template <typename T> Status scalar(T &value, const char *what) {
    const unsigned char *start = nullptr;
    CAVS_RETURN_IF_ERROR(skip(sizeof(T), what, start));
    value = load<T>(start);
    return Status();
  }
  Status string(std::string_view &out, const char *what) {
    uint32_t size;
    CAVS_RETURN_IF_ERROR(scalar(size, what));
    const unsigned char *start = nullptr;
    CAVS_RETURN_IF_ERROR(skip(size, what, start));
    out = std::string_view(reinterpret_cast<const char *>(start), size);
    return Status();
  }

  Status tensor(TensorRecord &out);
  Status tensors(std::vector<TensorRecord> &out);
  Status optimizer(uint32_t kind, OptimizerRecord &out);
  Status hyperparameters(OptimizerRecord &out);
  Status slots(OptimizerRecord &out);
  /// Refuses a negative value in a slot that sums squares.
  Status checkNonNegative(const char *kind, const SlotRecord &slot) const;
  Status trainState(std::vector<TrainFieldRecord> &out);

  const std::string &path_;
  const unsigned char *data_;
  uint64_t pos_, end_;
};

Status RecordParser::tensor(TensorRecord &out) {
  CAVS_RETURN_IF_ERROR(string(out.name, "a tensor name"));
  if (out.name.empty())
    return malformed("a tensor has an empty name");
  uint32_t rank;
  CAVS_RETURN_IF_ERROR(scalar(rank, "a tensor rank"));
  if (rank != 1 && rank != 2)
    return malformed("tensor '{}' has rank {}; tensors have rank 1 or 2",
                     excerpt(out.name), rank);
  out.rank = static_cast<int32_t>(rank);
  out.shape[1] = 0;
  for (uint32_t d = 0; d < rank; ++d) {
    uint64_t dimension;
    CAVS_RETURN_IF_ERROR(scalar(dimension, "a tensor dimension"));
    if (dimension < 1 || dimension > uint64_t(INT32_MAX))
      return malformed("tensor '{}' has dimension {}, outside [1, {}]",
                       excerpt(out.name), dimension, INT32_MAX);
    out.shape[d] = static_cast<int64_t>(dimension);
  }
  uint32_t dtype;
  CAVS_RETURN_IF_ERROR(scalar(dtype, "a tensor dtype"));
  if (dtype != kDtypeF32)
    return makeError(CAVS_ERROR_UNSUPPORTED,
                     "checkpoint '{}': tensor '{}' has dtype {}; this runtime "
                     "reads only dtype {} (f32)",
                     path_, excerpt(out.name), dtype, kDtypeF32);
  uint64_t byteLength;
  CAVS_RETURN_IF_ERROR(scalar(byteLength, "a tensor byte length"));
  const uint64_t elements =
      uint64_t(out.shape[0]) * (rank == 2 ? out.shape[1] : 1);
  if (byteLength != elements * sizeof(float))
    return malformed("tensor '{}' of shape {} holds {} bytes instead of {}",
                     excerpt(out.name), formatShape(out.rank, out.shape),
                     byteLength, elements * sizeof(float));
  return skip(byteLength, "tensor data", out.data);
}

Status RecordParser::tensors(std::vector<TensorRecord> &out) {
  uint32_t count;
  CAVS_RETURN_IF_ERROR(scalar(count, "a tensor count"));
  // No reserve(count): the count is not trusted, the bounds checks stop a
  // bad one before memory does.
  for (uint32_t i = 0; i < count; ++i)
    CAVS_RETURN_IF_ERROR(tensor(out.emplace_back()));
  return Status();
}

Status RecordParser::hyperparameters(OptimizerRecord &out) {
  const std::vector<Hyperparameter> expected =
      runtime::hyperparameters(out.options);
  const char *kind = optimizerKindName(out.options.kind);
  uint32_t count;
  CAVS_RETURN_IF_ERROR(scalar(count, "the hyperparameter count"));
  std::vector<std::string_view> seen;
  for (uint32_t i = 0; i < count; ++i) {
    std::string_view name;
    double value;
    CAVS_RETURN_IF_ERROR(string(name, "a hyperparameter name"));
    CAVS_RETURN_IF_ERROR(scalar(value, "a hyperparameter value"));
    if (std::find(seen.begin(), seen.end(), name) != seen.end())
      return malformed("{} hyperparameter '{}' appears twice", kind,
                       excerpt(name));
    // The flag is an int: validation would see 0.5 or 2 as -1.
    if (name == "nesterov" && value != 0 && value != 1)
      return malformed("invalid hyperparameters: SGD: nesterov must be 0 or "
                       "1, not {}",
                       value);
    if (!setHyperparameter(out.options, name, value))
      return malformed("unknown {} hyperparameter '{}'", kind, excerpt(name));
    seen.push_back(name);
  }
  for (const Hyperparameter &parameter : expected)
    if (std::find(seen.begin(), seen.end(), parameter.name) == seen.end())
      return malformed("{} hyperparameter '{}' is missing", kind,
                       parameter.name);
  if (Status s = validateOptions(out.options); !s.ok())
    return malformed("invalid hyperparameters: {}", s.message());
  return Status();
}

Status RecordParser::slots(OptimizerRecord &out) {
  const std::vector<const char *> expected = slotNames(out.options);
  const char *kind = optimizerKindName(out.options.kind);
  uint32_t count;
  CAVS_RETURN_IF_ERROR(scalar(count, "the state slot count"));
  if (count != expected.size())
    return malformed("{} state has {} slots; its hyperparameters need {}", kind,
                     count, expected.size());
  for (const char *name : expected) {
    SlotRecord &slot = out.slots.emplace_back();
    CAVS_RETURN_IF_ERROR(string(slot.name, "a state slot name"));
    if (slot.name != name)
      return malformed("{} state slot '{}' should be '{}'", kind,
                       excerpt(slot.name), name);
    CAVS_RETURN_IF_ERROR(tensors(slot.tensors));
    if (isSumOfSquaresSlot(name))
      CAVS_RETURN_IF_ERROR(checkNonNegative(kind, slot));
  }
  return Status();
}

Status RecordParser::checkNonNegative(const char *kind,
                                      const SlotRecord &slot) const {
  for (const TensorRecord &tensor : slot.tensors) {
    const int64_t size =
        tensor.shape[0] * std::max<int64_t>(tensor.shape[1], 1);
    for (int64_t i = 0; i < size; ++i) {
      const float value = load<float>(tensor.data + i * sizeof(float));
      if (value < 0)
        return makeError(CAVS_ERROR_PARSE,
                         "checkpoint '{}' is malformed: {} state '{}' of "
                         "parameter '{}' holds {} at element {}, but it sums "
                         "squares",
                         path_, kind, slot.name, excerpt(tensor.name), value,
                         i);
    }
  }
  return Status();
}

Status RecordParser::optimizer(uint32_t kind, OptimizerRecord &out) {
  if (!isOptimizerKind(kind))
    return malformed("unknown optimizer kind {}", kind);
  CAVS_RETURN_IF_ERROR(
      defaultOptions(static_cast<cavs_optimizer_kind>(kind), out.options));
  uint64_t stepCount;
  CAVS_RETURN_IF_ERROR(scalar(stepCount, "the step count"));
  // The next step must still count in int64 (Adam's bias correction of an
  // overflowed count is NaN).
  if (stepCount >= uint64_t(std::numeric_limits<int64_t>::max()))
    return malformed("the step count {} leaves no room for another step in "
                     "int64",
                     stepCount);
  out.stepCount = static_cast<int64_t>(stepCount);
  CAVS_RETURN_IF_ERROR(hyperparameters(out));
  return slots(out);
}

Status RecordParser::trainState(std::vector<TrainFieldRecord> &out) {
  uint32_t count;
  CAVS_RETURN_IF_ERROR(scalar(count, "the training-state field count"));
  for (uint32_t i = 0; i < count; ++i) {
    TrainFieldRecord field;
    CAVS_RETURN_IF_ERROR(string(field.name, "a training-state field name"));
    if (field.name.empty())
      return malformed("a training-state field has an empty name");
    if (std::any_of(out.begin(), out.end(), [&](const TrainFieldRecord &f) {
          return f.name == field.name;
        }))
      return malformed("training-state field '{}' appears twice",
                       excerpt(field.name));
    uint32_t type;
    CAVS_RETURN_IF_ERROR(scalar(type, "a training-state field type"));
    if (!isTrainFieldType(type))
      return malformed("training-state field '{}' has the unknown type {}",
                       excerpt(field.name), type);
    field.type = static_cast<cavs_train_field_type>(type);
    CAVS_RETURN_IF_ERROR(scalar(field.bits, "a training-state field value"));
    out.push_back(field);
  }
  return Status();
}

Status RecordParser::contents(Contents &out) {
  CAVS_RETURN_IF_ERROR(string(out.modelName, "the model name"));
  CAVS_RETURN_IF_ERROR(tensors(out.params));
  uint32_t kind;
  CAVS_RETURN_IF_ERROR(scalar(kind, "the optimizer kind"));
  if (kind != kNoOptimizer)
    CAVS_RETURN_IF_ERROR(optimizer(kind, out.optimizer.emplace()));
  if (out.version >= kTrainStateVersion)
    CAVS_RETURN_IF_ERROR(trainState(out.trainState));
  if (pos_ != end_)
    return malformed("{} unexpected bytes before the checksum", end_ - pos_);
  return Status();
}

} // namespace

Status checkSlotsMatchParams(const std::string &path,
                             const Contents &contents) {
  if (!contents.optimizer)
    return Status();
  const char *kind = optimizerKindName(contents.optimizer->options.kind);
  auto malformed = [&](const SlotRecord &slot, const std::string &what) {
    return makeError(CAVS_ERROR_PARSE,
                     "checkpoint '{}' is malformed: {} state '{}' {}", path,
                     kind, slot.name, what);
  };
  // By name, so that a checkpoint of many parameters is checked in linear
  // time; a name that appears twice is refused when the file is loaded.
  std::unordered_map<std::string_view, const TensorRecord *> params;
  for (const TensorRecord &param : contents.params)
    params.emplace(param.name, &param);
  for (const SlotRecord &slot : contents.optimizer->slots) {
    std::unordered_map<std::string_view, const TensorRecord *> tensors;
    for (const TensorRecord &tensor : slot.tensors) {
      tensors.emplace(tensor.name, &tensor);
      if (!params.count(tensor.name))
        return malformed(slot, fmt::format("holds tensor '{}', which is no "
                                           "parameter of the checkpoint",
                                           excerpt(tensor.name)));
    }
    for (const TensorRecord &param : contents.params) {
      auto found = tensors.find(param.name);
      if (found == tensors.end())
        return malformed(slot, fmt::format("has no tensor for parameter '{}'",
                                           excerpt(param.name)));
      const TensorRecord &tensor = *found->second;
      if (tensor.rank != param.rank || tensor.shape[0] != param.shape[0] ||
          tensor.shape[1] != param.shape[1])
        return malformed(slot,
                         fmt::format("has shape {} for parameter '{}' of "
                                     "shape {}",
                                     formatShape(tensor.rank, tensor.shape),
                                     excerpt(param.name),
                                     formatShape(param.rank, param.shape)));
    }
  }
  return Status();
}

Status parseCheckpoint(const std::string &path, const FileBytes &bytes,
                       Contents &out) {
  const unsigned char *data = bytes.data.get();
  const uint64_t size = bytes.size;
  if (std::memcmp(data, kMagic, std::min<uint64_t>(size, sizeof kMagic)) != 0)
    return makeError(CAVS_ERROR_PARSE,
                     "'{}' is not a cavs checkpoint (bad "
                     "magic)",
                     path);
  if (size < kFixedHeaderSize)
    return makeError(CAVS_ERROR_PARSE,
                     "checkpoint '{}' is truncated at byte {} (the header "
                     "alone has {} bytes)",
                     path, size, kFixedHeaderSize);
  const uint32_t version = load<uint32_t>(data + kVersionOffset);
  if (version < kOldestFormatVersion || version > kFormatVersion)
    return makeError(version > kFormatVersion ? CAVS_ERROR_UNSUPPORTED
                                              : CAVS_ERROR_PARSE,
                     "checkpoint '{}' has format version {}; this runtime "
                     "reads versions {} to {}",
                     path, version, kOldestFormatVersion, kFormatVersion);
  const uint64_t length = load<uint64_t>(data + kLengthOffset);
  if (length < kFixedHeaderSize + kChecksumSize)
    return makeError(CAVS_ERROR_PARSE,
                     "checkpoint '{}' records the impossible length {}", path,
                     length);
  if (size < length)
    return makeError(CAVS_ERROR_PARSE,
                     "checkpoint '{}' is truncated at byte {} (its header "
                     "records {} bytes)",
                     path, size, length);
  if (size > length)
    return makeError(CAVS_ERROR_PARSE,
                     "checkpoint '{}' has {} unexpected bytes after its end "
                     "at byte {}",
                     path, size - length, length);
  const uint64_t end = length - kChecksumSize;
  Crc32c crc;
  crc.update(data, end);
  const uint32_t stored = load<uint32_t>(data + end);
  if (crc.value() != stored)
    return makeError(CAVS_ERROR_PARSE,
                     "checkpoint '{}' is corrupt: checksum mismatch (stored "
                     "{:#010x}, computed {:#010x})",
                     path, stored, crc.value());
  Contents contents;
  contents.version = version;
  contents.signature = load<uint64_t>(data + kSignatureOffset);
  CAVS_RETURN_IF_ERROR(
      RecordParser(path, data, kFixedHeaderSize, end).contents(contents));
  out = std::move(contents);
  return Status();
}

} // namespace cavs::runtime::checkpoint
