//===- Trainer.h - the minibatch loops shared by the apps -------*- C++ -*-===//
//
// One epoch of training (batch assembly, forward in train mode, backward,
// optimizer step) and one pass of inference over a SampleSet, with the
// statistics every app reports: summed loss, loss targets, vertices,
// batched tasks and the time per phase; and the epoch loop around them,
// which also writes the --metrics lines (Metrics.h).
// Apps that need more per batch (an accuracy) pass a hook that runs right
// after the forward pass, while the model's outputs belong to that batch.
// With a cavs::dist::Trainer (--distributed, Distributed.h) every rank runs
// the same loops over the same global batches and works on its shard of
// each.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_EXAMPLES_TRAINER_H
#define CAVS_EXAMPLES_TRAINER_H

#include "Checkpoints.h"
#include "cavs/sample_set.hpp"
#include "TrainOptions.h"

#include "cavs/dist.hpp"
#include "cavs/runtime.hpp"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace cavs_examples {

using cavs::SampleSet;

using Clock = std::chrono::steady_clock;

inline double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// `x`, or a NaN without its sign bit: a diverged loss is the CPU's
/// default NaN, which is negative, and printf would show "-nan".
inline double withoutNanSign(double x) { return std::isnan(x) ? std::fabs(x) : x; }

struct PassStats {
  /// Loss summed over every target.
  double loss = 0;
  /// Vertices whose target attribute is >= 0 (the ones with a loss).
  int64_t targets = 0;
  int32_t samples = 0;
  int64_t vertices = 0, tasks = 0, batches = 0;
  double seconds = 0;
  /// Seconds per phase, summed (training only).
  double forward = 0, backward = 0, update = 0, batching = 0;
  /// Seconds of the gradient exchange (distributed training only).
  double exchange = 0;

  double lossPerTarget() const {
    return targets ? withoutNanSign(loss / double(targets)) : 0;
  }
  double lossPerSample() const {
    return samples ? withoutNanSign(loss / samples) : 0;
  }
  double tasksPerBatch() const { return batches ? double(tasks) / batches : 0; }
};

/// The loss as an app states it, the same in its epoch lines, progress and
/// --metrics: per sample ("loss/tree") or per target ("loss/word"), times
/// `scale` (1 / ln 2 gives bits).
struct LossUnit {
  std::string name = "loss/target";
  bool perSample = false;
  double scale = 1;

  double of(const PassStats &stats) const {
    return scale * (perSample ? stats.lossPerSample() : stats.lossPerTarget());
  }
};

class MetricsLog;
/// Named figures of a split besides its loss and throughput, such as
/// {"accuracy", 45.7} or {"perplexity", 120.3}.
using Figures = std::vector<std::pair<std::string, double>>;

/// Called after each forward pass with the batch it ran on.
using BatchHook = std::function<void(cavs::Model &, const cavs::GraphBatch &)>;
/// Called before each distributed training step.
using StepHook = std::function<void(cavs::Model &)>;

struct PassConfig {
  int32_t batchSize = 1;
  /// Per-vertex attribute holding the loss target (counts PassStats::targets).
  std::string target = "label";
  /// Progress label; no progress when empty.
  std::string label;
  /// What the progress shows of the loss so far.
  LossUnit unit;
  /// Seconds between progress lines when stderr is not a terminal; 0: no
  /// progress (Progress.h).
  double progressEvery = 10;
  BatchHook afterForward;
  /// Distributed training when set: training steps through the trainer
  /// (the loss is the global batch's), evaluation runs this rank's shard of
  /// each batch and sums the loss over the ranks at the end. afterForward
  /// sees the rank's shard (not called for a rank without samples) and,
  /// when training, comes after the update: the trainer does forward,
  /// backward and update in one call, hence beforeStep.
  cavs::dist::Trainer *dist = nullptr;
  StepHook beforeStep;
  /// Training: called after each step with the pass's figures so far.
  std::function<void(const PassStats &sofar)> afterStep;
};

/// Trains one epoch over the samples `order` of `set`: one optimizer step
/// per batch of config.batchSize samples.
PassStats trainEpoch(cavs::Model &model, cavs::Optimizer &optimizer,
                     const SampleSet &set, const std::vector<int32_t> &order,
                     const PassConfig &config);

/// Runs inference over `set` in order.
PassStats evaluate(cavs::Model &model, const SampleSet &set,
                   const PassConfig &config);

/// What runEpochs does around each epoch besides training and evaluating.
struct EpochPlan {
  /// Per-vertex attribute holding the loss target.
  std::string target = "label";
  /// The loss as the app reports it (progress and --metrics).
  LossUnit unit;
  /// What the evaluated split is called in --metrics ("dev", "test").
  std::string evalSplit = "dev";
  /// The app's flags that decide the training samples besides --max-train,
  /// for the messages of a refused --resume.
  std::string dataFlags = "--data, --synthetic";
  /// The optimizer's weight decay per unit of the app's --wd (the SST apps
  /// decay the summed gradient by wd x batch), so that a resumed run's line
  /// quotes the --wd the run was started with.
  double weightDecayScale = 1;
  /// vocabFingerprint of the vocabulary that gave the samples their word
  /// ids, kept in the checkpoints (RunState::vocabulary); 0: none.
  uint64_t vocabulary = 0;
  /// Where the --metrics lines go; none when null.
  MetricsLog *metrics = nullptr;
  /// The epoch's figures of the training pass or the evaluation for
  /// --metrics (accuracy, perplexity); called after sumOverRanks.
  std::function<Figures(const PassStats &pass, bool training)> figures;
  /// Called after every forward pass of training and of evaluation.
  BatchHook trainHook, evalHook;
  /// Called before each epoch (to reset what the hooks count).
  std::function<void()> startEpoch;
  /// Distributed training: called before each training step (see
  /// PassConfig::dist).
  StepHook beforeStep;
  /// Distributed training: called after each evaluation, before score and
  /// report, to sum what the hooks counted over the ranks, so that every
  /// rank scores the epoch alike (and saves the same best checkpoint).
  std::function<void()> sumOverRanks;
  /// The checkpoint score of an epoch, higher is better; by default minus
  /// the evaluation loss per target.
  std::function<double(const PassStats &eval)> score;
  /// Prints the epoch's figures.
  std::function<void(int32_t epoch, const PassStats &train,
                     const PassStats &eval)>
      report;
};

/// options.epochs times: one epoch over `train` in a freshly shuffled
/// order (seeded by options.seed) with progress on stderr, evaluation over
/// `eval`, a checkpoint (when enabled), the report and the metrics line
/// (plan.metrics); at the end, which checkpoints were saved. With
/// options.resume, first restores that checkpoint's run and trains only
/// the epochs after it (Resume.h). `dist`: distributed training (see
/// PassConfig::dist).
void runEpochs(cavs::Model &model, cavs::Optimizer &optimizer,
               const SampleSet &train, const SampleSet &eval,
               const TrainOptions &options, Checkpoints &checkpoints,
               const EpochPlan &plan, cavs::dist::Trainer *dist = nullptr);

} // namespace cavs_examples

#endif // CAVS_EXAMPLES_TRAINER_H
