//===- Checkpoints.h - per-epoch checkpoints and the best one ---*- C++ -*-===//
//
// After every epoch the model, its optimizer state and the run's state
// (Resume.h) go to PATH, and to PATH.best when the epoch's validation score
// is the best so far (model selection on dev, as in Tai et al.); PATH.best
// is written first, so PATH never names a best epoch that is not on disk. A
// resumed run continues the best score of the run it resumes, whose best
// checkpoint stays the best until an epoch beats it. Disabled for an empty
// path.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_EXAMPLES_CHECKPOINTS_H
#define CAVS_EXAMPLES_CHECKPOINTS_H

#include "Resume.h"

#include "cavs/dist.hpp"
#include "cavs/runtime.hpp"

#include <cstdint>
#include <string>

namespace cavs_examples {

class Checkpoints {
public:
  /// Throws UsageError at once when saves to `path` would fail: its folder
  /// does not exist or is not writable, or `path` or its .best exists and
  /// is no regular file (a directory, a device such as /dev/null).
  /// `writer`: false on the ranks of a distributed run that never write
  /// (rank 0 does), which need not have the folder on their hosts.
  explicit Checkpoints(std::string path, bool writer = true);

  bool enabled() const { return !path_.empty(); }
  const std::string &path() const { return path_; }
  /// The file that holds the best epoch so far: PATH.best, or the resumed
  /// run's until an epoch beats it.
  const std::string &bestPath() const { return bestPath_; }
  int32_t bestEpoch() const { return bestEpoch_; }

  /// Continues the best epoch and score of the run resumed from
  /// `resumePath`; throws when its best checkpoint (`resumePath`.best) is
  /// missing, before anything is trained or written.
  void resume(const RunState &state, const std::string &resumePath);

  /// Saves epoch `state.epoch` with the run's state, whose best epoch and
  /// score it fills in; `score` (higher is better) picks the best one.
  /// With a distributed trainer rank 0 writes (a collective: every rank
  /// must call it with the same score).
  void save(cavs::Model &model, const cavs::Optimizer &optimizer,
            RunState state, double score, cavs::dist::Trainer *dist = nullptr);

private:
  std::string path_, bestPath_;
  bool writer_;
  double bestScore_ = 0;
  int32_t bestEpoch_ = 0;
};

} // namespace cavs_examples

#endif // CAVS_EXAMPLES_CHECKPOINTS_H
