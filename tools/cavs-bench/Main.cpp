//===- Main.cpp - cavs-bench: throughput of compiled models ---------------===//
//
// Compiles an example model with cavsc for each hidden size (or each
// ablation variant), loads or generates its data set, measures the sgemm
// peak, registers one Google Benchmark per configuration and runs them.
// See docs/performance.md.
//
//===----------------------------------------------------------------------===//
#include "Ablation.h"
#include "Baseline.h"
#include "ModelCache.h"
#include "Options.h"
#include "Peak.h"
#include "Products.h"
#include "Runner.h"
#include "Workloads.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace {

using namespace cavs::bench;

/// Compiles (or reuses) `variant` of the workload's model at `hidden`.
const cavs_model_def *compile(ModelCache &cache, const ModelSource &source,
                              int32_t hidden, const Variant &variant) {
  const CompiledModel model = cache.get(source, hidden, variant);
  std::printf("model: %s (%s)\n", model.libraryPath.c_str(),
              model.cached ? "cached" : "compiled");
  return model.def;
}

/// The configurations of the sweep: every hidden size, batch size, mode,
/// thread count and GEMM engine, hidden size outermost (one model instance
/// at a time), engines innermost (side by side).
std::vector<Config> sweep(const Options &options, ModelCache &cache,
                          const ModelSource &source) {
  std::vector<Config> configs;
  for (int32_t hidden : options.hiddens) {
    const cavs_model_def *def = compile(cache, source, hidden, Variant{});
    for (int32_t batch : options.batches)
      for (Mode mode : options.modes)
        for (int32_t threads : options.threads) {
          if (options.gemms.empty())
            configs.push_back(
                Config{mode, batch, hidden, threads, "", def, ""});
          for (const std::string &gemm : options.gemms)
            configs.push_back(
                Config{mode, batch, hidden, threads, gemm, def, ""});
        }
  }
  return configs;
}

/// The ablation's configurations: the first batch size, hidden size and
/// mode, one per step, on the --gemm engine if one is given.
std::vector<Config> ablation(const Options &options, ModelCache &cache,
                             const ModelSource &source,
                             const std::vector<AblationStep> &steps) {
  std::vector<Config> configs;
  for (const AblationStep &step : steps)
    configs.push_back(Config{
        options.modes.front(), options.batches.front(), options.hiddens.front(),
        step.threads, options.gemms.empty() ? "" : options.gemms.front(),
        compile(cache, source, options.hiddens.front(), step.variant),
        step.variant.name});
  return configs;
}

int run(const Options &options) {
  if (options.products)
    return runProducts(options);
  std::optional<Workload> workload = makeWorkload(options);
  if (!workload)
    return 0;
  ModelCache cache(options.cavsc, options.cache, options.device != "cpu",
                   options.cavscTimeout);
  const ModelSource source = ModelSource::read(workload->modelPath);
  const std::vector<AblationStep> steps = ablationSteps();
  const std::vector<Config> configs =
      options.ablation ? ablation(options, cache, source, steps)
                       : sweep(options, cache, source);

  std::vector<int32_t> threads;
  for (const Config &config : configs)
    if (std::find(threads.begin(), threads.end(), config.threads) ==
        threads.end())
      threads.push_back(config.threads);
  const std::vector<SgemmPeak> peaks = measureSgemmPeaks(threads);
  reportMachine(peaks, options.gemms);
  Baselines baselines(options, *workload);
  std::printf("workload: %s, %s%s\n", workload->name.c_str(),
              workload->description.c_str(),
              workload->rootsOnly.empty() ? "" : "; loss at the roots only");
  std::fflush(stdout);

  Runner runner(*workload, peaks, options.minSeconds, options.schedule,
                options.device);
  benchmark::AddCustomContext("device", options.device);
  // runs[i]: configuration i's run in each round.
  std::vector<std::vector<const Measurement *>> runs(configs.size());
  for (int32_t round = 1; round <= options.rounds; ++round)
    for (size_t i = 0; i < configs.size(); ++i) {
      Config config = configs[i];
      config.round = options.rounds > 1 ? round : 0;
      runs[i].push_back(&runner.add(config));
    }
  // One baseline per configuration, beside the first engine's run; its
  // benchmarks run after all of cavsc's rounds.
  for (size_t i = 0; i < configs.size(); ++i)
    if (options.gemms.empty() || configs[i].gemm == options.gemms.front())
      baselines.add(configs[i], runs[i]);
  if (!runRegisteredBenchmarks())
    return 1;
  if (options.ablation)
    printAblationTable(steps, runs);
  baselines.printSummary(workload->name);
  return runner.failed() || baselines.failed() ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  try {
    Options options = parseOptions(argc, argv);
    if (options.help) {
      std::cout << usage();
      return 0;
    }
    int benchmarkArgc = int(options.benchmarkArgs.size());
    options.benchmarkArgs.push_back(nullptr);
    benchmark::Initialize(&benchmarkArgc, options.benchmarkArgs.data());
    if (benchmark::ReportUnrecognizedArguments(benchmarkArgc,
                                               options.benchmarkArgs.data()))
      return 2;
    const int status = run(options);
    benchmark::Shutdown();
    return status;
  } catch (const UsageError &error) {
    std::cerr << "cavs-bench: " << error.what() << " (see cavs-bench --help)\n";
    return 2;
  } catch (const cavs::Error &error) {
    std::cerr << "cavs-bench: error: " << error.what() << " ["
              << cavs_status_string(error.status()) << "]\n";
    return 1;
  } catch (const std::exception &error) {
    std::cerr << "cavs-bench: error: " << error.what() << "\n";
    return 1;
  }
}
