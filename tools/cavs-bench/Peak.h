//===- Peak.h - the machine and its measured sgemm peak ---------*- C++ -*-===//
//
// Achieved GFLOP/s mean little without the machine's own ceiling, so
// cavs-bench first times OpenBLAS's cblas_sgemm (the library and thread
// count the models' matrix products use) on the square 512 x 512 x 512
// product and on a batch-shaped 64 x 512 x 512 one, for every thread count
// it will run with, and reports them with the CPU and the OpenBLAS kernel.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_BENCH_PEAK_H
#define CAVS_BENCH_PEAK_H

#include <cstdint>
#include <string>
#include <vector>

namespace cavs::bench {

/// sgemm speed with one kernel thread count, in GFLOP/s.
struct SgemmPeak {
  int32_t threads = 0;
  /// What openblas_get_num_threads() reported after setting `threads`.
  int32_t openblasThreads = 0;
  /// M = N = K = 512: the reference for "% of peak".
  double square = 0;
  /// M = 64, N = K = 512.
  double skinny = 0;
};

/// The CPU model name from /proc/cpuinfo ("unknown" elsewhere).
std::string cpuModel();

/// The OpenBLAS kernel family (openblas_get_corename()).
std::string blasCore();

/// Times sgemm with each thread count (set through cavs_set_num_threads);
/// takes about 1.5 s per count.
std::vector<SgemmPeak> measureSgemmPeaks(const std::vector<int32_t> &threads);

/// Prints the machine and the peaks, and records them in Google Benchmark's
/// context (the JSON output's "context").
void reportMachine(const std::vector<SgemmPeak> &peaks);

/// The 512 figure measured with `threads` threads (0 when not measured).
double squarePeak(const std::vector<SgemmPeak> &peaks, int32_t threads);

} // namespace cavs::bench

#endif // CAVS_BENCH_PEAK_H
