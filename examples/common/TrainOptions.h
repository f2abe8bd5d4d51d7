//===- TrainOptions.h - the flags every training app has --------*- C++ -*-===//
//
// --epochs, --batch, --lr, --clip, --seed, --threads, --max-train,
// --eval-batch, --checkpoint, --resume, --device, --metrics, --metrics-every
// and --progress-every mean the same in every app; an app sets its own
// defaults in the struct before registering them.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_EXAMPLES_TRAINOPTIONS_H
#define CAVS_EXAMPLES_TRAINOPTIONS_H

#include "ArgParser.h"

#include <cstdint>
#include <string>

namespace cavs_examples {

struct TrainOptions {
  TrainOptions() = default;
  /// An app's defaults.
  TrainOptions(int32_t epochs, int32_t batchSize, double learningRate,
               double clip, int32_t evalBatchSize)
      : epochs(epochs), batchSize(batchSize), learningRate(learningRate),
        clip(clip), evalBatchSize(evalBatchSize) {}

  int32_t epochs = 10;
  /// Samples per minibatch.
  int32_t batchSize = 25;
  double learningRate = 0.05;
  uint64_t seed = 1;
  /// Kernel threads; 0 keeps the runtime's default.
  int32_t threads = 0;
  /// Use only the first N training samples; -1 uses them all.
  int64_t maxTrain = -1;
  /// Global gradient-norm clipping; 0: none.
  double clip = 0;
  /// Samples per batch when evaluating.
  int32_t evalBatchSize = 500;
  /// Where to save the parameters, optimizer state and run state after each
  /// epoch; empty: nowhere.
  std::string checkpoint;
  /// A checkpoint whose run to continue (Resume.h); empty: a new run.
  std::string resume;
  /// Where the model runs: cpu, cuda, cuda:N or auto (SST classifiers).
  std::string device = "cpu";
  /// Where the training curves go as JSON lines (Metrics.h); empty: nowhere.
  std::string metrics;
  /// A metrics line every N optimizer steps too; 0: per epoch only.
  int64_t metricsEvery = 0;
  /// Seconds between progress lines when stderr is not a terminal; 0: no
  /// progress at all (Progress.h).
  double progressEvery = 10;
};

/// Registers the flags above; `unit` names a sample ("trees", "chains"),
/// `optimizer` the update rule and `dataUnit` (default: `unit`) what
/// --max-train counts, in the help text.
void addTrainOptions(ArgParser &parser, TrainOptions &options,
                     const std::string &unit, const std::string &optimizer,
                     const std::string &dataUnit = "");

/// What keeps `path` from naming a file to read ("no such file", "a
/// directory, not a file"); empty when nothing does. For the checkedText
/// flags that read a checkpoint (--resume, --evaluate).
std::string existingFileProblem(const std::string &path);

/// "<optimizer> lr X[, clip C], batch B <unit>, seed S" for the banner; with
/// --resume, the run's own hyperparameters instead of lr and clip.
std::string describeTraining(const TrainOptions &options,
                             const std::string &optimizer,
                             const std::string &unit);

} // namespace cavs_examples

#endif // CAVS_EXAMPLES_TRAINOPTIONS_H
