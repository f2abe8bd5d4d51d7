//===- Options.h - command line of cavs-bench -------------------*- C++ -*-===//
//
// cavs-bench's own flags (workload, sweeps, model cache, ablation). They are
// parsed first; every other argument is kept for benchmark::Initialize, so
// Google Benchmark's flags (--benchmark_out=..., --benchmark_filter=...)
// work unchanged.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_BENCH_OPTIONS_H
#define CAVS_BENCH_OPTIONS_H

#include "cavs/schedule.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace cavs::bench {

/// A malformed command line; main prints it with a pointer to --help.
class UsageError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// What one benchmark iteration runs on a batch.
enum class Mode {
  /// Forward, backward and an Adagrad step.
  Train,
  /// Forward with the inference program.
  Infer,
};

/// "train" or "infer".
const char *modeName(Mode mode);

/// Which PyTorch baselines run (Baseline.h).
enum class BaselineMode {
  None,
  /// The loss equivalence check only.
  Equivalence,
  /// The check, then their throughput beside cavsc's.
  All,
};

struct Options {
  /// treelstm, treefc or chainlstm.
  std::string workload = "treelstm";
  /// Samples per batch.
  std::vector<int32_t> batches = {64};
  /// Hidden sizes: the model is compiled with -D H=h (and -D E=h when it
  /// has an embedding dim E).
  std::vector<int32_t> hiddens = {128, 512};
  std::vector<Mode> modes = {Mode::Train, Mode::Infer};
  /// Kernel thread counts (cavs_set_num_threads).
  std::vector<int32_t> threads = {1};
  /// GEMM engines (cavs_set_gemm_engine), run side by side; empty: the
  /// runtime's choice.
  std::vector<std::string> gemms;
  /// Minimum measured time per configuration.
  double minSeconds = 2;
  /// Times each configuration is measured: every configuration once per
  /// round, rounds one after the other, so that a drifting machine slows
  /// all of them alike; tables report the median.
  int32_t rounds = 1;
  /// The compiler; empty: the cavsc next to cavs-bench.
  std::string cavsc;
  /// Seconds one compile may run before cavsc is killed.
  double cavscTimeout = 600;
  /// Where compiled model libraries are kept; empty: $TMPDIR/cavs-bench-cache.
  std::string cache;
  /// The data folder of the workload; empty: its default under
  /// ../shared/data. A given folder that lacks the data is an error.
  std::string data;
  /// Loss at the roots only (labels of the other vertices set to -1).
  bool rootLoss = false;
  /// Run the optimization ablation (Cavs Fig. 10) instead of the sweep.
  bool ablation = false;
  /// Time the models' product pairs merged against separate (Products.h)
  /// instead of running a workload.
  bool products = false;
  /// How batches are cut into tasks (cavs/schedule.h).
  cavs_schedule_policy schedule = CAVS_SCHEDULE_LEVELS;
  /// Where the models run: cpu, cuda, cuda:N (cavs_device_parse).
  std::string device = "cpu";
  bool help = false;
  /// PyTorch baselines: which run, over how many compared steps, how long
  /// one script may run per configuration before it is killed, and the
  /// python3 with torch (empty: python3, else /usr/bin/python3).
  BaselineMode baselines = BaselineMode::All;
  int32_t baselineSteps = 5;
  double baselineTimeout = 600;
  std::string python;
  /// argv[0] and every argument that is not ours, for benchmark::Initialize.
  std::vector<char *> benchmarkArgs;
};

/// Parses the command line; throws UsageError.
Options parseOptions(int argc, char **argv);

/// The --help text.
std::string usage();

} // namespace cavs::bench

#endif // CAVS_BENCH_OPTIONS_H
