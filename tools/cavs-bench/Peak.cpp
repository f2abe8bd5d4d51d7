//===- Peak.cpp - the machine and its measured sgemm peak -----------------===//
#include "Peak.h"

#include "cavs/ops.h"
#include "cavs/runtime.hpp"

#include <benchmark/benchmark.h>

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
      cavs_op_gemm(0, 0, m, n, k, 1.0f, a.data(), k, b.data(), n, 0.0f,
                   c.data(), n);
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

std::vector<SgemmPeak> measureSgemmPeaks(const std::vector<int32_t> &threads) {
  const std::string active = cavs_gemm_engine();
  std::vector<SgemmPeak> peaks;
  for (int32_t count : threads) {
    if (squarePeak(peaks, count) > 0)
      continue;
    cavs::check(cavs_set_num_threads(count));
    for (int32_t e = 0; e < cavs_num_gemm_engines(); ++e) {
      cavs::check(cavs_set_gemm_engine(cavs_gemm_engine_name(e)));
      SgemmPeak peak;
      peak.threads = count;
      peak.engine = cavs_gemm_engine();
      peak.kernel = cavs_gemm_kernel();
      peak.square = sgemmGflops(512, 512, 512);
      peak.skinny = sgemmGflops(64, 512, 512);
      peaks.push_back(peak);
    }
  }
  cavs::check(cavs_set_gemm_engine(active.c_str()));
  return peaks;
}

std::string hugePageMode() {
  std::ifstream enabled("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  std::getline(enabled, modes);
  const size_t open = modes.find('['), close = modes.find(']');
  if (open == modes.npos || close == modes.npos || close < open)
    return "absent";
  return modes.substr(open + 1, close - open - 1);
}

void reportMachine(const std::vector<SgemmPeak> &peaks,
                   const std::vector<std::string> &rowEngines) {
  // "onednn (avx512_core)", or with --gemm each row's engine and kernel.
  std::string engines =
      std::string(cavs_gemm_engine()) + " (" + cavs_gemm_kernel() + ")";
  std::string engineNames = cavs_gemm_engine(), kernels = cavs_gemm_kernel();
  if (!rowEngines.empty()) {
    engines = "per row (/gemm:E)", engineNames.clear(), kernels.clear();
    for (const std::string &engine : rowEngines) {
      auto peak =
          std::find_if(peaks.begin(), peaks.end(),
                       [&](const SgemmPeak &p) { return p.engine == engine; });
      const std::string kernel = peak == peaks.end() ? "?" : peak->kernel;
      engines +=
          (engineNames.empty() ? " " : ", ") + engine + " (" + kernel + ")";
      engineNames += (engineNames.empty() ? "" : ",") + engine;
      kernels += (kernels.empty() ? "" : ",") + kernel;
    }
  }
  const std::string hugePages = hugePageMode();
  std::printf("machine: %s, %u hardware threads; GEMM engine %s; "
              "transparent huge pages: %s\n",
              cpuModel().c_str(), std::thread::hardware_concurrency(),
              engines.c_str(), hugePages.c_str());
  benchmark::AddCustomContext("cpu_model", cpuModel());
  benchmark::AddCustomContext("gemm_engine", engineNames);
  benchmark::AddCustomContext("gemm_kernel", kernels);
  benchmark::AddCustomContext("transparent_hugepages", hugePages);
  for (const SgemmPeak &peak : peaks) {
    std::printf("sgemm, %d thread%s, %s (%s): 512x512x512 %.1f GFLOP/s, "
                "64x512x512 %.1f GFLOP/s\n",
                peak.threads, peak.threads == 1 ? "" : "s",
                peak.engine.c_str(), peak.kernel.c_str(), peak.square,
                peak.skinny);
    const std::string suffix =
        "_" + peak.engine + "_threads_" + std::to_string(peak.threads);
    benchmark::AddCustomContext("sgemm_512_gflops" + suffix,
                                std::to_string(peak.square));
    benchmark::AddCustomContext("sgemm_64x512x512_gflops" + suffix,
                                std::to_string(peak.skinny));
  }
  for (const SgemmPeak &peak : peaks)
    if (peak.square == squarePeak(peaks, peak.threads))
      std::printf("sgemm peak, %d thread%s (%% of peak below): %.1f "
                  "GFLOP/s, %s\n",
                  peak.threads, peak.threads == 1 ? "" : "s", peak.square,
                  peak.engine.c_str());
}

double squarePeak(const std::vector<SgemmPeak> &peaks, int32_t threads) {
  double best = 0;
  for (const SgemmPeak &peak : peaks)
    if (peak.threads == threads)
      best = std::max(best, peak.square);
  return best;
}

} // namespace cavs::bench
