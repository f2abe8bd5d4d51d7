//===- Buffers.h - the growing execution buffers of a model instance ------===//
//
// Arenas, scratch, state, outputs and gradients are sized by the batch. A
// GrowBuffer keeps its allocation between batches and only reallocates
// when a batch needs more, so a training loop stops allocating once its
// batches stop growing.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_EXEC_BUFFERS_H
#define CAVS_RUNTIME_EXEC_BUFFERS_H

#include "params/AlignedBuffer.h"

#include <cstring>

namespace cavs::runtime {

/// A 64-byte-aligned float buffer that grows on demand and never shrinks.
class GrowBuffer {
public:
  /// Returns room for at least `size` floats. A new allocation is zeroed
  /// (the old contents are dropped); reused memory keeps its contents.
  float *reserve(int64_t size) {
    if (size > buffer_.size())
      buffer_ = AlignedBuffer(size);
    return buffer_.data();
  }
  /// reserve(size) with the first `size` floats set to zero.
  float *reserveZeroed(int64_t size) {
    float *data = reserve(size);
    if (size > 0)
      std::memset(data, 0, static_cast<size_t>(size) * sizeof(float));
    return data;
  }
  float *data() { return buffer_.data(); }
  const float *data() const { return buffer_.data(); }

private:
  AlignedBuffer buffer_;
};

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_EXEC_BUFFERS_H
