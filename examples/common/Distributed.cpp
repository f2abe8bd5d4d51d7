//===- Distributed.cpp - an app's side of data-parallel training ----------===//
#include "Distributed.h"

#include <cstdio>
#include <functional>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

namespace cavs_examples {

void addDistributedOptions(ArgParser &parser, DistributedOptions *options) {
  parser.toggle("--distributed",
                "data-parallel training over MPI: run under mpirun, every "
                "rank gets a share of each batch (see docs/distributed.md)",
                &options->enabled);
  parser.choice("--gpu-sums",
                "only with --distributed (--device cuda): where the dense "
                "gradients are summed, NCCL on the GPUs or MPI on the host "
                "(auto: NCCL when every rank can)",
                &options->gpuSums, {"auto", "mpi", "nccl"});
}

std::unique_ptr<cavs::dist::Trainer>
startDistributed(cavs::Model &model, cavs::Optimizer &optimizer,
                 const DistributedOptions &options) {
  if (!cavs::dist::available())
    throw UsageError("--distributed: this cavsc runtime was built without "
                     "MPI; rebuild cavsc with MPI (libopenmpi-dev, cmake "
                     "-DCAVS_ENABLE_MPI=ON) or train without --distributed");
  cavs_dist_options settings = cavs::dist::defaults();
  settings.gpu_sums = options.gpuSums == "nccl"  ? CAVS_DIST_GPU_SUMS_NCCL
                      : options.gpuSums == "mpi" ? CAVS_DIST_GPU_SUMS_MPI
                                                 : CAVS_DIST_GPU_SUMS_AUTO;
  auto trainer =
      std::make_unique<cavs::dist::Trainer>(model, optimizer, settings);
  if (!trainer->isRoot() && !std::freopen("/dev/null", "w", stdout))
    throw std::runtime_error("rank " + std::to_string(trainer->rank()) +
                             ": cannot redirect stdout to /dev/null");
  std::cout << "distributed: " << trainer->size()
            << (trainer->size() == 1 ? " rank" : " ranks")
            << "; each batch is split by vertices, gradients are "
               "summed (dense ones with "
            << trainer->denseSums()
            << "); rank 0 prints and writes checkpoints\n";
  return trainer;
}

namespace {
/// The first rank and item whose fingerprint differs from rank 0's
/// (collective); every rank finds the same one.
std::optional<std::pair<int32_t, size_t>>
firstDifference(cavs::dist::Trainer &trainer,
                const std::vector<uint64_t> &fingerprints) {
  const std::vector<uint64_t> all = trainer.allgather(fingerprints);
  const size_t n = fingerprints.size();
  for (int32_t rank = 1; rank < trainer.size(); ++rank)
    for (size_t i = 0; i < n; ++i)
      if (all[size_t(rank) * n + i] != all[i])
        return std::pair{rank, i};
  return std::nullopt;
}
} // namespace

void requireSameData(cavs::dist::Trainer &trainer,
                     const std::vector<SharedData> &data) {
  std::vector<uint64_t> mine;
  for (const SharedData &item : data)
    mine.push_back(item.fingerprint);
  const auto difference = firstDifference(trainer, mine);
  if (!difference)
    return;
  const auto [rank, i] = *difference;
  const std::vector<std::string> paths = trainer.allgather(data[i].path);
  throw std::runtime_error("rank " + std::to_string(rank) + "'s " +
                           data[i].what + " (" + paths[size_t(rank)] +
                           ") differs from rank 0's (" + paths[0] +
                           "); every rank must load the same data");
}

void requireSameSettings(cavs::dist::Trainer &trainer,
                         const std::vector<SharedSetting> &settings) {
  std::vector<uint64_t> mine;
  for (const SharedSetting &setting : settings)
    mine.push_back(std::hash<std::string>()(setting.value));
  const auto difference = firstDifference(trainer, mine);
  if (!difference)
    return;
  const auto [rank, i] = *difference;
  const std::vector<std::string> values =
      trainer.allgather(settings[i].value);
  throw std::runtime_error("rank " + std::to_string(rank) + " runs with " +
                           settings[i].flag + " " + values[size_t(rank)] +
                           ", rank 0 with " + settings[i].flag + " " +
                           values[0] + "; every rank must run with the same " +
                           settings[i].flag);
}

void sumOverRanks(cavs::dist::Trainer *trainer,
                  std::initializer_list<Accuracy *> accuracies) {
  if (!trainer)
    return;
  // Counts travel as doubles, exact up to 2^53.
  std::vector<double> counts;
  for (const Accuracy *accuracy : accuracies) {
    counts.push_back(double(accuracy->correct));
    counts.push_back(double(accuracy->total));
  }
  trainer->allreduceSum(counts);
  size_t next = 0;
  for (Accuracy *accuracy : accuracies) {
    accuracy->correct = int64_t(counts[next++]);
    accuracy->total = int64_t(counts[next++]);
  }
}

int finishDistributed(bool distributed, int status) {
  if (distributed && status != 0)
    cavs::dist::abort(status);
  return status;
}

} // namespace cavs_examples
