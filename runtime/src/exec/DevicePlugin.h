//===- DevicePlugin.h - a device library's side of the C vtable -*- C++ -*-===//
//
// A device library implements Device (and Collectives for gradient sums)
// in C++ and exports the C table of exec/DeviceInterface.h that
// pluginInterface<Open, Count>() builds over them: every entry converts
// between the C types of the boundary and the library's own C++ (Status,
// std::string), so no C++ object crosses the dlopen boundary.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_EXEC_DEVICEPLUGIN_H
#define CAVS_RUNTIME_EXEC_DEVICEPLUGIN_H

#include "exec/DeviceInterface.h"
#include "support/Status.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace cavs::runtime::plugin {

/// The batching class of a phase (cavs_phase % 3).
enum class PhaseClass { Eager = 0, Body = 1, Lazy = 2 };

/// Sums over the ranks of a job in device memory.
class Collectives {
public:
  virtual ~Collectives() = default;
  virtual Status postAllreduceSum(float *data, int64_t count) = 0;
  virtual Status wait(std::string_view what) = 0;
};

/// One device, used by one model instance (cavs_device_interface documents
/// each member).
class Device {
public:
  virtual ~Device() = default;
  virtual const std::string &description() const = 0;
  virtual Status allocate(int64_t bytes, void *&out) = 0;
  virtual void release(void *pointer) noexcept = 0;
  virtual void zero(void *dst, int64_t bytes) = 0;
  virtual void upload(void *dst, const void *src, int64_t bytes) = 0;
  virtual Status download(void *dst, const void *src, int64_t bytes) = 0;
  virtual cavs_device_ops *ops() = 0;
  virtual void beginPhase(PhaseClass kind, bool backward, int32_t function,
                          bool stateWriter) = 0;
  virtual void endPhase(PhaseClass kind, bool backward, int32_t function) = 0;
  using MarkRows = std::function<Status(cavs_grad_store *grads, int32_t param,
                                        const int32_t *rows, int64_t count)>;
  virtual Status finishPass(const MarkRows &mark) = 0;
  virtual Status collectiveGroupId(std::string *id) = 0;
  virtual Status joinCollectiveGroup(const std::string &id, int32_t rank,
                                     int32_t size, double timeoutSeconds,
                                     std::unique_ptr<Collectives> &out) = 0;
};

/// The library's device count and device constructor.
using CountFn = Status (*)(int32_t &count);
using OpenFn = Status (*)(const cavs_cuda_desc &cuda, int32_t ordinal,
                          bool allowTf32, std::unique_ptr<Device> &out);

namespace detail {
inline cavs_status report(const Status &status, char *message,
                          size_t capacity) {
  if (!status.ok() && capacity > 0) {
    const size_t n = std::min(status.message().size(), capacity - 1);
    std::memcpy(message, status.message().data(), n);
    message[n] = '\0';
  }
  return status.code();
}
inline Device &of(cavs_device *device) {
  return *reinterpret_cast<Device *>(device);
}
inline Collectives &of(cavs_device_group *group) {
  return *reinterpret_cast<Collectives *>(group);
}
inline PhaseClass kindOf(int32_t phase) {
  return static_cast<PhaseClass>(phase % 3);
}
inline bool isBackward(int32_t phase) {
  return phase >= CAVS_PHASE_BACKWARD_EAGER;
}
} // namespace detail

/// The C table over a library's Count and Open.
template <CountFn Count, OpenFn Open>
const cavs_device_interface *pluginInterface() {
  using namespace detail;
  using Message = char *;
  static const cavs_device_interface table = {
      CAVS_DEVICE_INTERFACE_VERSION,
      sizeof(cavs_device_interface),
      [](int32_t *count, Message message, size_t capacity) {
        return report(Count(*count), message, capacity);
      },
      [](const cavs_cuda_desc *cuda, int32_t ordinal, int32_t allowTf32,
         cavs_device **out, Message message, size_t capacity) {
        std::unique_ptr<Device> device;
        const cavs_status status = report(
            Open(*cuda, ordinal, allowTf32 != 0, device), message, capacity);
        *out = reinterpret_cast<cavs_device *>(device.release());
        return status;
      },
      [](cavs_device *device) { delete &of(device); },
      [](cavs_device *device) { return of(device).description().c_str(); },
      [](cavs_device *device, int64_t bytes, void **out, Message message,
         size_t capacity) {
        return report(of(device).allocate(bytes, *out), message, capacity);
      },
      [](cavs_device *device, void *pointer) { of(device).release(pointer); },
      [](cavs_device *device, void *dst, int64_t bytes) {
        of(device).zero(dst, bytes);
      },
      [](cavs_device *device, void *dst, const void *src, int64_t bytes) {
        of(device).upload(dst, src, bytes);
      },
      [](cavs_device *device, void *dst, const void *src, int64_t bytes,
         Message message, size_t capacity) {
        return report(of(device).download(dst, src, bytes), message, capacity);
      },
      [](cavs_device *device) { return of(device).ops(); },
      [](cavs_device *device, int32_t phase, int32_t function,
         int32_t stateWriter) {
        of(device).beginPhase(kindOf(phase), isBackward(phase), function,
                              stateWriter != 0);
      },
      [](cavs_device *device, int32_t phase, int32_t function) {
        of(device).endPhase(kindOf(phase), isBackward(phase), function);
      },
      [](cavs_device *device, cavs_device_mark_fn mark, void *context,
         Message message, size_t capacity) {
        Status status =
            of(device).finishPass([&](cavs_grad_store *grads, int32_t param,
                                      const int32_t *rows, int64_t count) {
              const cavs_status code = mark(context, grads, param, rows, count);
              // The runtime keeps the message of its own failure.
              return code == CAVS_OK ? Status() : Status(code, "");
            });
        return report(status, message, capacity);
      },
      [](cavs_device *device, char *id, int32_t *idSize, Message message,
         size_t capacity) {
        std::string bytes;
        Status status = of(device).collectiveGroupId(id ? &bytes : nullptr);
        if (status.ok() && id) {
          if (bytes.size() > CAVS_DEVICE_GROUP_ID_MAX)
            status = Status(CAVS_ERROR_INTERNAL, "a group id is too long");
          else {
            std::memcpy(id, bytes.data(), bytes.size());
            *idSize = int32_t(bytes.size());
          }
        }
        return report(status, message, capacity);
      },
      [](cavs_device *device, const char *id, int32_t idSize, int32_t rank,
         int32_t size, double timeoutSeconds, cavs_device_group **out,
         Message message, size_t capacity) {
        std::unique_ptr<Collectives> group;
        const cavs_status status = report(
            of(device).joinCollectiveGroup(std::string(id, size_t(idSize)),
                                           rank, size, timeoutSeconds, group),
            message, capacity);
        *out = reinterpret_cast<cavs_device_group *>(group.release());
        return status;
      },
      [](cavs_device_group *group, float *data, int64_t count, Message message,
         size_t capacity) {
        return report(of(group).postAllreduceSum(data, count), message,
                      capacity);
      },
      [](cavs_device_group *group, const char *what, Message message,
         size_t capacity) {
        return report(of(group).wait(what), message, capacity);
      },
      [](cavs_device_group *group) { delete &of(group); },
  };
  return &table;
}

} // namespace cavs::runtime::plugin

#endif // CAVS_RUNTIME_EXEC_DEVICEPLUGIN_H
