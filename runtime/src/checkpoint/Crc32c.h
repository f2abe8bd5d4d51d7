//===- Crc32c.h - the CRC-32C checksum of checkpoint files ----------------===//
//
// CRC-32C (Castagnoli, reflected polynomial 0x82f63b78, initial value and
// final xor 0xffffffff; the check value of "123456789" is 0xe3069283), as in
// iSCSI, ext4 and many storage formats. Computed slicing-by-8 in portable
// C++, about 1-2 GB/s.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_CHECKPOINT_CRC32C_H
#define CAVS_RUNTIME_CHECKPOINT_CRC32C_H

#include <cstddef>
#include <cstdint>

namespace cavs::runtime {

/// An incremental CRC-32C.
class Crc32c {
public:
  /// Adds `size` bytes at `data`.
  void update(const void *data, size_t size);
  /// The checksum of all bytes added so far.
  uint32_t value() const { return ~state_; }

private:
  uint32_t state_ = 0xffffffffu;
};

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_CHECKPOINT_CRC32C_H
