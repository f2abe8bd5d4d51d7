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

#include <algorithm>
#include <cstdint>

namespace cavs::runtime::cpu {

#define CAVS_OP(name, ret, params) ret name params;
#define CAVS_HOST_OP(name, ret, params) ret name params;
#include "cavs/ops.def"

/// gemm splits C's rows over the kernel threads in blocks of this many
/// (the engines' kernels work on tiles of rows), the last block taking the
/// rows left over (a block of one row would be a matrix-vector product,
/// which the engines round differently); whoever cuts a product's rows
/// itself (exec/RowSplit.h) cuts the same blocks, so that every row is
/// computed as in the whole product.
constexpr int64_t kGemmRowBlock = 4;

/// The number of blocks of `size` rows (or columns) cut `block` at a time,
/// the last one taking the rest: at least 1.
constexpr int64_t blockCount(int64_t size, int64_t block) {
  return std::max<int64_t>(size / block, 1);
}

/// Where the blocks before `end` (of `blockCount(size, block)`) end.
constexpr int64_t blockEnd(int64_t end, int64_t size, int64_t block) {
  return end == blockCount(size, block) ? size : end * block;
}

} // namespace cavs::runtime::cpu

#endif // CAVS_RUNTIME_OPS_CPUOPS_H
