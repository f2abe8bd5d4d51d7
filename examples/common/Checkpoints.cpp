//===- Checkpoints.cpp - per-epoch checkpoints and the best one -----------===//
#include "Checkpoints.h"

#include "ArgParser.h"
#include "OutputFiles.h"

#include <cmath>
#include <filesystem>
#include <limits>
#include <stdexcept>

namespace cavs_examples {

Checkpoints::Checkpoints(std::string path, bool writer)
    : path_(std::move(path)), bestPath_(path_ + ".best"), writer_(writer) {
  if (!enabled() || !writer)
    return;
  // The first save comes after an epoch of training: check now what would
  // make it fail, without creating anything. (A save renames a new file
  // over its target, which must not replace a device, FIFO or directory;
  // the runtime refuses them too, but only after the first epoch.)
  for (const std::string &file : {path_, bestPath_})
    requireWritableFile("--checkpoint", path_, file);
}

void Checkpoints::resume(const RunState &state,
                         const std::string &resumePath) {
  bestEpoch_ = state.bestEpoch;
  bestScore_ = state.bestScore;
  if (!enabled() || !writer_)
    return;
  bestPath_ = resumePath + ".best";
  // The last epoch's save would replace the run's best checkpoint, which
  // stays where it is until an epoch beats it.
  if (sameFile(path_, bestPath_))
    throw UsageError("--checkpoint " + path_ +
                     " is the best checkpoint of --resume " + resumePath +
                     " (epoch " + std::to_string(bestEpoch_) +
                     "); saving the last epoch there would overwrite it");
  if (!std::filesystem::is_regular_file(bestPath_))
    throw std::runtime_error(
        "--resume " + resumePath + ": its best checkpoint '" + bestPath_ +
        "' (epoch " + std::to_string(bestEpoch_) +
        ") is missing or not a regular file; a run resumes with the best "
        "epoch it recorded");
}

void Checkpoints::save(cavs::Model &model, const cavs::Optimizer &optimizer,
                       RunState state, double score,
                       cavs::dist::Trainer *dist) {
  if (!enabled())
    return;
  // A diverged epoch's score (NaN) ranks below every other: a later epoch
  // that scores can still become the best, and the training state never
  // holds a NaN, which --resume refuses as a damaged file.
  if (std::isnan(score))
    score = -std::numeric_limits<double>::infinity();
  const bool best = bestEpoch_ == 0 || score > bestScore_;
  if (best) {
    bestScore_ = score;
    bestEpoch_ = state.epoch;
  }
  state.bestEpoch = bestEpoch_;
  state.bestScore = bestScore_;
  const cavs::TrainState record = toRecord(state);
  auto write = [&](const std::string &path) {
    if (dist)
      dist->save(path, &record);
    else
      model.save(path, &optimizer, &record);
  };
  const std::string ownBest = path_ + ".best";
  if (best) {
    bestPath_ = ownBest;
    write(bestPath_);
  } else if (bestPath_ != ownBest) {
    // Resumed into another --checkpoint: PATH records the run's best epoch,
    // so PATH.best gets a copy of the resumed run's best checkpoint first.
    if (writer_ && !sameFile(bestPath_, ownBest)) {
      const std::string partial = ownBest + ".part";
      std::filesystem::copy_file(
          bestPath_, partial,
          std::filesystem::copy_options::overwrite_existing);
      std::filesystem::rename(partial, ownBest);
    }
    bestPath_ = ownBest;
  }
  write(path_);
}

} // namespace cavs_examples
