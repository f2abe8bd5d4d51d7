//===- Metrics.cpp - training curves as JSON lines (--metrics) ------------===//
#include "Metrics.h"

#include "ArgParser.h"
#include "OutputFiles.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <unistd.h>

namespace cavs_examples {

namespace {
/// Per second; NaN (null) for a pass that took no measurable time.
double rate(double count, double seconds) {
  return seconds > 0 ? count / seconds : NAN;
}

/// A split's object: its loss in the app's unit, sizes and throughput,
/// for a training pass the seconds per phase, then the app's figures.
JsonObject splitObject(const PassStats &stats, const LossUnit &unit,
                       const Figures &figures, bool training) {
  JsonObject split;
  split.number("loss", unit.of(stats))
      .integer("samples", stats.samples)
      .integer("targets", stats.targets)
      .integer("vertices", stats.vertices)
      .number("seconds", stats.seconds)
      .number("samples_per_second", rate(stats.samples, stats.seconds))
      .number("vertices_per_second",
              rate(double(stats.vertices), stats.seconds))
      .number("tasks_per_batch", stats.tasksPerBatch());
  if (training) {
    JsonObject phases;
    phases.number("forward", stats.forward)
        .number("backward", stats.backward)
        .number("update", stats.update)
        .number("batching", stats.batching)
        .number("exchange", stats.exchange);
    split.object("phases", phases);
  }
  for (const auto &[name, value] : figures)
    split.number(name, value);
  return split;
}
/// The number after `"name": ` in a metrics line; 0 when there is none.
double memberValue(const std::string &line, const std::string &name) {
  const std::string key = "\"" + name + "\": ";
  const size_t at = line.find(key);
  return at == std::string::npos
             ? 0
             : std::strtod(line.c_str() + at + key.size(), nullptr);
}
} // namespace

MetricsLog::MetricsLog(const TrainOptions &options, bool writer)
    : path_(options.metrics), everySteps_(options.metricsEvery),
      resuming_(!options.resume.empty()),
      enabled_(!options.metrics.empty() && writer) {
  if (!enabled_)
    return;
  requireWritableFile("--metrics", path_, path_);
  if (std::filesystem::exists(path_) && ::access(path_.c_str(), W_OK) != 0)
    throw UsageError("--metrics " + path_ +
                     ": cannot write: " + std::strerror(errno));
  requireSeparateOutputs(options);
}

void MetricsLog::continueAfter(int32_t epoch) {
  if (!enabled())
    return;
  std::ifstream in(path_);
  std::string line, kept;
  double wallSeconds = 0;
  const std::string start = "{\"event\": \"";
  for (int64_t number = 1; std::getline(in, line); ++number) {
    // A last line without its newline was cut by a kill or a full disk
    // while the run wrote it: it goes, as the lines after the checkpoint.
    const bool cut = in.eof();
    if (cut && line.compare(0, start.size(), start, 0,
                            std::min(line.size(), start.size())) == 0)
      break;
    // Another file given by mistake would be kept, with the run's lines
    // appended to it.
    if (line.rfind(start, 0) != 0 || line.back() != '}')
      throw UsageError("--metrics " + path_ + ": line " +
                       std::to_string(number) +
                       " is no metrics line of a run; resume with the run's "
                       "own --metrics file or a new one");
    // Lines this log wrote: "epoch" and "wall_seconds" are top-level
    // numbers that no nested object repeats.
    if (memberValue(line, "epoch") > epoch)
      continue;
    kept += line + "\n";
    wallSeconds = std::max(wallSeconds, memberValue(line, "wall_seconds"));
  }
  file_.reset(std::fopen(path_.c_str(), "w"));
  if (!file_ || std::fputs(kept.c_str(), file_.get()) < 0 ||
      std::fflush(file_.get()) != 0)
    throw std::runtime_error("--metrics " + path_ +
                             ": cannot write: " + std::strerror(errno));
  start_ = Clock::now() - std::chrono::duration_cast<Clock::duration>(
                              std::chrono::duration<double>(wallSeconds));
}

JsonObject MetricsLog::head(const char *event, int32_t epoch,
                            const cavs::Optimizer &optimizer,
                            const LossUnit &unit) const {
  JsonObject line;
  line.text("event", event)
      .integer("epoch", epoch)
      .integer("step", optimizer.stepCount())
      .number("wall_seconds", secondsSince(start_))
      .number("lr", optimizer.options().learning_rate)
      .text("loss_unit", unit.name);
  return line;
}

void MetricsLog::step(int32_t epoch, const cavs::Optimizer &optimizer,
                      const LossUnit &unit, const PassStats &train) {
  if (!enabled() || everySteps_ <= 0 ||
      optimizer.stepCount() % everySteps_ != 0)
    return;
  write(head("step", epoch, optimizer, unit)
            .object("train", splitObject(train, unit, {}, true)));
}

void MetricsLog::epoch(int32_t epoch, const cavs::Optimizer &optimizer,
                       const LossUnit &unit, const Split &train,
                       const Split &eval) {
  if (!enabled())
    return;
  write(head("epoch", epoch, optimizer, unit)
            .object(train.name,
                    splitObject(train.stats, unit, train.figures, true))
            .object(eval.name,
                    splitObject(eval.stats, unit, eval.figures, false)));
}

void MetricsLog::write(const JsonObject &line) {
  // A resumed run has opened the file in continueAfter.
  if (!file_) {
    file_.reset(std::fopen(path_.c_str(), resuming_ ? "a" : "w"));
    if (!file_)
      throw std::runtime_error("--metrics " + path_ +
                               ": cannot write: " + std::strerror(errno));
  }
  const std::string text = line.str() + "\n";
  if (std::fputs(text.c_str(), file_.get()) < 0 ||
      std::fflush(file_.get()) != 0)
    throw std::runtime_error("--metrics " + path_ +
                             ": write failed: " + std::strerror(errno));
}

Figures perplexityFigures(const PassStats &pass, bool) {
  return {{"perplexity", std::exp(pass.lossPerTarget())}};
}

} // namespace cavs_examples
