//===- Peak.cpp - the machine and its measured sgemm peak -----------------===//
#include "Peak.h"

#include "cavs/runtime.hpp"

#include <benchmark/benchmark.h>
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>

namespace cavs::bench {

namespace {

/// Best-of GFLOP/s of C = A·B (row-major, M x K times K x N) over at least
/// 10 calls and 0.5 s (the call least disturbed by other jobs), after 0.25 s
/// of warm-up calls (a cold process runs its first ones much slower).
double sgemmGflops(int32_t m, int32_t n, int32_t k) {
  std::vector<float> a(size_t(m) * k, 0.5f), b(size_t(k) * n, 0.25f),
      c(size_t(m) * n, 0.0f);
  using Clock = std::chrono::steady_clock;
  double best = 1e30;
  auto callFor = [&](std::chrono::milliseconds duration) {
    const auto start = Clock::now();
    for (int calls = 0; calls < 10 || Clock::now() - start < duration;
         ++calls) {
      const auto before = Clock::now();
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f,
                  a.data(), k, b.data(), n, 0.0f, c.data(), n);
      best = std::min(
          best, std::chrono::duration<double>(Clock::now() - before).count());
    }
  };
  callFor(std::chrono::milliseconds(250));
  best = 1e30;
  callFor(std::chrono::milliseconds(500));
  return 2.0 * m * n * k / best / 1e9;
}

} // namespace

std::string cpuModel() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line))
    if (line.rfind("model name", 0) == 0 && line.find(':') != line.npos)
      return line.substr(line.find(':') + 2);
  return "unknown";
}

std::string blasCore() { return openblas_get_corename(); }

std::vector<SgemmPeak> measureSgemmPeaks(const std::vector<int32_t> &threads) {
  std::vector<SgemmPeak> peaks;
  for (int32_t count : threads) {
    if (squarePeak(peaks, count) > 0)
      continue;
    cavs::check(cavs_set_num_threads(count));
    SgemmPeak peak;
    peak.threads = count;
    peak.openblasThreads = openblas_get_num_threads();
    peak.square = sgemmGflops(512, 512, 512);
    peak.skinny = sgemmGflops(64, 512, 512);
    peaks.push_back(peak);
  }
  return peaks;
}

void reportMachine(const std::vector<SgemmPeak> &peaks) {
  std::printf("machine: %s, %u hardware threads; OpenBLAS core %s\n",
              cpuModel().c_str(), std::thread::hardware_concurrency(),
              blasCore().c_str());
  benchmark::AddCustomContext("cpu_model", cpuModel());
  benchmark::AddCustomContext("openblas_core", blasCore());
  for (const SgemmPeak &peak : peaks) {
    std::printf("sgemm peak, %d thread%s (openblas_get_num_threads() = %d): "
                "512x512x512 %.1f GFLOP/s, 64x512x512 %.1f GFLOP/s\n",
                peak.threads, peak.threads == 1 ? "" : "s",
                peak.openblasThreads, peak.square, peak.skinny);
    const std::string suffix = "_threads_" + std::to_string(peak.threads);
    benchmark::AddCustomContext("sgemm_512_gflops" + suffix,
                                std::to_string(peak.square));
    benchmark::AddCustomContext("sgemm_64x512x512_gflops" + suffix,
                                std::to_string(peak.skinny));
  }
}

double squarePeak(const std::vector<SgemmPeak> &peaks, int32_t threads) {
  for (const SgemmPeak &peak : peaks)
    if (peak.threads == threads)
      return peak.square;
  return 0;
}

} // namespace cavs::bench
