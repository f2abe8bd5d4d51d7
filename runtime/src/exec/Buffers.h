//===- Buffers.h - the growing execution buffers of a model instance ------===//
//
// Arenas, scratch, state, outputs and gradients are sized by the batch. A
// GrowBuffer keeps its allocation between batches and only reallocates
// when a batch needs more, so a training loop stops allocating once its
// batches stop growing. On a GPU instance the same buffers live in device
// memory (the executor's code does not change; only what it points at).
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_EXEC_BUFFERS_H
#define CAVS_RUNTIME_EXEC_BUFFERS_H

#include "exec/DeviceBackend.h"
#include "params/AlignedBuffer.h"
#include "support/AllocationFailure.h"

#include <cstring>
#include <new>

namespace cavs::runtime {

/// A 64-byte-aligned float buffer that grows on demand and never shrinks,
/// in host memory or on a device.
class GrowBuffer {
public:
  /// A host buffer.
  GrowBuffer() = default;
  /// A buffer in the memory of `device` (null: the host).
  explicit GrowBuffer(DeviceBackend *device) : device_(device) {}
  GrowBuffer(GrowBuffer &&other) noexcept { *this = std::move(other); }
  GrowBuffer &operator=(GrowBuffer &&other) noexcept {
    std::swap(device_, other.device_);
    std::swap(host_, other.host_);
    std::swap(deviceData_, other.deviceData_);
    std::swap(deviceSize_, other.deviceSize_);
    return *this;
  }
  ~GrowBuffer() {
    if (deviceData_)
      device_->release(deviceData_);
  }

  /// Returns room for at least `size` floats. A new allocation is zeroed
  /// (the old contents are dropped); reused memory keeps its contents.
  /// Allocation failures throw AllocationFailure (CAVS_ERROR_OUT_OF_MEMORY).
  float *reserve(int64_t size) {
    if (!device_) {
      if (size > host_.size())
        host_ = AlignedBuffer(size);
      return host_.data();
    }
    if (size > deviceSize_) {
      if (deviceData_)
        device_->release(deviceData_);
      deviceData_ = nullptr;
      deviceSize_ = 0;
      void *memory = nullptr;
      if (!device_->allocate(size * int64_t(sizeof(float)), memory).ok())
        throw AllocationFailure(size * int64_t(sizeof(float)));
      deviceData_ = static_cast<float *>(memory);
      deviceSize_ = size;
      device_->zero(deviceData_, size * int64_t(sizeof(float)));
    }
    return deviceData_;
  }
  /// reserve(size) with the first `size` floats set to zero.
  float *reserveZeroed(int64_t size) {
    float *data = reserve(size);
    if (size <= 0)
      return data;
    if (device_)
      device_->zero(data, size * int64_t(sizeof(float)));
    else
      std::memset(data, 0, static_cast<size_t>(size) * sizeof(float));
    return data;
  }
  /// reserve(bytes) holding a copy of host `src` (queued on a device).
  float *assign(const void *src, int64_t bytes) {
    float *data = reserve((bytes + int64_t(sizeof(float)) - 1) /
                          int64_t(sizeof(float)));
    if (bytes <= 0)
      return data;
    if (device_)
      device_->upload(data, src, bytes);
    else
      std::memcpy(data, src, static_cast<size_t>(bytes));
    return data;
  }
  float *data() { return device_ ? deviceData_ : host_.data(); }
  const float *data() const { return device_ ? deviceData_ : host_.data(); }

private:
  DeviceBackend *device_ = nullptr;
  AlignedBuffer host_;
  float *deviceData_ = nullptr;
  int64_t deviceSize_ = 0;
};

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_EXEC_BUFFERS_H
