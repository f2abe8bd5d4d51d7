//===- CpuDispatch.h - hot runtime loops built for the CPU they run on ----===//
//
// The runtime is compiled for baseline x86-64 (SSE2), so one library runs on
// every x86-64 CPU. The loops over memory that a training step spends time
// in outside the GEMMs and the generated kernels (column sums, rows added
// into indexed rows, the optimizers' updates) are also compiled for AVX2
// (x86-64-v3) and AVX-512 (x86-64-v4): GCC's target_clones makes one copy
// per level and an ifunc that the loader resolves to the widest the CPU
// has. The ops and optimizer libraries are compiled without floating-point
// contraction (-ffp-contract=off), so no copy fuses a multiply and an add
// that the baseline rounds twice: every copy computes the same bits.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_SUPPORT_CPUDISPATCH_H
#define CAVS_RUNTIME_SUPPORT_CPUDISPATCH_H

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define CAVS_CPU_DISPATCH                                                      \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3",          \
                               "default")))
#else
#define CAVS_CPU_DISPATCH
#endif

#endif // CAVS_RUNTIME_SUPPORT_CPUDISPATCH_H
