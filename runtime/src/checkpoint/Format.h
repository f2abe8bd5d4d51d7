//===- Format.h - constants of the checkpoint file format -----------------===//
//
// The byte layout is specified in docs/runtime.md ("Checkpoint file
// format"): little-endian fixed-width fields, a fixed header (magic,
// version, file length, model signature), the model name, parameter tensor
// records, optional optimizer state, (from version 2) the optional training
// state and a trailing CRC-32C of everything before it.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_CHECKPOINT_FORMAT_H
#define CAVS_RUNTIME_CHECKPOINT_FORMAT_H

#include <cstdint>

// Fields are copied to and from memory as they are, which is the file's
// byte order only on little-endian hosts (every platform cavs targets).
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "checkpoints assume a little-endian host");

namespace cavs::runtime::checkpoint {

/// The first 8 bytes of every checkpoint.
inline constexpr char kMagic[8] = {'C', 'A', 'V', 'S', 'C', 'K', 'P', 'T'};
/// The version this runtime writes; it reads every version from
/// kOldestFormatVersion on.
inline constexpr uint32_t kFormatVersion = 2;
/// Version 1 has no training-state section.
inline constexpr uint32_t kOldestFormatVersion = 1;
/// Magic (8), version (u32), file length (u64), model signature (u64).
inline constexpr uint64_t kFixedHeaderSize = 28;
/// Offsets of the fixed header fields.
inline constexpr uint64_t kVersionOffset = 8;
inline constexpr uint64_t kLengthOffset = 12;
inline constexpr uint64_t kSignatureOffset = 20;
/// The trailing CRC-32C (u32).
inline constexpr uint64_t kChecksumSize = 4;
/// The only element type of version 1: IEEE-754 binary32.
inline constexpr uint32_t kDtypeF32 = 1;
/// The optimizer-kind field of a checkpoint without optimizer state; other
/// values are cavs_optimizer_kind.
inline constexpr uint32_t kNoOptimizer = 0;
/// The first version with the training-state section.
inline constexpr uint32_t kTrainStateVersion = 2;

} // namespace cavs::runtime::checkpoint

#endif // CAVS_RUNTIME_CHECKPOINT_FORMAT_H
