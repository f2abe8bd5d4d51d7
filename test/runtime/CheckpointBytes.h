//===- CheckpointBytes.h - an independent checkpoint encoder for tests ----===//
//
// Writes checkpoint files from a plain description, following the byte
// layout of docs/runtime.md with its own code (and a bitwise CRC-32C), so
// that tests can check the runtime's writer against the spec and craft
// every kind of damaged or mismatched file.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_TEST_RUNTIME_CHECKPOINTBYTES_H
#define CAVS_TEST_RUNTIME_CHECKPOINTBYTES_H

#include "cavs/runtime.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cavs::test {

/// A tensor record.
struct TensorSpec {
  std::string name;
  std::vector<uint64_t> shape;
  std::vector<float> values;
  uint32_t dtype = 1;
  /// The recorded byte length; -1 for 4 * values.size().
  int64_t byteLength = -1;
  /// The recorded length of the name; -1 for name.size().
  int64_t nameLength = -1;
};

/// An optimizer state slot.
struct SlotSpec {
  std::string name;
  std::vector<TensorSpec> tensors;
};

/// A training-state field: type 1 (u64) or 2 (f64), the value's 8 bytes.
struct TrainFieldSpec {
  std::string name;
  uint32_t type = 1;
  uint64_t bits = 0;
};

/// A whole checkpoint; optimizer fields are used when optimizerKind != 0,
/// the training state from version 2 on.
struct CheckpointSpec {
  uint32_t version = 2;
  uint64_t signature = 0;
  std::string model;
  std::vector<TensorSpec> params;
  uint32_t optimizerKind = 0;
  uint64_t stepCount = 0;
  std::vector<std::pair<std::string, double>> hyperparameters;
  std::vector<SlotSpec> slots;
  std::vector<TrainFieldSpec> trainState;
  /// Bytes inserted before the checksum.
  std::string junk;
};

/// The file bytes of `spec`, with the right length field and checksum.
std::string encodeCheckpoint(const CheckpointSpec &spec);

/// CRC-32C computed bit by bit.
uint32_t referenceCrc32c(const std::string &bytes);

/// The tensor records of `params` (one per parameter, in order), with the
/// values of `data`, which has the flat layout of `params`.
std::vector<TensorSpec> tensorsOf(ParamStore &params, Span<const float> data);

/// A params-only checkpoint of `params`, as cavs_checkpoint_save writes it.
CheckpointSpec paramsSpec(ParamStore &params);

/// Reads a whole file.
std::string readBytes(const std::string &path);
/// Writes a whole file.
void writeBytes(const std::string &path, const std::string &bytes);

} // namespace cavs::test

#endif // CAVS_TEST_RUNTIME_CHECKPOINTBYTES_H
