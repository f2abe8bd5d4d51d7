//===- Resume.cpp - where a run stands, and --resume ----------------------===//
#include "Resume.h"

#include "ArgParser.h"
#include "Fingerprint.h"

#include <cmath>
#include <limits>
#include <string_view>
#include <stdexcept>
#include <string>

namespace cavs_examples {

namespace {

// The fields of the record (examples/README.md, "Resuming a run").
constexpr const char *kEpoch = "epoch";
constexpr const char *kBestEpoch = "best_epoch";
constexpr const char *kBestScore = "best_score";
constexpr const char *kShuffleState = "shuffle_state";
constexpr const char *kSeed = "seed";
constexpr const char *kBatch = "batch";
constexpr const char *kTrainSamples = "train_samples";
constexpr const char *kTrainData = "train_data";
constexpr const char *kVocabulary = "vocabulary";
constexpr const char *kFrozen = "frozen";

/// Whether `record` has a field called `name`.
bool hasField(const cavs::TrainState &record, const char *name) {
  for (int32_t i = 0; i < record.size(); ++i) {
    const char *field = nullptr;
    cavs_train_field_type type;
    if (cavs_train_state_field(record.get(), i, &field, &type) == CAVS_OK &&
        std::string_view(field) == name)
      return true;
  }
  return false;
}

/// RunState::frozen of a checkpoint that has no such field: not checked.
/// (No model's frozen names hash to it in practice.)
constexpr uint64_t kUnknown = ~uint64_t(0);

/// RunState::frozen of `model`.
uint64_t frozenFingerprint(const cavs::Model &model) {
  const cavs_param_store *params = model.params();
  Fnv1a hash;
  bool any = false;
  for (int32_t i = 0; i < cavs_param_store_num_params(params); ++i)
    if (cavs_param_store_frozen(params, i)) {
      const std::string name =
          std::string(cavs_param_store_param(params, i)->name) + '\n';
      hash.add(name.data(), name.size());
      any = true;
    }
  return any ? hash.value() : 0;
}

/// Field `name` of `record`, a count in [1, INT32_MAX].
int32_t countField(const cavs::TrainState &record, const char *name) {
  const uint64_t value = record.u64(name);
  if (value < 1 || value > uint64_t(std::numeric_limits<int32_t>::max()))
    throw std::runtime_error("training-state field '" + std::string(name) +
                             "' is " + std::to_string(value) +
                             ", outside [1, 2^31 - 1]");
  return int32_t(value);
}

/// The run state of `record`; throws when a field is missing, of the
/// wrong type or out of range.
RunState fromRecord(const cavs::TrainState &record) {
  RunState state;
  state.epoch = countField(record, kEpoch);
  state.bestEpoch = countField(record, kBestEpoch);
  state.bestScore = record.f64(kBestScore);
  // -inf is the score of a run whose every epoch diverged (Checkpoints).
  if (std::isnan(state.bestScore) ||
      state.bestScore == std::numeric_limits<double>::infinity())
    throw std::runtime_error("training-state field '" +
                             std::string(kBestScore) + "' is " +
                             std::to_string(state.bestScore) +
                             ", not a score");
  state.shuffleState = record.u64(kShuffleState);
  state.seed = record.u64(kSeed);
  // --seed takes a non-negative int64: no run of the apps has a larger one.
  if (state.seed > uint64_t(std::numeric_limits<int64_t>::max()))
    throw std::runtime_error("training-state field '" + std::string(kSeed) +
                             "' is " + std::to_string(state.seed) +
                             ", above the largest --seed, 2^63 - 1");
  state.batchSize = countField(record, kBatch);
  state.trainSamples = countField(record, kTrainSamples);
  if (hasField(record, kTrainData))
    state.trainData = record.u64(kTrainData);
  if (hasField(record, kVocabulary))
    state.vocabulary = record.u64(kVocabulary);
  state.frozen = hasField(record, kFrozen) ? record.u64(kFrozen) : kUnknown;
  if (state.bestEpoch > state.epoch)
    throw std::runtime_error(
        "its best epoch " + std::to_string(state.bestEpoch) +
        " comes after its last epoch " + std::to_string(state.epoch));
  return state;
}

/// Throws UsageError when the run's setting `saved` differs from this
/// command line's `given`.
void requireSame(const std::string &where, const std::string &what,
                 uint64_t saved, uint64_t given) {
  if (saved != given)
    throw UsageError(where + "the run was trained with " + what + " " +
                     std::to_string(saved) + ", this command line gives " +
                     std::to_string(given) + "; resume with the run's flags");
}

} // namespace

RunState startingState(const TrainOptions &options, const cavs::Model &model,
                       const cavs::SampleSet &train, const Shuffler &shuffler,
                       uint64_t vocabulary) {
  RunState state;
  state.frozen = frozenFingerprint(model);
  state.shuffleState = shuffler.state();
  state.seed = options.seed;
  state.batchSize = options.batchSize;
  state.trainSamples = train.size();
  state.trainData = samplesFingerprint(train);
  state.vocabulary = vocabulary;
  return state;
}

cavs::TrainState toRecord(const RunState &state) {
  cavs::TrainState record;
  record.setU64(kEpoch, uint64_t(state.epoch));
  record.setU64(kBestEpoch, uint64_t(state.bestEpoch));
  record.setF64(kBestScore, state.bestScore);
  record.setU64(kShuffleState, state.shuffleState);
  record.setU64(kSeed, state.seed);
  record.setU64(kBatch, uint64_t(state.batchSize));
  record.setU64(kTrainSamples, uint64_t(state.trainSamples));
  record.setU64(kTrainData, state.trainData);
  if (state.vocabulary != 0)
    record.setU64(kVocabulary, state.vocabulary);
  record.setU64(kFrozen, state.frozen);
  return record;
}

void requireSameVocabulary(const cavs::TrainState &record, uint64_t vocabulary,
                           const std::string &where) {
  if (hasField(record, kVocabulary) && record.u64(kVocabulary) != vocabulary)
    throw UsageError(where + "the checkpoint was trained with another "
                             "vocabulary than this command line's data, so "
                             "its word ids mean other words; give the run's "
                             "data (--data, --synthetic)");
}

void requireSameSeed(const cavs::TrainState &record, uint64_t seed,
                     const std::string &where) {
  if (hasField(record, kSeed) && record.u64(kSeed) != seed)
    throw UsageError(where + "the checkpoint was trained with --seed " +
                     std::to_string(record.u64(kSeed)) +
                     ", which decides the vertices' cell types, and this "
                     "command line gives " +
                     std::to_string(seed) + "; give --seed " +
                     std::to_string(record.u64(kSeed)));
}

RunState resumeRun(cavs::Model &model, cavs::Optimizer &optimizer,
                   const TrainOptions &options, const RunState &start,
                   Shuffler &shuffler, const std::string &dataFlags) {
  const std::string where = "--resume " + options.resume + ": ";
  cavs::TrainState record;
  try {
    model.load(options.resume, &optimizer, &record);
  } catch (const cavs::Error &) {
    // A checkpoint written by hand or by cavs-ckpt may lack the optimizer
    // state as well as the run state: say the latter, which is the reason
    // it cannot be resumed.
    cavs::TrainState state;
    model.load(options.resume, nullptr, &state);
    if (state.size() != 0)
      throw;
  }
  if (record.size() == 0)
    throw UsageError(where + "the checkpoint holds no training state (it "
                             "was not written after an epoch by a training "
                             "app of this version); it can be evaluated, "
                             "not resumed");
  RunState state;
  try {
    state = fromRecord(record);
  } catch (const std::exception &error) {
    throw std::runtime_error(where + "bad training state: " + error.what());
  }
  requireSameVocabulary(record, start.vocabulary, where);
  requireSame(where, "--seed", state.seed, start.seed);
  requireSame(where, "--batch", state.batchSize, uint64_t(start.batchSize));
  requireSame(where, "training samples (--max-train, " + dataFlags + ")",
              uint64_t(state.trainSamples), uint64_t(start.trainSamples));
  if (state.trainData != 0 && state.trainData != start.trainData)
    throw UsageError(where + "the run was trained on other data: its " +
                     std::to_string(state.trainSamples) +
                     " training samples differ from this command line's (" +
                     dataFlags + "); resume with the run's data");
  if (state.frozen != kUnknown && state.frozen != start.frozen)
    throw UsageError(where + "the run froze other parameters than this "
                             "command line does (--freeze-embeddings); "
                             "resume with the run's flags");
  state.frozen = start.frozen;
  if (state.epoch >= options.epochs)
    throw UsageError(where + "the run has trained " +
                     std::to_string(state.epoch) + " epochs, --epochs " +
                     std::to_string(options.epochs) +
                     " asks for no more; raise --epochs to train on");
  // The order of an epoch follows from the previous one, so the shuffler
  // replays the shuffles of the epochs done (n swaps each), which must
  // end at the recorded counter.
  for (int32_t epoch = 0; epoch < state.epoch; ++epoch)
    shuffler.next();
  if (shuffler.state() != state.shuffleState)
    throw std::runtime_error(
        where + "bad training state: the shuffling state " +
        std::to_string(state.shuffleState) + " is not where " +
        std::to_string(state.epoch) + " epochs of seed " +
        std::to_string(state.seed) + " lead (" +
        std::to_string(shuffler.state()) + ")");
  return state;
}

} // namespace cavs_examples
