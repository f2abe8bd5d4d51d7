//===- Metrics.h - training curves as JSON lines (--metrics) ----*- C++ -*-===//
//
// --metrics FILE gets one JSON object per line: one per epoch (the training
// pass, the evaluation, the app's figures such as accuracy or perplexity)
// and, with --metrics-every N, one every N optimizer steps (the epoch's
// training so far). Each line is flushed as it is written, so a run that
// crashes or is killed loses none. The schema is in examples/README.md
// ("Metrics"); tools/plot-metrics.py draws the curves.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_EXAMPLES_METRICS_H
#define CAVS_EXAMPLES_METRICS_H

#include "Json.h"
#include "TrainOptions.h"
#include "Trainer.h"

#include "cavs/runtime.hpp"

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

namespace cavs_examples {

class MetricsLog {
public:
  /// One split of an epoch line: its name, pass and figures.
  struct Split {
    std::string_view name;
    const PassStats &stats;
    const Figures &figures;
  };

  /// The curves of a run with `options` (--metrics, --metrics-every, and
  /// --resume, which keeps the file's lines: see continueAfter). Checks at
  /// once that the file can be written and is not one of the run's
  /// checkpoints (UsageError), but opens it only at the first line, so that
  /// a run refused before training changes no file. Step lines come every
  /// --metrics-every optimizer steps (0: none). Disabled without --metrics,
  /// and on the ranks of a distributed run that do not write (`writer`
  /// false).
  explicit MetricsLog(const TrainOptions &options, bool writer = true);
  bool enabled() const { return enabled_; }
  /// A run resumed after `epoch`: keeps the file's lines of epochs up to
  /// `epoch` (a run stopped later wrote lines that the resumed run writes
  /// again) and goes on from the wall time of the last of them, so the file
  /// reads as the run's one curve.
  void continueAfter(int32_t epoch);

  /// After a training step: a step line when the optimizer's step count is
  /// a multiple of everySteps; `train` is the epoch so far.
  void step(int32_t epoch, const cavs::Optimizer &optimizer,
            const LossUnit &unit, const PassStats &train);
  /// The line of a finished epoch.
  void epoch(int32_t epoch, const cavs::Optimizer &optimizer,
             const LossUnit &unit, const Split &train, const Split &eval);

private:
  struct Close {
    void operator()(std::FILE *file) const { std::fclose(file); }
  };
  /// The members every line starts with.
  JsonObject head(const char *event, int32_t epoch,
                  const cavs::Optimizer &optimizer, const LossUnit &unit) const;
  /// Writes and flushes `line`, opening the file at the first; throws when
  /// that fails (disk full).
  void write(const JsonObject &line);

  std::string path_;
  int64_t everySteps_;
  bool resuming_;
  bool enabled_;
  std::unique_ptr<std::FILE, Close> file_;
  Clock::time_point start_ = Clock::now();
};

/// The figures of a language model's pass: {"perplexity", e^(loss per
/// target)}.
Figures perplexityFigures(const PassStats &pass, bool training);

} // namespace cavs_examples

#endif // CAVS_EXAMPLES_METRICS_H
