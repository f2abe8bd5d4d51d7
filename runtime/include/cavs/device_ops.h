//===- device_ops.h - the op table phase functions call through -----------===//
//
// The ABI between cavsc's phase functions and the runtime's ops. A phase
// function never calls the runtime by symbol: it calls through this table,
// which it finds in cavs_call::device. The CPU's table runs the cavs/ops.h
// kernels; a GPU's (cavsc --target=cuda: host code with the structure of
// the CPU's, on device pointers) queues their CUDA twins. So a model
// library built for CUDA has no link-time dependency on CUDA at all, and
// the runtime loads its CUDA half only when a model is created on a GPU.
//
// Every entry takes the table first and otherwise has the arguments and
// meaning of the cavs/ops.h function of the same name (cavs/ops.def), with
// these differences on a GPU:
// - ops are asynchronous (queued on the device's current stream);
// - the checked ops (lookup, cross-entropy) validate on the device and
//   return CAVS_OK; the first failure is reported when the pass ends, with
//   the CPU op's message;
// - loss_sum (on every device) adds into `*total`, a double in the device's
//   memory, instead of returning the sum;
// - mark_rows copies the indices back to the host, where the rows are
//   marked when the backward pass ends;
// - launch, constant and run_rows have no cavs/ops.h twin (cavs/ops.def);
//   launch runs the fused kernels on a GPU, run_rows on the CPU.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_DEVICE_OPS_H
#define CAVS_DEVICE_OPS_H

#include "cavs/model.h"

#include <stdint.h>

CAVS_EXTERN_C_BEGIN

typedef struct cavs_device_ops cavs_device_ops;

/// The rows form of a CPU fused kernel (run_rows): runs the kernel over
/// rows [begin, end) of its operands, `args` holding a (pointer, leading
/// dimension) pair of 8-byte values per input and output, rows counted from
/// each pointer.
typedef void (*cavs_rows_kernel)(int64_t begin, int64_t end,
                                 const int64_t *args);

/// The table: an entry per op of cavs/ops.def, in its order. The generated
/// code addresses entry i at byte offset 8 * i, so entries are only ever
/// appended.
#define CAVS_DEVICE_OP_PARAMS(...) (cavs_device_ops * d, __VA_ARGS__)
#define CAVS_OP(name, ret, params) ret(*name) CAVS_DEVICE_OP_PARAMS params;
#define CAVS_DEVICE_OP(name, ret, params) CAVS_OP(name, ret, params)
struct cavs_device_ops {
#include "cavs/ops.def"
};
#undef CAVS_DEVICE_OP_PARAMS

CAVS_EXTERN_C_END

#endif // CAVS_DEVICE_OPS_H
