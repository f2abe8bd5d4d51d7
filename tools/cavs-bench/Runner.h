//===- Runner.h - one Google Benchmark per configuration --------*- C++ -*-===//
//
// A configuration is a compiled model, a mode, a batch size and a thread
// count. Its benchmark cycles through the workload's batches in order; one
// iteration is one batch (train: forward, backward and an Adagrad step;
// infer: a forward pass of the inference program), timed by hand so that
// nothing but the runtime calls is measured. Counters report throughput,
// achieved GFLOP/s against the sgemm peak, where the time goes (the
// runtime's phase timing), tasks against the schedule's lower bound and the
// bytes gathered and scattered.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_BENCH_RUNNER_H
#define CAVS_BENCH_RUNNER_H

#include "Options.h"
#include "Peak.h"
#include "Workloads.h"

#include "cavs/runtime.hpp"

#include <benchmark/benchmark.h>

#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace cavs::bench {

struct Config {
  Mode mode = Mode::Train;
  int32_t batch = 0;
  int32_t hidden = 0;
  int32_t threads = 1;
  /// The GEMM engine (cavs_set_gemm_engine); empty: the runtime's choice.
  std::string gemm;
  /// The compiled model; the variant names how (empty: all optimizations).
  const cavs_model_def *def = nullptr;
  std::string variant;
  /// Which of --rounds this run is (1-based); 0 when there is one round.
  int32_t round = 0;

  /// "treelstm/train/bs:64/h:128/threads:1[/gemm:E][/variant][/round:R]".
  std::string name(const std::string &workload) const;
};

/// What the last run of a configuration measured.
struct Measurement {
  bool done = false;
  double samplesPerSecond = 0;
};

/// The samples/s of the finished runs (of a configuration's rounds), in
/// increasing order.
std::vector<double> finishedRates(const std::vector<const Measurement *> &runs);

/// The median of `values`; 0 when there are none.
double median(std::vector<double> values);

/// The median of the finished runs; not done when none finished.
Measurement medianOf(const std::vector<const Measurement *> &runs);

/// Runs the registered benchmarks; false, with a message, when none ran
/// (a --benchmark_filter that matches none or does not compile, which
/// Google Benchmark reports but does not fail).
bool runRegisteredBenchmarks();

class Runner {
public:
  /// Every model instance batches with `schedule` and runs on `device`.
  Runner(Workload &workload, std::vector<SgemmPeak> peaks, double minSeconds,
         cavs_schedule_policy schedule, std::string device);

  /// Registers the benchmark of `config`. Its result is written to the
  /// returned measurement, which lives as long as the runner.
  const Measurement &add(const Config &config);

  /// Whether a benchmark failed (it is then reported with its error).
  bool failed() const { return failed_; }

private:
  struct Entry {
    Config config;
    Measurement measurement;
  };

  void run(benchmark::State &state, Entry &entry);
  /// The instance of `def`, created on first use. Only one is kept, so
  /// sweeps over large models do not hold them all.
  cavs::Model &instance(const cavs_model_def *def);

  Workload &workload_;
  std::vector<SgemmPeak> peaks_;
  double minSeconds_;
  cavs_schedule_policy schedule_;
  std::string device_;
  std::deque<Entry> entries_;
  const cavs_model_def *liveDef_ = nullptr;
  std::unique_ptr<cavs::Model> model_;
  std::unique_ptr<cavs::Optimizer> optimizer_;
  /// The entry whose first batch has run untimed (buffers grown, caches
  /// warm).
  const Entry *warm_ = nullptr;
  bool failed_ = false;
};

} // namespace cavs::bench

#endif // CAVS_BENCH_RUNNER_H
