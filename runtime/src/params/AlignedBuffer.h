//===- AlignedBuffer.h - zeroed, 64-byte-aligned float arrays -------------===//
//
// The storage of parameters, gradients, optimizer state, the passes' host
// buffers (arenas, state) and the products' transposed parameter copies
// (ops/TransposedOperands.h): one allocation per flat array, aligned to a
// cache line so that every tensor starting at a multiple of
// CAVS_PARAM_ALIGNMENT floats is aligned for any SIMD width.
//
// An array of 2 MiB or more is aligned to 2 MiB and advised into
// transparent huge pages (where the kernel makes them only on request,
// /sys/kernel/mm/transparent_hugepage/enabled = madvise): the passes stride
// through arenas a vertex row (tens of KiB) at a time and the GEMMs read the
// parameters and gradients whole, so with 4 KiB pages nearly every row is a
// TLB miss. The shipped Tree-LSTM at H = 512 trains 2-6 % faster so
// (docs/performance.md).
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_PARAMS_ALIGNEDBUFFER_H
#define CAVS_RUNTIME_PARAMS_ALIGNEDBUFFER_H

#include "cavs/model.h"
#include "support/AllocationFailure.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <new>

#include <sys/mman.h>

namespace cavs::runtime {

/// Bytes of alignment of every flat array.
inline constexpr size_t kBufferAlignment = CAVS_PARAM_ALIGNMENT * sizeof(float);

/// Arrays of at least this many bytes start on a huge page.
inline constexpr size_t kHugePageBytes = size_t(2) << 20;

/// A zero-initialised float array whose first element is 64-byte aligned
/// (2 MiB for a large one, in huge pages where the system has them);
/// move-only. Allocation failures throw AllocationFailure, which the C ABI
/// guard reports as CAVS_ERROR_OUT_OF_MEMORY with the size.
class AlignedBuffer {
public:
  AlignedBuffer() = default;
  /// `size` zeroed floats (no allocation when 0).
  explicit AlignedBuffer(int64_t size) : size_(size) {
    if (size == 0)
      return;
    const size_t bytes = static_cast<size_t>(size) * sizeof(float);
    const bool huge = bytes >= kHugePageBytes;
    const std::align_val_t alignment{huge ? kHugePageBytes : kBufferAlignment};
    void *memory = ::operator new[](bytes, alignment, std::nothrow);
    if (!memory)
      throw AllocationFailure(int64_t(bytes));
    data_ = std::unique_ptr<float[], Free>(static_cast<float *>(memory),
                                           Free{alignment});
#ifdef MADV_HUGEPAGE
    // Advice only: without huge pages (disabled, none free) the array is
    // the same in 4 KiB pages.
    if (huge)
      madvise(data_.get(), bytes, MADV_HUGEPAGE);
#endif
    // Zeroing after the advice faults the array in as huge pages.
    std::memset(data_.get(), 0, bytes);
  }

  float *data() { return data_.get(); }
  const float *data() const { return data_.get(); }
  int64_t size() const { return size_; }

private:
  struct Free {
    std::align_val_t alignment;
    void operator()(float *data) const {
      ::operator delete[](data, alignment);
    }
  };
  std::unique_ptr<float[], Free> data_{nullptr, Free{}};
  int64_t size_ = 0;
};

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_PARAMS_ALIGNEDBUFFER_H
