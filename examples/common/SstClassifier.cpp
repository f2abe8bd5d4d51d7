//===- SstClassifier.cpp - a tree model trained on SST sentiment ----------===//
#include "SstClassifier.h"

#include "Accuracy.h"
#include "App.h"
#include "Checkpoints.h"
#include "Distributed.h"
#include "Embeddings.h"
#include "Fingerprint.h"
#include "Metrics.h"
#include "OutputFiles.h"
#include "Resume.h"
#include "Sst.h"
#include "TrainOptions.h"
#include "Trainer.h"

#include <cstdio>
#include <iostream>
#include <sstream>

namespace cavs_examples {

namespace {

struct Options : TrainOptions {
  DataSource source;
  /// L2 weight decay per tree.
  double weightDecay = 1e-4;
  /// "all": a loss at every labelled node; "root": at the roots only.
  std::string loss = "all";
  /// Data-parallel over MPI ranks (SstModel::distributed).
  DistributedOptions distributed;
  /// A checkpoint to evaluate instead of training; none when empty.
  std::string evaluate;
  /// Pretrained vectors for the table "embed", and freezing it.
  EmbeddingOptions embeddings;
};

struct Evaluation {
  PassStats pass;
  Accuracy roots;
};

/// Root accuracy over `set`; with `dist`, every rank evaluates its shards
/// and gets the sums.
Evaluation evaluateRoots(cavs::Model &model, const SampleSet &set,
                         const SstModel &spec, int32_t batchSize,
                         cavs::dist::Trainer *dist = nullptr) {
  Evaluation result;
  PassConfig config;
  config.batchSize = batchSize;
  config.afterForward = [&](cavs::Model &m, const cavs::GraphBatch &batch) {
    countPredictions(m, batch, spec.output, &result.roots, nullptr);
  };
  config.dist = dist;
  result.pass = evaluate(model, set, config);
  sumOverRanks(dist, {&result.roots});
  return result;
}

/// Restores `path` into a fresh model instance and reports its dev and test
/// root accuracy.
void restoreAndTest(const SstModel &spec, const std::string &path,
                    const std::string &what, const Options &options,
                    const SstSplits &data) {
  std::unique_ptr<cavs::Model> restored = spec.create(options.seed + 1, options.device);
  cavs::TrainState record;
  restored->load(path, nullptr, &record);
  // Parameters alone (format version 1, cavs-ckpt import): nothing to
  // check them against, and another vocabulary's would score garbage.
  if (record.size() == 0)
    std::fprintf(stderr,
                 "warning: %s (%s) holds no training state, so its "
                 "vocabulary and seed cannot be checked against this "
                 "command line's; the figures mean something only for the "
                 "data and --seed it was trained with\n",
                 path.c_str(), what.c_str());
  requireSameVocabulary(record, vocabFingerprint(data.vocab),
                        path + " (" + what + "): ");
  // The seed retyped the splits: another would score other cells.
  if (spec.retype)
    requireSameSeed(record, options.seed, path + " (" + what + "): ");
  const Accuracy dev =
      evaluateRoots(*restored, data.dev, spec, options.evalBatchSize).roots;
  const Accuracy test =
      evaluateRoots(*restored, data.test, spec, options.evalBatchSize).roots;
  std::printf("restored %s (%s) into a fresh model: dev root acc %.2f%%, test "
              "root acc %.2f%% (%lld of %lld)\n",
              path.c_str(), what.c_str(), dev.percent(), test.percent(),
              (long long)test.correct, (long long)test.total);
}

/// The three splits as options ask (threads set, training split cut,
/// retyped, labels masked), announced.
SstSplits loadData(const SstModel &spec, const Options &options) {
  SstSplits data = loadSst(options.source, spec.typing);
  setUpThreads(options.threads);
  if (options.maxTrain > 0)
    data.train.truncate(
        int32_t(std::min<int64_t>(options.maxTrain, data.train.size())));
  for (SampleSet *set : {&data.train, &data.dev, &data.test}) {
    if (spec.retype)
      spec.retype(*set, options.seed);
    if (options.loss == "root")
      set->maskNonRoots("label");
  }
  std::cout << "data: " << data.dir << "\n  train " << data.train.size()
            << " trees (" << data.train.numVertices() << " vertices), dev "
            << data.dev.size() << ", test " << data.test.size()
            << "; vocabulary " << data.vocab.size() << " words\n";
  return data;
}

/// What the ranks must have loaded alike besides the training batches:
/// the vocabulary (of train.txt), which gives the words of dev and test
/// their ids, and the dev and test files.
std::vector<SharedData> evaluationData(const SstSplits &data) {
  const std::string dir = data.dir + "/";
  return {{"vocabulary", dir + "train.txt", vocabFingerprint(data.vocab)},
          {"dev set", dir + "dev.txt", fileFingerprint(dir + "dev.txt")},
          {"test set", dir + "test.txt", fileFingerprint(dir + "test.txt")}};
}

/// --evaluate: a saved checkpoint's dev and test accuracy, no training.
int evaluateOnly(const SstModel &spec, const Options &options) {
  if (options.distributed.enabled)
    throw UsageError("--evaluate runs in one process; drop --distributed");
  if (!options.resume.empty())
    throw UsageError("--evaluate does not train; drop --resume");
  // Flags that only training reads would be ignored without a word (the
  // checkpoint has a default: the model's name).
  if (options.checkpoint != spec.checkpoint || !options.metrics.empty())
    throw UsageError("--evaluate does not train, so it writes no checkpoint "
                     "or metrics; drop --checkpoint and --metrics");
  const SstSplits data = loadData(spec, options);
  restoreAndTest(spec, options.evaluate, "--evaluate", options, data);
  return 0;
}

int train(const SstModel &spec, const Options &options) {
  if (!options.distributed.enabled && options.distributed.gpuSums != "auto")
    throw UsageError("--gpu-sums " + options.distributed.gpuSums +
                     " applies to --distributed runs only");
  if (!options.evaluate.empty())
    return evaluateOnly(spec, options);
  // The model comes first so that a distributed run knows its rank (and
  // leaves printing to rank 0) before anything is printed.
  std::unique_ptr<cavs::Model> model = spec.create(options.seed, options.device);
  freezeEmbeddings(*model, "embed", options.embeddings);
  // The loss is summed over the trees of a batch; Adagrad is invariant to
  // the gradient's scale, so a decay of wd * B on the summed gradient is
  // Tai et al.'s wd on the mean gradient.
  cavs::Optimizer optimizer(
      model->params(),
      optimizerOptions(cavs::OptimizerKind::Adagrad, options.learningRate,
                       options.clip, options.weightDecay * options.batchSize));
  std::unique_ptr<cavs::dist::Trainer> dist =
      options.distributed.enabled
          ? startDistributed(*model, optimizer, options.distributed)
          : nullptr;
  Checkpoints checkpoints(options.checkpoint, !dist || dist->isRoot());
  MetricsLog metrics(options, !dist || dist->isRoot());
  if (dist)
    requireSameSettings(
        *dist,
        {{"--epochs", std::to_string(options.epochs)},
         {"--batch", std::to_string(options.batchSize)},
         {"--eval-batch", std::to_string(options.evalBatchSize)},
         {"--max-train", std::to_string(options.maxTrain)},
         {"--loss", options.loss},
         // Resumed on one rank only, the others failed a step later
         // with "stepped over another global batch".
         {"--resume", options.resume.empty() ? "(none)" : options.resume}});
  const SstSplits data = loadData(spec, options);
  std::vector<InputFile> inputs;
  for (const char *split : {"train.txt", "dev.txt", "test.txt"})
    inputs.push_back({"--data", data.dir + "/" + split});
  if (!options.embeddings.path.empty())
    inputs.push_back({"--embeddings", options.embeddings.path});
  requireOutputsSpareInputs(options, inputs);
  if (dist)
    requireSameData(*dist, evaluationData(data));
  requireRows(*model, "embed", data.vocab.size(), "V");
  loadEmbeddings(*model, "embed", data.vocab, options.embeddings);
  if (dist && !options.embeddings.path.empty())
    requireSameData(*dist,
                    {embeddingsData(*model, "embed", options.embeddings)});
  std::ostringstream details;
  details << describeTraining(options, "Adagrad", "trees");
  if (options.resume.empty())
    details << ", weight decay " << options.weightDecay;
  details << ", loss at "
          << (options.loss == "root" ? "the roots" : "every node");
  printModel(*model, details.str());

  // Model selection as in Tai et al.: the epoch with the best dev accuracy.
  Accuracy trainRoots, devRoots;
  // Distributed: the softmax layer of each step's forward pass (the hook
  // runs after the update; see PassConfig::dist).
  SoftmaxCopy layerOfStep;
  EpochPlan plan;
  plan.unit = {"loss/tree", /*perSample=*/true};
  plan.dataFlags = "--data, --synthetic, --loss";
  plan.weightDecayScale = options.batchSize;
  plan.vocabulary = vocabFingerprint(data.vocab);
  plan.metrics = &metrics;
  plan.startEpoch = [&] { trainRoots = devRoots = Accuracy(); };
  if (dist)
    plan.beforeStep = [&](cavs::Model &m) { layerOfStep = copySoftmax(m); };
  plan.trainHook = [&](cavs::Model &m, const cavs::GraphBatch &batch) {
    countPredictions(m, batch, spec.output, &trainRoots, nullptr,
                     dist ? &layerOfStep : nullptr);
  };
  plan.sumOverRanks = [&] {
    sumOverRanks(dist.get(), {&trainRoots, &devRoots});
  };
  plan.evalHook = [&](cavs::Model &m, const cavs::GraphBatch &batch) {
    countPredictions(m, batch, spec.output, &devRoots, nullptr);
  };
  plan.score = [&](const PassStats &) { return devRoots.percent(); };
  plan.figures = [&](const PassStats &, bool training) -> Figures {
    return {{"accuracy", (training ? trainRoots : devRoots).percent()}};
  };
  plan.report = [&](int32_t epoch, const PassStats &stats,
                    const PassStats &dev) {
    std::printf("epoch %d/%d: loss/tree %.4f, train root acc %.2f%%, dev "
                "root acc %.2f%% (loss/tree %.4f); %.1f s, %.0f trees/s, %.0f "
                "vertices/s\n",
                epoch, options.epochs, stats.lossPerSample(),
                trainRoots.percent(), devRoots.percent(), dev.lossPerSample(),
                stats.seconds, stats.samples / stats.seconds,
                stats.vertices / stats.seconds);
    std::printf("  forward %.1f s, backward %.1f s, update %.1f s, batching "
                "%.1f s; %.1f tasks per batch\n",
                stats.forward, stats.backward, stats.update, stats.batching,
                stats.tasksPerBatch());
    if (dist)
      std::printf("  rank 0 of %d: gradient exchange %.1f s (forward, "
                  "backward and tasks above are rank 0's shards)\n",
                  dist->size(), stats.exchange);
  };
  runEpochs(*model, optimizer, data.train, data.dev, options, checkpoints,
            plan, dist.get());
  if (!checkpoints.enabled()) {
    const Accuracy test = evaluateRoots(*model, data.test, spec,
                                        options.evalBatchSize, dist.get())
                              .roots;
    std::printf("test root acc %.2f%% (%lld of %lld)\n", test.percent(),
                (long long)test.correct, (long long)test.total);
    return 0;
  }
  // Test: fresh instances restored from the checkpoints, on rank 0 alone:
  // only its host is sure to have the files.
  if (dist && !dist->isRoot())
    return 0;
  restoreAndTest(spec, checkpoints.path(), "last epoch", options, data);
  if (checkpoints.bestEpoch() != options.epochs)
    restoreAndTest(spec, checkpoints.bestPath(),
                   "best dev, epoch " + std::to_string(checkpoints.bestEpoch()),
                   options, data);
  return 0;
}

} // namespace

int runSstClassifier(const SstModel &spec, int argc, char **argv) {
  Options options;
  options.source.dataDir = spec.defaultDataDir;
  options.source.syntheticDir = spec.syntheticDataDir;
  options.checkpoint = spec.checkpoint;
  ArgParser parser(spec.program, spec.description);
  addDataOptions(parser, options.source, "train.txt, dev.txt, test.txt");
  addTrainOptions(parser, options, "trees", "Adagrad");
  parser.number("--wd", "L2 weight decay per tree", &options.weightDecay);
  parser.choice("--loss",
                "loss at every node (dynet-benchmark treenn) or the roots only",
                &options.loss, {"all", "root"});
  parser.checkedText("--evaluate", "PATH",
                     "no training: restore the checkpoint PATH and report "
                     "its dev and test root accuracy (not with --checkpoint, "
                     "--metrics, --resume or --distributed)",
                     &options.evaluate, existingFileProblem);
  addEmbeddingOptions(parser, options.embeddings);
  if (spec.distributed)
    addDistributedOptions(parser, &options.distributed);
  return finishDistributed(
      options.distributed.enabled,
      runApp(parser, argc, argv, [&] { return train(spec, options); }));
}

} // namespace cavs_examples
