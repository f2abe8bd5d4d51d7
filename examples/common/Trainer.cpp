//===- Trainer.cpp - the minibatch loops shared by the apps ---------------===//
#include "Trainer.h"

#include "Metrics.h"
#include "Progress.h"
#include "Random.h"
#include "Resume.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace cavs_examples {

namespace {
int64_t countTargets(const cavs::GraphBatch &batch, const std::string &name) {
  cavs::Span<const int32_t> values = batch.attribute(name);
  return std::count_if(values.begin(), values.end(),
                       [](int32_t value) { return value >= 0; });
}

/// One batch of a distributed pass: the trainer's step over this rank's
/// shard (returning the global batch's loss), or inference over the shard
/// (returning the shard's loss); then the hook on the shard.
double distributedBatch(cavs::Model &model, bool train,
                        const cavs::GraphBatch &batch,
                        const PassConfig &config, PassStats &stats) {
  cavs::dist::Trainer &dist = *config.dist;
  double loss = 0;
  if (train) {
    if (config.beforeStep)
      config.beforeStep(model);
    loss = dist.step(batch);
    stats.exchange += dist.lastStats().comm_seconds;
    if (!config.afterForward)
      return loss;
  }
  // The same split as the trainer's, so the model's outputs after a step
  // belong to this shard.
  const auto shardStart = Clock::now();
  const cavs::GraphBatch shard =
      cavs::dist::shardOf(batch, dist.size(), dist.rank());
  stats.batching += secondsSince(shardStart);
  if (!cavs::dist::hasShard(shard))
    return loss;
  if (!train)
    loss = model.infer(shard);
  if (config.afterForward)
    config.afterForward(model, shard);
  return loss;
}

/// The loop of both passes; `train` adds backward and step.
PassStats run(cavs::Model &model, cavs::Optimizer *optimizer,
              const SampleSet &set, const int32_t *order,
              const PassConfig &config) {
  PassStats stats;
  const auto start = Clock::now();
  ProgressBar progress(config.label, set.size(),
                       config.label.empty() ? 0 : config.progressEvery);
  for (int32_t first = 0; first < set.size(); first += config.batchSize) {
    const int32_t count = std::min(config.batchSize, set.size() - first);
    const auto batchStart = Clock::now();
    cavs::GraphBatch batch = set.batch(order + first, count);
    stats.batching += secondsSince(batchStart);
    if (config.dist) {
      stats.loss += distributedBatch(model, optimizer != nullptr, batch, config,
                                     stats);
    } else {
      stats.loss += optimizer ? model.forward(batch) : model.infer(batch);
      if (config.afterForward)
        config.afterForward(model, batch);
      if (optimizer) {
        model.backward();
        model.step(*optimizer);
      }
    }
    if (optimizer) {
      // This rank's share when distributed.
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
    stats.seconds = secondsSince(start);
    if (config.afterStep)
      config.afterStep(stats);
    if (!config.label.empty()) {
      char loss[32];
      std::snprintf(loss, sizeof loss, " %.3f", config.unit.of(stats));
      progress.update(first + count, config.unit.name + loss);
    }
  }
  if (config.dist && !optimizer) {
    std::vector<double> loss{stats.loss};
    config.dist->allreduceSum(loss);
    stats.loss = loss[0];
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
               const EpochPlan &plan, cavs::dist::Trainer *dist) {
  Shuffler shuffler(train.size(), options.seed);
  RunState state =
      startingState(options, model, train, shuffler, plan.vocabulary);
  if (!options.resume.empty()) {
    state = resumeRun(model, optimizer, options, state, shuffler,
                      plan.dataFlags);
    checkpoints.resume(state, options.resume);
    // The hyperparameters are the run's, whatever this command line says.
    const cavs_optimizer_options &run = optimizer.options();
    std::printf("resumed %s after epoch %d (best so far: epoch %d); the "
                "run's lr %g, clip %g, weight decay %g\n",
                options.resume.c_str(), state.epoch, state.bestEpoch,
                run.learning_rate, run.clip_norm,
                run.weight_decay / plan.weightDecayScale);
    if (plan.metrics)
      plan.metrics->continueAfter(state.epoch);
  }
  bool warnedOfDivergence = false;
  for (int32_t epoch = state.epoch + 1; epoch <= options.epochs; ++epoch) {
    if (plan.startEpoch)
      plan.startEpoch();
    PassConfig config;
    config.batchSize = options.batchSize;
    config.target = plan.target;
    // One progress bar: rank 0's.
    if (!dist || dist->isRoot())
      config.label = "epoch " + std::to_string(epoch);
    config.unit = plan.unit;
    config.progressEvery = options.progressEvery;
    config.afterForward = plan.trainHook;
    config.dist = dist;
    config.beforeStep = plan.beforeStep;
    if (plan.metrics)
      config.afterStep = [&](const PassStats &sofar) {
        plan.metrics->step(epoch, optimizer, plan.unit, sofar);
      };
    const PassStats trained =
        trainEpoch(model, optimizer, train, shuffler.next(), config);
    PassConfig evalConfig;
    evalConfig.batchSize = options.evalBatchSize;
    evalConfig.target = plan.target;
    evalConfig.afterForward = plan.evalHook;
    evalConfig.dist = dist;
    const PassStats evaluated = evaluate(model, eval, evalConfig);
    if (dist && plan.sumOverRanks)
      plan.sumOverRanks();
    state.epoch = epoch;
    state.shuffleState = shuffler.state();
    checkpoints.save(model, optimizer, state,
                     plan.score ? plan.score(evaluated)
                                : -evaluated.lossPerTarget(),
                     dist);
    plan.report(epoch, trained, evaluated);
    std::fflush(stdout);
    if (!std::isfinite(trained.loss) && !warnedOfDivergence &&
        (!dist || dist->isRoot())) {
      std::fprintf(stderr,
                   "warning: epoch %d's training loss is not finite: the run "
                   "has diverged (a lower --lr, or --clip, may help)\n",
                   epoch);
      warnedOfDivergence = true;
    }
    if (plan.metrics) {
      const Figures none;
      plan.metrics->epoch(
          epoch, optimizer, plan.unit,
          {"train", trained, plan.figures ? plan.figures(trained, true) : none},
          {plan.evalSplit, evaluated,
           plan.figures ? plan.figures(evaluated, false) : none});
    }
  }
  if (checkpoints.enabled())
    std::printf("saved %s (last epoch) and %s (best, epoch %d): parameters, "
                "optimizer and run state\n",
                checkpoints.path().c_str(), checkpoints.bestPath().c_str(),
                checkpoints.bestEpoch());
}

} // namespace cavs_examples
