//===- Baseline.h - PyTorch baselines on identical math ---------*- C++ -*-===//
//
// For each training configuration of the tree-LSTM, tree-FC and chain-LSTM
// workloads, cavs-bench runs PyTorch versions of the model
// (tools/cavs-bench/baselines/<model>.py): `level` batches the vertices of
// the whole batch level by level (what an expert writes by hand),
// `per-sample` recurses over one sample at a time (dynamic declaration).
// Both start from the cavs model instance's initial parameters on the same
// batches (BaselineExport.h); their losses over the first steps must equal
// cavs's within 1e-4 relative (PASS/FAIL; a failure makes cavs-bench exit
// 1), and with --baselines=all their throughput becomes extra Google
// Benchmark entries beside cavsc's. A script that fails, dies or runs past
// --baseline-timeout (then killed) is a FAIL too, and the run goes on.
// Without a python3 that imports torch they are skipped with a message.
// See docs/performance.md.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_BENCH_BASELINE_H
#define CAVS_BENCH_BASELINE_H

#include "Options.h"
#include "Runner.h"
#include "Workloads.h"

#include <deque>
#include <set>
#include <string>
#include <vector>

namespace cavs::bench {

class Baselines {
public:
  /// Finds python3 with torch and prints whether baselines will run and
  /// why not.
  Baselines(const Options &options, Workload &workload);
  /// Removes the exported folders, unless a check failed.
  ~Baselines();

  /// For a train configuration: checks every implementation against cavs
  /// now, and registers the benchmarks of their timing (after cavsc's runs
  /// `cavsc`, one per round, whose median samples/s the ratio counters use).
  void add(const Config &config, std::vector<const Measurement *> cavsc);
  /// Prints samples/s of cavsc and each baseline side by side.
  void printSummary(const std::string &workload) const;
  /// Whether an equivalence check failed.
  bool failed() const { return failed_; }

private:
  /// What one script run reported.
  struct Result {
    Config config;
    std::string impl;
    std::vector<const Measurement *> cavsc;
    std::vector<double> batchSeconds;
    double samples = 0, vertices = 0, maxRelDiff = 0;
    bool passed = false;
  };

  /// The folder holding the inputs of `config` (exported on first use).
  std::string exportFor(const Config &config);
  /// cavs's losses over the first steps, from seed 1.
  std::vector<double> cavsLosses(const Config &config);
  void check(Result &result, const std::vector<double> &reference);
  void registerBenchmark(const Result &result);
  void reportSettings(int32_t threads, const std::string &resultPath);

  const Options &options_;
  Workload &workload_;
  /// The script of the workload; empty when baselines do not run.
  std::string script_;
  std::string python_;
  std::string folder_;
  std::set<std::string> exported_;
  std::set<int32_t> reportedThreads_;
  std::deque<Result> results_;
  bool failed_ = false;
};

} // namespace cavs::bench

#endif // CAVS_BENCH_BASELINE_H
