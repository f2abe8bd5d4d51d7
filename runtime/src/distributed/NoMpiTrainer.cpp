//===- NoMpiTrainer.cpp - the trainer of a runtime built without MPI ------===//
//
// Keeps the C ABI of cavs/dist.h complete in every build: creating a
// trainer fails with a message saying how to get one; no other trainer
// call can be reached without a trainer.
//
//===----------------------------------------------------------------------===//
#include "distributed/Trainer.h"

#include <cstdlib>

namespace cavs::runtime {

bool trainerAvailable() { return false; }

Status createTrainer(cavs_model *, cavs_optimizer *, const cavs_dist_options &,
                     std::unique_ptr<Trainer> &) {
  return Status(CAVS_ERROR_UNSUPPORTED,
                "distributed training needs a cavs runtime built with MPI; "
                "this one was built without it (install libopenmpi-dev and "
                "reconfigure with -DCAVS_ENABLE_MPI=AUTO or ON)");
}

void abortJob(int32_t code) { std::exit(code); }

void finalizeJob() {}

} // namespace cavs::runtime
