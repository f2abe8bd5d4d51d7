//===- Runner.cpp - one Google Benchmark per configuration ----------------===//
#include "Runner.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace cavs::bench {

namespace {

using Clock = std::chrono::steady_clock;

/// Sums over the measured batches of one run.
struct Totals {
  int64_t batches = 0, samples = 0, vertices = 0, tasks = 0, levels = 0,
          taskBound = 0;
  double seconds = 0, flops = 0, copyBytes = 0;
  cavs_model_timing phases{};

  void add(const cavs::Model &model, Mode mode, const cavs::GraphBatch &batch,
           int64_t batchTaskBound, double elapsed) {
    ++batches;
    taskBound += batchTaskBound;
    samples += batch.numSamples();
    vertices += batch.numVertices();
    tasks += model.numTasks();
    levels += model.numLevels();
    seconds += elapsed;
    const cavs_model_work work = cavs_model_last_work(model.get());
    const cavs_model_timing t = model.timing();
    flops += work.forward_flops;
    copyBytes += work.copy_bytes;
    phases.schedule += t.schedule;
    phases.forward_eager += t.forward_eager;
    phases.forward_body += t.forward_body;
    phases.forward_lazy += t.forward_lazy;
    // In infer mode the backward and optimizer fields describe an earlier
    // training pass, if any.
    if (mode == Mode::Train) {
      flops += work.backward_flops;
      phases.backward_eager += t.backward_eager;
      phases.backward_body += t.backward_body;
      phases.backward_lazy += t.backward_lazy;
      phases.optimizer += t.optimizer;
    }
  }
};

/// Training iterations read no output, so they skip writing them, as a
/// training loop that only wants the loss would
/// (cavs_model_set_output_enabled); inference writes them: they are its
/// result.
void enableOutputs(cavs::Model &model, const cavs_model_def &def,
                   bool enabled) {
  const cavs_program_desc &program = def.train;
  for (int32_t f = 0; f < program.num_functions; ++f)
    for (int32_t i = 0; i < program.functions[f].num_pushes; ++i)
      model.setOutputEnabled(program.functions[f].pushes[i].name, enabled);
}

/// One batch: what an iteration measures.
void runBatch(cavs::Model &model, cavs::Optimizer &optimizer, Mode mode,
              const cavs::GraphBatch &batch) {
  if (mode == Mode::Infer) {
    model.infer(batch);
    return;
  }
  model.forward(batch);
  model.backward();
  model.step(optimizer);
}

} // namespace

std::string Config::name(const std::string &workload) const {
  return workload + "/" + modeName(mode) + "/bs:" + std::to_string(batch) +
         "/h:" + std::to_string(hidden) +
         "/threads:" + std::to_string(threads) +
         (gemm.empty() ? "" : "/gemm:" + gemm) +
         (variant.empty() ? "" : "/" + variant) +
         (round == 0 ? "" : "/round:" + std::to_string(round));
}

std::vector<double>
finishedRates(const std::vector<const Measurement *> &runs) {
  std::vector<double> rates;
  for (const Measurement *run : runs)
    if (run->done)
      rates.push_back(run->samplesPerSecond);
  std::sort(rates.begin(), rates.end());
  return rates;
}

double median(std::vector<double> values) {
  if (values.empty())
    return 0;
  std::sort(values.begin(), values.end());
  const size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle]
                           : (values[middle - 1] + values[middle]) / 2;
}

Measurement medianOf(const std::vector<const Measurement *> &runs) {
  const std::vector<double> rates = finishedRates(runs);
  if (rates.empty())
    return Measurement{};
  return Measurement{true, median(rates)};
}

bool runRegisteredBenchmarks() {
  if (benchmark::RunSpecifiedBenchmarks() > 0)
    return true;
  std::fprintf(stderr, "cavs-bench: no benchmark ran\n");
  return false;
}

Runner::Runner(Workload &workload, std::vector<SgemmPeak> peaks,
               double minSeconds, cavs_schedule_policy schedule,
               std::string device)
    : workload_(workload), peaks_(std::move(peaks)), minSeconds_(minSeconds),
      schedule_(schedule), device_(std::move(device)) {}

