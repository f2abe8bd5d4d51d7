//===- CpuDeviceOps.cpp - the CPU's device op table -----------------------===//
//
// Each entry of an op with a cavs/ops.h form forwards to its CPU kernel
// (ops/CpuOps.h; generated from cavs/ops.def); the table-only entries take
// their CPU meaning here: the loss is added into the call's host double, a
// constant array is used in place, and fused kernels run through run_rows,
// which splits their rows over the pool (support/ThreadPool.h), not launch.
//
//===----------------------------------------------------------------------===//
#include "ops/CpuDeviceOps.h"

#include "ops/CpuOps.h"
#include "support/ThreadPool.h"

namespace cavs::runtime {

namespace {

/// The entry for cpu::<name>: the same call without the table.
template <auto Op, typename R, typename... A>
R forward(cavs_device_ops *, A... arguments) {
  return Op(arguments...);
}
template <auto Op, typename R, typename... A>
constexpr auto entryOf(R (*)(A...)) {
  return &forward<Op, R, A...>;
}

cavs_device_ops makeTable() {
  cavs_device_ops ops{};
#define CAVS_OP(name, ret, params) ops.name = entryOf<&cpu::name>(&cpu::name);
#include "cavs/ops.def"
  ops.loss_sum = [](cavs_device_ops *, int64_t rows, const float *src,
                    int64_t ld,
                    double *total) { *total += cpu::loss_sum(rows, src, ld); };
  ops.launch = nullptr;
  ops.constant = [](cavs_device_ops *, const float *values, int64_t) {
    return values;
  };
  ops.run_rows = [](cavs_device_ops *, cavs_rows_kernel kernel, int64_t rows,
                    int64_t width, const int64_t *args, int32_t num_args) {
    // Every operand is read or written once per element (a scalar input
    // once per row, counted as a whole row: close enough for a threshold).
    const int64_t floats = rows * width * (num_args / 2);
    parallelRanges(rows, floats, [&](int64_t begin, int64_t end) {
      kernel(begin, end, args);
    });
  };
  return ops;
}

} // namespace

cavs_device_ops *cpuDeviceOps() {
  static cavs_device_ops table = makeTable();
  return &table;
}

} // namespace cavs::runtime
