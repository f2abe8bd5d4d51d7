//===- AlignedBuffer.h - zeroed, 64-byte-aligned float arrays -------------===//
//
// The storage of parameters, gradients and optimizer state: one allocation
// per flat array, aligned to a cache line so that every tensor starting at a
// multiple of CAVS_PARAM_ALIGNMENT floats is aligned for any SIMD width.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_PARAMS_ALIGNEDBUFFER_H
#define CAVS_RUNTIME_PARAMS_ALIGNEDBUFFER_H

#include "cavs/model.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <new>

namespace cavs::runtime {

/// Bytes of alignment of every flat array.
inline constexpr size_t kBufferAlignment = CAVS_PARAM_ALIGNMENT * sizeof(float);

/// A zero-initialised float array whose first element is 64-byte aligned;
/// move-only. Allocation failures throw std::bad_alloc, which the C ABI
/// guard reports as CAVS_ERROR_OUT_OF_MEMORY.
class AlignedBuffer {
public:
  AlignedBuffer() = default;
  /// `size` zeroed floats (no allocation when 0).
  explicit AlignedBuffer(int64_t size) : size_(size) {
    if (size == 0)
      return;
    const size_t bytes = static_cast<size_t>(size) * sizeof(float);
    data_.reset(static_cast<float *>(
        ::operator new[](bytes, std::align_val_t(kBufferAlignment))));
    std::memset(data_.get(), 0, bytes);
  }

  float *data() { return data_.get(); }
  const float *data() const { return data_.get(); }
  int64_t size() const { return size_; }

private:
  struct Free {
    void operator()(float *data) const {
      ::operator delete[](data, std::align_val_t(kBufferAlignment));
    }
  };
  std::unique_ptr<float[], Free> data_;
  int64_t size_ = 0;
};

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_PARAMS_ALIGNEDBUFFER_H