const Measurement &Runner::add(const Config &config) {
  Entry &entry = entries_.emplace_back(Entry{config, {}});
  // Runs under another schedule get their own names.
  const std::string suffix =
      (schedule_ == CAVS_SCHEDULE_FEWEST_TASKS ? "/sched:fewest-tasks" : "") +
      (device_ == "cpu" ? "" : "/device:" + device_);
  benchmark::RegisterBenchmark(
      (config.name(workload_.name) + suffix).c_str(),
      [this, &entry](benchmark::State &state) { run(state, entry); })
      ->UseManualTime()
      ->MinTime(minSeconds_)
      ->Unit(benchmark::kMillisecond);
  return entry.measurement;
}

cavs::Model &Runner::instance(const cavs_model_def *def) {
  if (def != liveDef_) {
    optimizer_.reset();
    model_.reset();
    liveDef_ = nullptr;
    model_ = std::make_unique<cavs::Model>(*def, /*seed=*/1, device_);
    model_->setSchedulePolicy(schedule_);
    optimizer_ = std::make_unique<cavs::Optimizer>(
        model_->params(),
        cavs::Optimizer::defaults(cavs::OptimizerKind::Adagrad));
    liveDef_ = def;
  }
  return *model_;
}

void Runner::run(benchmark::State &state, Entry &entry) {
  const Config &config = entry.config;
  try {
    cavs::check(cavs_set_num_threads(config.threads));
    if (!config.gemm.empty())
      cavs::check(cavs_set_gemm_engine(config.gemm.c_str()));
    const std::vector<cavs::GraphBatch> &batches =
        workload_.batches(config.batch);
    cavs::Model &model = instance(config.def);
    enableOutputs(model, *config.def, config.mode == Mode::Infer);
    if (warm_ != &entry) {
      // The largest batch grows the buffers to their final size.
      runBatch(model, *optimizer_, config.mode,
               *std::max_element(batches.begin(), batches.end(),
                                 [](const auto &a, const auto &b) {
                                   return a.numVertices() < b.numVertices();
                                 }));
      warm_ = &entry;
    }
    Totals totals;
    size_t next = 0;
    for (auto _ : state) {
      const size_t index = next++ % batches.size();
      const cavs::GraphBatch &batch = batches[index];
      const auto start = Clock::now();
      runBatch(model, *optimizer_, config.mode, batch);
      const double seconds =
          std::chrono::duration<double>(Clock::now() - start).count();
      state.SetIterationTime(seconds);
      totals.add(model, config.mode, batch,
                 workload_.taskBounds(config.batch)[index], seconds);
    }

    const double seconds = totals.seconds, batchCount = double(totals.batches);
    const double gflops = totals.flops / seconds / 1e9;
    const double peak = squarePeak(peaks_, config.threads);
    auto share = [&](double phase) { return 100 * phase / seconds; };
    const cavs_model_timing &p = totals.phases;
    state.counters["samples/s"] = double(totals.samples) / seconds;
    state.counters["vertices/s"] = double(totals.vertices) / seconds;
    state.counters["ms/batch"] = 1e3 * seconds / batchCount;
    state.counters["GFLOP/s"] = gflops;
    state.counters["%peak"] = peak > 0 ? 100 * gflops / peak : 0;
    // The batches are built before the measurement; their build time
    // counts as part of every batch.
    const double build = workload_.buildSeconds(config.batch) * batchCount;
    state.counters["build%"] = 100 * build / (seconds + build);
    state.counters["sched%"] = share(p.schedule);
    state.counters["fwdE%"] = share(p.forward_eager);
    state.counters["fwdB%"] = share(p.forward_body);
    state.counters["fwdL%"] = share(p.forward_lazy);
    state.counters["bwdE%"] = share(p.backward_eager);
    state.counters["bwdB%"] = share(p.backward_body);
    state.counters["bwdL%"] = share(p.backward_lazy);
    state.counters["opt%"] = share(p.optimizer);
    state.counters["tasks"] = double(totals.tasks) / batchCount;
    state.counters["levels"] = double(totals.levels) / batchCount;
    state.counters["taskLB"] = double(totals.taskBound) / batchCount;
    state.counters["copyMB"] = totals.copyBytes / batchCount / 1e6;
    entry.measurement.done = true;
    entry.measurement.samplesPerSecond = double(totals.samples) / seconds;
  } catch (const std::exception &error) {
    failed_ = true;
    state.SkipWithError(error.what());
  }
}

} // namespace cavs::bench
