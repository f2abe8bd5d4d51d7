//===- Threads.h - the process-wide kernel thread count -------------------===//
//
// The matrix products of the generated code run on OpenBLAS threads. Their
// number is process-wide: $CAVS_NUM_THREADS or the number of cores by
// default, applied when the first model instance is created, and changed by
// cavs_set_num_threads.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_EXEC_THREADS_H
#define CAVS_RUNTIME_EXEC_THREADS_H

namespace cavs::runtime {

/// Applies the default thread count to OpenBLAS, once per process (later
/// calls do nothing); cavs_set_num_threads overrides it.
void initKernelThreads();

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_EXEC_THREADS_H
