//===- Trainer.cpp - the minibatch loops shared by the apps ---------------===//
#include "Trainer.h"

#include "Progress.h"
#include "Random.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace cavs_examples {

namespace {
int64_t countTargets(const cavs::GraphBatch &batch, const std::string &name) {
  cavs::Span<const int32_t> values = batch.attribute(name);
  return std::count_if(values.begin(), values.end(),
                       [](int32_t value) { return value >= 0; });
}

/// The loop of both passes; `train` adds backward and step.
PassStats run(cavs::Model &model, cavs::Optimizer *optimizer,
              const SampleSet &set, const int32_t *order,
              const PassConfig &config) {
  PassStats stats;
  const auto start = Clock::now();
  ProgressBar progress(config.label, config.label.empty() ? 0 : set.size());
  for (int32_t first = 0; first < set.size(); first += config.batchSize) {
    const int32_t count = std::min(config.batchSize, set.size() - first);
    const auto batchStart = Clock::now();
    cavs::GraphBatch batch = set.batch(order + first, count);
    stats.batching += secondsSince(batchStart);
    stats.loss += optimizer ? model.forward(batch) : model.infer(batch);
    if (config.afterForward)
      config.afterForward(model, batch);
    if (optimizer) {
      model.backward();
      model.step(*optimizer);
      const cavs_model_timing t = model.timing();
      stats.forward +=
          t.schedule + t.forward_eager + t.forward_body + t.forward_lazy;
      stats.backward += t.backward_eager + t.backward_body + t.backward_lazy;
      stats.update += t.optimizer;
    }
    stats.targets += countTargets(batch, config.target);
    stats.samples += count;
    stats.vertices += batch.numVertices();
    stats.tasks += model.numTasks();
    ++stats.batches;
    if (!config.label.empty()) {
      char status[64];
      std::snprintf(status, sizeof status, "loss/target %.3f",
                    stats.lossPerTarget());
      progress.update(first + count, status);
    }
  }
  stats.seconds = secondsSince(start);
  return stats;
}
} // namespace

PassStats trainEpoch(cavs::Model &model, cavs::Optimizer &optimizer,
                     const SampleSet &set, const std::vector<int32_t> &order,
                     const PassConfig &config) {
  return run(model, &optimizer, set, order.data(), config);
}

PassStats evaluate(cavs::Model &model, const SampleSet &set,
                   const PassConfig &config) {
  std::vector<int32_t> order(size_t(set.size()));
  std::iota(order.begin(), order.end(), 0);
  return run(model, nullptr, set, order.data(), config);
}

void runEpochs(cavs::Model &model, cavs::Optimizer &optimizer,
               const SampleSet &train, const SampleSet &eval,
               const TrainOptions &options, Checkpoints &checkpoints,
               const EpochPlan &plan) {
  Shuffler shuffler(train.size(), options.seed);
  for (int32_t epoch = 1; epoch <= options.epochs; ++epoch) {
    if (plan.startEpoch)
      plan.startEpoch();
    PassConfig config;
    config.batchSize = options.batchSize;
    config.target = plan.target;
    config.label = "epoch " + std::to_string(epoch);
    config.afterForward = plan.trainHook;
    const PassStats trained =
        trainEpoch(model, optimizer, train, shuffler.next(), config);
    PassConfig evalConfig;
    evalConfig.batchSize = options.evalBatchSize;
    evalConfig.target = plan.target;
    evalConfig.afterForward = plan.evalHook;
    const PassStats evaluated = evaluate(model, eval, evalConfig);
    checkpoints.save(model, optimizer, epoch,
                     plan.score ? plan.score(evaluated)
                                : -evaluated.lossPerTarget());
    plan.report(epoch, trained, evaluated);
    std::fflush(stdout);
  }
  if (checkpoints.enabled())
    std::printf("saved %s (last epoch) and %s (best, epoch %d): parameters "
                "and optimizer state\n",
                checkpoints.path().c_str(), checkpoints.bestPath().c_str(),
                checkpoints.bestEpoch());
}

} // namespace cavs_examples
