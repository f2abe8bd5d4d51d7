//===- CpuOps.h - the CPU kernels of the runtime ops ----------------------===//
//
// The C++ functions behind the CPU's op table (ops/CpuDeviceOps.h) and the
// exported cavs_op_* of cavs/ops.h (api/OpsApi.cpp): one per op of
// cavs/ops.def that has a cavs/ops.h form, with its parameters and meaning.
// The checked ops report a failure like a C entry point (the thread's last
// error and a status; support/Guard.h).
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_OPS_CPUOPS_H
#define CAVS_RUNTIME_OPS_CPUOPS_H

#include "cavs/model.h"

#include <cstdint>

namespace cavs::runtime::cpu {

#define CAVS_OP(name, ret, params) ret name params;
#define CAVS_HOST_OP(name, ret, params) ret name params;
#include "cavs/ops.def"

/// gemm splits C's rows over the kernel threads in blocks of this many
/// (the engines' kernels work on tiles of rows); whoever cuts a product's
/// rows itself (exec/RowSplit.h) cuts at the same multiples, so that every
/// row is computed as in the whole product.
constexpr int64_t kGemmRowBlock = 4;

} // namespace cavs::runtime::cpu

#endif // CAVS_RUNTIME_OPS_CPUOPS_H
