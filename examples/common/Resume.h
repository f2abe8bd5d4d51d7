//===- Resume.h - where a run stands, and --resume --------------*- C++ -*-===//
//
// A checkpoint written after an epoch holds, besides the parameters and the
// optimizer state, the state of the run (RunState): epochs done, the best
// epoch and its score, the shuffler's counter, and the settings that decide
// the batches (seed, batch size, training samples and a fingerprint of
// their contents). --resume PATH loads all
// of it and checks it against the command line, so that the run continues
// exactly where it stopped: a resumed run prints the same figures as one
// that never stopped. The fields and their names are in examples/README.md.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_EXAMPLES_RESUME_H
#define CAVS_EXAMPLES_RESUME_H

#include "Random.h"
#include "TrainOptions.h"

#include "cavs/runtime.hpp"
#include "cavs/sample_set.hpp"

#include <cstdint>
#include <string>

namespace cavs_examples {

struct RunState {
  /// Epochs trained.
  int32_t epoch = 0;
  /// The best epoch so far (0: none yet) and its score, higher is better.
  int32_t bestEpoch = 0;
  double bestScore = 0;
  /// The shuffler's counter after `epoch` shuffles (Shuffler::state).
  uint64_t shuffleState = 0;
  /// What decides the batches: a resumed run must have the same.
  uint64_t seed = 0;
  int32_t batchSize = 0;
  int32_t trainSamples = 0;
  /// FNV-1a of the training samples' types, children and attributes: a
  /// resumed run must train on the same data, not only as many samples.
  /// 0 in a checkpoint of an app version before the field.
  uint64_t trainData = 0;
  /// vocabFingerprint of the vocabulary that gave the samples their word
  /// ids, so that --evaluate can refuse a checkpoint of another one; 0 for
  /// an app without one, and in a checkpoint of a version before the field.
  uint64_t vocabulary = 0;
  /// FNV-1a of the names of the parameters the run freezes
  /// (--freeze-embeddings), 0 for none: a resumed run must freeze the same.
  /// Absent in a checkpoint of a version before the field.
  uint64_t frozen = 0;
};

/// The state of a run of `model` before its first epoch over the samples
/// `train`, whose word ids come from the vocabulary of fingerprint
/// `vocabulary` (0: none).
RunState startingState(const TrainOptions &options, const cavs::Model &model,
                       const cavs::SampleSet &train, const Shuffler &shuffler,
                       uint64_t vocabulary);

/// The record a checkpoint carries.
cavs::TrainState toRecord(const RunState &state);

/// --resume options.resume: loads the checkpoint into `model` and
/// `optimizer` (on every rank of a distributed run), checks its run state
/// against `start` (the same seed, batch size and training data) and
/// options.epochs (epochs left to train), replays `shuffler` to where the
/// run left it and returns the state. Throws UsageError for a checkpoint
/// without run state or of another run, std::runtime_error for a state
/// that contradicts itself; the files are left as they are.
/// `dataFlags` lists the app's flags that decide the training samples
/// besides --max-train ("--data, --synthetic"), for the messages.
RunState resumeRun(cavs::Model &model, cavs::Optimizer &optimizer,
                   const TrainOptions &options, const RunState &start,
                   Shuffler &shuffler, const std::string &dataFlags);

/// Throws UsageError, starting with `where`, when `record` (a checkpoint's
/// training state) comes from a run whose vocabulary differs from the one
/// of fingerprint `vocabulary`: its word ids would mean other words. A
/// record without the field (no training state, or an app version before
/// it) is not checked.
void requireSameVocabulary(const cavs::TrainState &record, uint64_t vocabulary,
                           const std::string &where);

/// Throws UsageError, starting with `where`, when `record` comes from a run
/// of another seed, for apps whose data the seed changes (the cell types of
/// treelstm2type); a record without the field is not checked.
void requireSameSeed(const cavs::TrainState &record, uint64_t seed,
                     const std::string &where);

} // namespace cavs_examples

#endif // CAVS_EXAMPLES_RESUME_H
