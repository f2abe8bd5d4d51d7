//===- CpuDeviceOps.h - the CPU's device op table -------------------------===//
//
// The CPU is a device like a GPU: its phase functions call every runtime op
// through a cavs_device_ops table too (cavs_call::device), this one, whose
// entries run the cavs/ops.h kernels on host memory. So the compiler emits
// one form of every call for both targets.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_OPS_CPUDEVICEOPS_H
#define CAVS_RUNTIME_OPS_CPUDEVICEOPS_H

#include "cavs/device_ops.h"

namespace cavs::runtime {

/// The CPU's table (one for the process; its entries keep no state).
cavs_device_ops *cpuDeviceOps();

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_OPS_CPUDEVICEOPS_H
