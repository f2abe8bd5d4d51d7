//===- ThreadsApi.cpp - the C ABI of the kernel thread count --------------===//
//
// cavs_set_num_threads and cavs_num_threads (cavs/instance.h) over the
// executor's process-wide count (exec/Threads.h).
//
//===----------------------------------------------------------------------===//
#include "cavs/instance.h"
#include "exec/Threads.h"
#include "support/Guard.h"

using namespace cavs::runtime;

extern "C" {

cavs_status cavs_set_num_threads(int32_t threads) {
  return guard([&] { return setKernelThreads(threads); });
}

int32_t cavs_num_threads(void) { return kernelThreads(); }

} // extern "C"
