//===- Peak.h - the machine and its measured sgemm peak ---------*- C++ -*-===//
//
// Achieved GFLOP/s mean little without the machine's own ceiling, so
// cavs-bench first times the runtime's gemm op on every GEMM engine built
// into the runtime (the engines the models' matrix products can use) on the
// square 512 x 512 x 512 product and on a batch-shaped 64 x 512 x 512 one,
// for every thread count it will run with, and reports them with the CPU
// and each engine's kernel. "% of peak" is against the best engine.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_BENCH_PEAK_H
#define CAVS_BENCH_PEAK_H

#include <cstdint>
#include <string>
#include <vector>

namespace cavs::bench {

/// sgemm speed of one engine with one kernel thread count, in GFLOP/s.
struct SgemmPeak {
  int32_t threads = 0;
  /// The engine (cavs_gemm_engine) and its kernel (cavs_gemm_kernel).
  std::string engine, kernel;
  /// M = N = K = 512: the reference for "% of peak".
  double square = 0;
  /// M = 64, N = K = 512.
  double skinny = 0;
};

/// The CPU model name from /proc/cpuinfo ("unknown" elsewhere).
std::string cpuModel();

/// The kernel's transparent huge page mode (always, madvise or never;
/// "absent" without them): the runtime's large arrays are in huge pages
/// unless it is never (params/AlignedBuffer.h), which moves the figures.
std::string hugePageMode();

/// Times sgemm on each engine with each thread count (set through
/// cavs_set_num_threads); takes about 1.5 s per engine and count. The
/// active engine is left as it was.
std::vector<SgemmPeak> measureSgemmPeaks(const std::vector<int32_t> &threads);

/// Prints the machine, the GEMM engine the runs use (each of `rowEngines`,
/// --gemm, in the rows named after it; the active one when empty) and the
/// peaks, and records them in Google Benchmark's context (the JSON output's
/// "context").
void reportMachine(const std::vector<SgemmPeak> &peaks,
                   const std::vector<std::string> &rowEngines);

/// The best engine's 512 figure with `threads` threads (0 when not
/// measured).
double squarePeak(const std::vector<SgemmPeak> &peaks, int32_t threads);

} // namespace cavs::bench

#endif // CAVS_BENCH_PEAK_H
