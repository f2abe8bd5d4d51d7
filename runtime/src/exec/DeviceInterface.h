/*===- DeviceInterface.h - the C vtable of a device library ---------------===*
 *
 * The plugin boundary between libcavs_runtime and a device library it
 * dlopens (libcavs_runtime_cuda.so, or the tests' host emulation of a GPU):
 * one table of C function pointers with C types only, like IREE's HAL
 * device vtable and Halide's halide_device_interface_t, so neither side
 * depends on the other's C++ standard library or compiler. The library
 * exports CAVS_DEVICE_INTERFACE_SYMBOL, a function returning its table;
 * the runtime refuses a table whose version differs from its own or that
 * is smaller than the one it knows (exec/DeviceBackend.h wraps it).
 *
 * Every call that can fail returns a cavs_status and, on failure, writes a
 * NUL-terminated message of at most `capacity` bytes to `message`.
 *
 *===----------------------------------------------------------------------===*/
#ifndef CAVS_RUNTIME_EXEC_DEVICEINTERFACE_H
#define CAVS_RUNTIME_EXEC_DEVICEINTERFACE_H

#include "cavs/program.h"

#include <stddef.h>
#include <stdint.h>

CAVS_EXTERN_C_BEGIN

/// The version of cavs_device_interface; bumped on any change to it.
#define CAVS_DEVICE_INTERFACE_VERSION 1
/// The most bytes of a collective group id (ncclUniqueId has 128).
#define CAVS_DEVICE_GROUP_ID_MAX 256

/// One opened device (a GPU used by one model instance), owned by the
/// library.
typedef struct cavs_device cavs_device;
/// A group of devices summing over the ranks of a job (NCCL).
typedef struct cavs_device_group cavs_device_group;

/// Receives the indices of one mark_rows call of a finished pass.
typedef cavs_status (*cavs_device_mark_fn)(void *context,
                                           cavs_grad_store *grads,
                                           int32_t param, const int32_t *rows,
                                           int64_t count);

typedef struct cavs_device_interface {
  /// CAVS_DEVICE_INTERFACE_VERSION and sizeof(cavs_device_interface) of the
  /// library's build.
  int32_t version;
  int32_t size;

  /// The number of devices; fails (CAVS_ERROR_UNSUPPORTED) without one.
  cavs_status (*count)(int32_t *count, char *message, size_t capacity);
  /// Opens device `ordinal` for a model with CUDA code `cuda`.
  cavs_status (*open)(const cavs_cuda_desc *cuda, int32_t ordinal,
                      int32_t allow_tf32, cavs_device **out, char *message,
                      size_t capacity);
  void (*close)(cavs_device *device);
  /// "cuda:0 (NVIDIA H200, sm_90)", valid until close.
  const char *(*description)(cavs_device *device);

  /// `bytes` of device memory; CAVS_ERROR_OUT_OF_MEMORY when there is no
  /// room.
  cavs_status (*allocate)(cavs_device *device, int64_t bytes, void **out,
                          char *message, size_t capacity);
  void (*release)(cavs_device *device, void *pointer);
  /// Queues dst[0, bytes) = 0.
  void (*zero)(cavs_device *device, void *dst, int64_t bytes);
  /// Queues a copy of host `src` to device `dst`; `src` may change as soon
  /// as this returns.
  void (*upload)(cavs_device *device, void *dst, const void *src,
                 int64_t bytes);
  /// Copies device `src` to host `dst` after all queued work (blocking).
  cavs_status (*download)(cavs_device *device, void *dst, const void *src,
                          int64_t bytes, char *message, size_t capacity);

  /// What the phase calls get as cavs_call::device.
  cavs_device_ops *(*ops)(cavs_device *device);
  /// Called around every phase call: `phase` is its cavs_phase,
  /// `state_writer` whether its whole-type phases may write the state
  /// (arity 0); selects the stream the call's ops queue on.
  void (*begin_phase)(cavs_device *device, int32_t phase, int32_t function,
                      int32_t state_writer);
  void (*end_phase)(cavs_device *device, int32_t phase, int32_t function);
  /// Waits for everything queued, then reports the pass's first failure
  /// and hands every staged mark_rows call to `mark` (stopping at its
  /// first failure, which it returns).
  cavs_status (*finish_pass)(cavs_device *device, cavs_device_mark_fn mark,
                             void *context, char *message, size_t capacity);

  /// Writes the id rank 0 hands every rank to join one group (at most
  /// CAVS_DEVICE_GROUP_ID_MAX bytes, `*id_size` of them); with a null `id`
  /// only checks that the device could join one.
  cavs_status (*group_id)(cavs_device *device, char *id, int32_t *id_size,
                          char *message, size_t capacity);
  /// Joins group `id` as `rank` of `size` ranks, waiting at most
  /// `timeout_seconds` for the others. The group must not outlive the
  /// device.
  cavs_status (*join_group)(cavs_device *device, const char *id,
                            int32_t id_size, int32_t rank, int32_t size,
                            double timeout_seconds, cavs_device_group **out,
                            char *message, size_t capacity);
  /// Queues an in-place sum over the ranks of device data[0, count).
  cavs_status (*group_sum)(cavs_device_group *group, float *data, int64_t count,
                           char *message, size_t capacity);
  /// Waits for every queued sum; `what` names them in a failure.
  cavs_status (*group_wait)(cavs_device_group *group, const char *what,
                            char *message, size_t capacity);
  void (*group_close)(cavs_device_group *group);
} cavs_device_interface;

/// The one entry point of a device library.
typedef const cavs_device_interface *(*cavs_device_interface_fn)(void);
#define CAVS_DEVICE_INTERFACE_SYMBOL "cavs_get_device_interface"

CAVS_EXTERN_C_END

#endif /* CAVS_RUNTIME_EXEC_DEVICEINTERFACE_H */
