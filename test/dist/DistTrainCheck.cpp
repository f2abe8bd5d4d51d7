//===- DistTrainCheck.cpp - the MPI program of the data-parallel tests ----===//
//
// Run under mpirun by run_mpi.py (ctest). Modes:
//   compare  every rank trains with cavs::dist::Trainer and, beside it, a
//            single-process reference on the whole global batch; after each
//            step loss and parameters must agree within 1e-5 (relative), and
//            checkpoints must move between the two (N ranks -> 1, 1 -> N).
//            With --bad-step K, step K's batch has a bad label: the step
//            must fail on every rank and change nothing. With --freeze P
//            both freeze parameter P (the treelstm's only table, embed):
//            it must keep its values and no table row may be exchanged;
//            --freeze-rank R freezes it on rank R alone, which the trainer
//            must refuse; --freeze-late P freezes P once the trainer
//            exists, which every step must refuse.
//   fail     trains and checkpoints every step until one rank kills itself
//            or hangs at a given step: the others must fail with a message.
//   load     (one process) loads a checkpoint into a fresh model.
//   bench    steps/s and bytes exchanged, distributed or --single.
// The model (--model) is examples/models/treelstm.cavs on trees, compiled
// with the dims of the build (small for the tests, the real ones for the
// benchmark), or examples/models/tiedlm.cavs on chains (small), whose tied
// embedding table gets a dense gradient from its output layer.
//
//===----------------------------------------------------------------------===//
#include "RandomBatches.h"
#include "cavs/dist.hpp"
#include "tiedlm.h"
#include "treelstm.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <unistd.h>

namespace {

using cavs::test::TreeSizes;

/// ctest's SKIP_RETURN_CODE (run_mpi.py also looks for "SKIPPED:").
constexpr int kSkip = 77;

/// --name value pairs after the mode.
struct Args {
  std::string mode;
  std::map<std::string, std::string> values;
  std::string get(const std::string &name, const std::string &fallback) const {
    auto it = values.find(name);
    return it == values.end() ? fallback : it->second;
  }
  int number(const std::string &name, int fallback) const {
    return std::stoi(get(name, std::to_string(fallback)));
  }
};

Args parse(int argc, char **argv) {
  Args args;
  args.mode = argc > 1 ? argv[1] : "";
  for (int i = 2; i + 1 < argc; i += 2)
    args.values[std::string(argv[i]).substr(2)] = argv[i + 1];
  return args;
}

cavs_optimizer_options optimizerOptions(const std::string &name) {
  if (name == "adagrad") {
    cavs_optimizer_options options =
        cavs::Optimizer::defaults(cavs::OptimizerKind::Adagrad);
    options.learning_rate = 0.05;
    return options;
  }
  cavs_optimizer_options options =
      cavs::Optimizer::defaults(cavs::OptimizerKind::Sgd);
  options.learning_rate = 0.05;
  options.momentum = 0.9;
  options.clip_norm = 5;
  return options;
}

TreeSizes sizesOf(const std::string &name) {
  if (name == "uneven")
    return TreeSizes::Uneven;
  return name == "sst" ? TreeSizes::SstLike : TreeSizes::Small;
}

/// The model a run trains and how its global batches are drawn.
struct Workload {
  const cavs_model_def &def;
  cavs::GraphBatch (*draw)(uint64_t seed, int32_t samples, TreeSizes sizes,
                           int32_t vocabulary, int32_t badSample);

  /// The batch of `samples` graphs from `seed`; sample `badSample` (if
  /// any) has a label the model rejects. Words index the first parameter.
  cavs::GraphBatch batch(uint64_t seed, int32_t samples, TreeSizes sizes,
                         int32_t badSample = -1) const {
    return draw(seed, samples, sizes, int32_t(def.model->params[0].shape[0]),
                badSample);
  }
};

Workload workloadOf(const Args &args) {
  if (args.get("model", "treelstm") == "tiedlm")
    return {*tiedlm_model_def(), cavs::test::makeChainBatch};
  return {*treelstm_model_def(), cavs::test::makeTreeBatch};
}

/// The largest |a - b| of a parameter over the largest |b| (1e-30 at
/// least): relative to the parameter's scale, so values near zero (fresh
/// biases) do not make rounding look like disagreement.
double relativeDifference(cavs::Model &a, cavs::Model &b) {
  const cavs_model_desc &desc = *cavs_model_definition(a.get())->model;
  double worst = 0;
  for (int32_t p = 0; p < desc.num_params; ++p) {
    cavs::Span<float> x = a.param(desc.params[p].name);
    cavs::Span<float> y = b.param(desc.params[p].name);
    double diff = 0, scale = 1e-30;
    for (size_t i = 0; i < x.size(); ++i) {
      diff = std::max(diff, double(std::fabs(x[i] - y[i])));
      scale = std::max(scale, double(std::fabs(y[i])));
    }
    worst = std::max(worst, diff / scale);
  }
  return worst;
}

/// Whether every gradient is zero, as a step must leave them: a row the
/// zeroing missed would leak into the next step.
bool gradientsZeroed(cavs::Model &model) {
  const float *grads = cavs_grad_store_data(model.grads());
  return std::all_of(grads, grads + cavs_grad_store_size(model.grads()),
                     [](float grad) { return grad == 0; });
}

bool close(double a, double b, double tolerance) {
  return std::fabs(a - b) <= tolerance * std::max(std::fabs(b), 1e-30);
}

/// Every parameter's values.
std::vector<std::vector<float>> snapshot(cavs::Model &model) {
  const cavs_model_desc &desc = *cavs_model_definition(model.get())->model;
  std::vector<std::vector<float>> values;
  for (int32_t p = 0; p < desc.num_params; ++p) {
    cavs::Span<float> param = model.param(desc.params[p].name);
    values.emplace_back(param.begin(), param.end());
  }
  return values;
}

/// A global batch whose sample 0 has a label out of range: the rank that
/// gets it fails, and so must every other rank, before any parameter or
/// optimizer state changes (the next steps' agreement with one process
/// checks that no gradient of the failed step leaks into them).
bool failsEverywhere(const Workload &workload, cavs::dist::Trainer &trainer,
                     cavs::Model &model, int step, int batchSize,
                     TreeSizes sizes) {
  const std::vector<std::vector<float>> before = snapshot(model);
  cavs::GraphBatch bad =
      workload.batch(100 + step, batchSize, sizes, /*badSample=*/0);
  std::string message = "(no error)";
  try {
    trainer.step(bad);
  } catch (const cavs::Error &error) {
    message = error.what();
  }
  const bool failed =
      message.find("is out of range [0, ") != std::string::npos ||
      message.find("failed this step") != std::string::npos;
  const bool unchanged = snapshot(model) == before;
  std::printf("rank %d: step %d (a bad label): %s\n", trainer.rank(), step,
              message.c_str());
  if (!failed || !unchanged)
    std::fprintf(stderr, "rank %d: step %d: the bad label %s\n",
                 trainer.rank(), step,
                 !failed ? "did not fail the step"
                         : "failed the step but parameters changed");
  return failed && unchanged;
}

int compare(const Args &args) {
  const Workload workload = workloadOf(args);
  const int steps = args.number("steps", 3);
  const int batchSize = args.number("batch", 12);
  const TreeSizes sizes = sizesOf(args.get("sizes", "small"));
  const std::string checkpoint = args.get("checkpoint", "dist-compare.ckpt");
  const cavs_optimizer_options options =
      optimizerOptions(args.get("optimizer", "sgd"));

  // Different seeds per rank: the trainer must broadcast rank 0's values.
  int rankGuess = std::atoi(std::getenv("OMPI_COMM_WORLD_RANK")
                                ? std::getenv("OMPI_COMM_WORLD_RANK")
                                : "0");
  const std::string device = args.get("device", "cpu");
  const std::string gpuSums = args.get("gpu-sums", "auto");
  int32_t gpus = 0;
  if (device != "cpu" && cavs_cuda_device_count(&gpus) != CAVS_OK) {
    std::printf("SKIPPED: no GPU: %s\n", cavs_last_error_message());
    return kSkip;
  }
  cavs::Model model(workload.def, 1 + rankGuess, device.c_str());
  const std::string frozen = args.get("freeze", "");
  const int freezeRank = args.number("freeze-rank", -1);
  if (!frozen.empty() && (freezeRank < 0 || freezeRank == rankGuess))
    model.freeze(frozen);
  cavs::Optimizer optimizer(model.params(), options);
  cavs_dist_options settings = cavs::dist::defaults();
  settings.gpu_sums = gpuSums == "nccl"  ? CAVS_DIST_GPU_SUMS_NCCL
                      : gpuSums == "mpi" ? CAVS_DIST_GPU_SUMS_MPI
                                         : CAVS_DIST_GPU_SUMS_AUTO;
  cavs::dist::Trainer trainer(model, optimizer, settings);
  if (args.get("freeze-late", "") != "")
    model.freeze(args.get("freeze-late", ""));
  // The trainer listens to the pass (and starts sums early) unless the
  // gradients are summed on the host after a GPU pass.
  const bool onGpus = std::string(trainer.denseSums()) == "NCCL";
  const bool listens = device == "cpu" || onGpus;
  if (trainer.isRoot())
    std::printf("dense gradients summed with %s\n", trainer.denseSums());
  cavs::Model reference(workload.def, 1);
  cavs::Optimizer referenceOptimizer(reference.params(), options);
  std::vector<float> frozenValues;
  if (!frozen.empty()) {
    reference.freeze(frozen);
    const cavs::Span<const float> values = reference.paramValues(frozen);
    frozenValues.assign(values.begin(), values.end());
  }

  auto report = [&](const char *what, int step, double lossDist,
                    double lossRef, double paramDiff) {
    const bool ok = close(lossDist, lossRef, 1e-5) && paramDiff <= 1e-5;
    std::vector<double> failures = {ok ? 0.0 : 1.0};
    trainer.allreduceSum(failures);
    if (!ok)
      std::fprintf(stderr,
                   "rank %d: %s step %d: loss %.9g vs single-process %.9g, "
                   "parameters differ by %.3g (relative)\n",
                   trainer.rank(), what, step, lossDist, lossRef, paramDiff);
    if (trainer.isRoot())
      std::printf("%s step %d: loss %.9g (single process %.9g), max "
                  "relative parameter difference %.3g over %d ranks\n",
                  what, step, lossDist, lossRef, paramDiff, trainer.size());
    return failures[0] == 0;
  };

  bool ok = relativeDifference(model, reference) == 0;
  if (!ok)
    std::fprintf(stderr, "rank %d: parameters differ from rank 0's after "
                         "the broadcast\n", trainer.rank());
  const int badStep = args.number("bad-step", -1);
  for (int step = 0; step < steps; ++step) {
    if (step == badStep) {
      ok &= failsEverywhere(workload, trainer, model, step, batchSize, sizes);
      continue;
    }
    cavs::GraphBatch batch = workload.batch(100 + step, batchSize, sizes);
    const double loss = trainer.step(batch);
    const double referenceLoss = reference.forward(batch);
    reference.backward();
    reference.step(referenceOptimizer);
    const cavs_dist_stats stats = trainer.lastStats();
    std::printf("rank %d: step %d: %d samples, %d of %d vertices; %lld "
                "dense bytes, %lld of them sent during the backward pass\n",
                trainer.rank(), step, stats.local_samples, stats.local_vertices,
                stats.global_vertices, (long long)stats.dense_bytes,
                (long long)stats.early_bytes);
    // The output layer's and the leaves' weight gradients are final before
    // the pass ends (cavsc --emit=stats), so their sums start early.
    const bool early = stats.early_bytes > 0 &&
                       stats.early_bytes < stats.dense_bytes;
    if (stats.dense_on_gpus != (onGpus ? 1 : 0) ||
        (stats.local_samples > 0 && early != listens)) {
      std::fprintf(stderr,
                   "rank %d: step %d: dense sums on the GPUs %d (expected "
                   "%d), %lld of %lld bytes sent early (expected %s)\n",
                   trainer.rank(), step, stats.dense_on_gpus, onGpus ? 1 : 0,
                   (long long)stats.early_bytes, (long long)stats.dense_bytes,
                   listens ? "some, not all" : "none");
      ok = false;
    }
    if (!frozen.empty()) {
      const cavs::Span<const float> values = model.paramValues(frozen);
      const bool unchanged =
          std::equal(values.begin(), values.end(), frozenValues.begin());
      if (!unchanged || stats.sparse_rows != 0 || stats.sparse_bytes != 0 ||
          stats.index_bytes != 0) {
        std::fprintf(
            stderr,
            "rank %d: step %d: frozen '%s' %s; %lld table rows, "
            "%lld table bytes and %lld row-id bytes exchanged "
            "(expected none)\n",
            trainer.rank(), step, frozen.c_str(),
            unchanged ? "unchanged" : "CHANGED", (long long)stats.sparse_rows,
            (long long)stats.sparse_bytes, (long long)stats.index_bytes);
        ok = false;
      }
    }
    const bool zeroed = gradientsZeroed(model),
               referenceZeroed = gradientsZeroed(reference);
    if (!zeroed || !referenceZeroed) {
      std::fprintf(stderr,
                   "rank %d: step %d: gradients remain after the "
                   "step's zeroing (%s)\n",
                   trainer.rank(), step,
                   zeroed ? "single process" : "distributed");
      ok = false;
    }
    ok &= report("train", step, loss, referenceLoss,
                 relativeDifference(model, reference));
  }

  // N -> 1: rank 0 writes, a fresh single-process model reads.
  trainer.save(checkpoint);
  cavs::Model restored(workload.def, 99);
  cavs::Optimizer restoredOptimizer(restored.params(), options);
  restored.load(checkpoint, &restoredOptimizer);
  ok &= report("restore-into-1", steps, 0, 0,
               relativeDifference(restored, model));

  // 1 -> N: the single-process reference's checkpoint (per rank, so ranks
  // do not race on one file) loads into every replica; one more step on
  // both must still agree.
  const std::string single =
      checkpoint + ".single." + std::to_string(trainer.rank());
  reference.save(single, &referenceOptimizer);
  model.load(single, &optimizer);
  std::remove(single.c_str());
  cavs::GraphBatch batch = workload.batch(999, batchSize, sizes);
  const double loss = trainer.step(batch);
  const double referenceLoss = reference.forward(batch);
  reference.backward();
  reference.step(referenceOptimizer);
  ok &= report("after-load-from-1", steps + 1, loss, referenceLoss,
               relativeDifference(model, reference));
  if (trainer.isRoot())
    std::printf(ok ? "PASS: %d ranks match one process\n"
                   : "FAIL: %d ranks differ from one process\n",
                trainer.size());
  return ok ? 0 : 1;
}

int fail(const Args &args) {
  const Workload workload = workloadOf(args);
  const std::string how = args.get("fail", "kill");
  const int failRank = args.number("fail-rank", 1);
  const int failStep = args.number("fail-step", 2);
  const std::string checkpoint = args.get("checkpoint", "dist-fail.ckpt");
  const cavs_optimizer_options options = optimizerOptions("sgd");
  cavs::Model model(workload.def, 1);
  cavs::Optimizer optimizer(model.params(), options);
  cavs::dist::Trainer trainer(model, optimizer);
  for (int step = 0; step < 1000; ++step) {
    if (step == failStep && trainer.rank() == failRank) {
      std::fprintf(stderr, "rank %d: simulating a %s at step %d\n",
                   trainer.rank(), how.c_str(), step);
      std::fflush(stderr);
      if (how == "kill")
        std::raise(SIGKILL);
      for (;;) // a hang: alive, but never joins a collective again
        std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    cavs::GraphBatch batch = workload.batch(100 + step, 8, TreeSizes::Small);
    const double loss = trainer.step(batch);
    trainer.save(checkpoint);
    if (trainer.isRoot())
      std::printf("step %d: loss %.6g, checkpoint saved\n", step, loss);
    std::fflush(stdout);
  }
  return 0;
}

int load(const Args &args) {
  const std::string checkpoint = args.get("checkpoint", "dist-fail.ckpt");
  cavs::Model model(workloadOf(args).def, 5);
  cavs::Optimizer optimizer(model.params(), optimizerOptions("sgd"));
  model.load(checkpoint, &optimizer);
  std::printf("checkpoint '%s' loads: %lld optimizer steps\n",
              checkpoint.c_str(), (long long)optimizer.stepCount());
  return 0;
}

int bench(const Args &args) {
  const int steps = args.number("steps", 20);
  const int batchSize = args.number("batch", 25);
  const bool single = args.get("single", "0") == "1";
  cavs::check(cavs_set_num_threads(args.number("threads", 1)));
  const cavs_optimizer_options options = optimizerOptions("adagrad");
  const Workload workload = workloadOf(args);
  cavs::Model model(workload.def, 1);
  cavs::Optimizer optimizer(model.params(), options);
  std::unique_ptr<cavs::dist::Trainer> trainer;
  if (!single)
    trainer = std::make_unique<cavs::dist::Trainer>(model, optimizer);
  std::vector<cavs::GraphBatch> batches;
  for (int step = 0; step < steps + 2; ++step)
    batches.push_back(
        workload.batch(100 + step, batchSize, TreeSizes::SstLike));
  double seconds = 0, bytes = 0, early = 0, comm = 0;
  for (int step = 0; step < steps + 2; ++step) {
    const auto start = std::chrono::steady_clock::now();
    if (trainer) {
      trainer->step(batches[step]);
    } else {
      model.forward(batches[step]);
      model.backward();
      model.step(optimizer);
    }
    const double elapsed = std::chrono::duration<double>(
                               std::chrono::steady_clock::now() - start)
                               .count();
    if (step < 2) // warm-up: buffers grow
      continue;
    seconds += elapsed;
    if (trainer) {
      const cavs_dist_stats stats = trainer->lastStats();
      bytes += double(stats.dense_bytes + stats.sparse_bytes);
      early += double(stats.early_bytes);
      comm += stats.comm_seconds;
    }
  }
  if (!trainer || trainer->isRoot())
    std::printf("%s, %d thread(s): %.2f steps/s (batch %d), %.0f bytes "
                "all-reduced per step per rank (%.0f started during the "
                "backward pass), %.1f%% of the time in the exchange\n",
                trainer ? (std::to_string(trainer->size()) + " ranks").c_str()
                        : "1 process",
                cavs_num_threads(), steps / seconds, batchSize, bytes / steps,
                early / steps, 100 * comm / seconds);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  const Args args = parse(argc, argv);
  // One kernel thread per rank unless asked: ranks share the cores.
  cavs_set_num_threads(args.number("threads", 1));
  try {
    if (args.mode == "compare")
      return compare(args);
    if (args.mode == "fail")
      return fail(args);
    if (args.mode == "load")
      return load(args);
    if (args.mode == "bench")
      return bench(args);
    std::fprintf(stderr, "usage: %s compare|fail|load|bench [--name value]...\n",
                 argv[0]);
    return 2;
  } catch (const cavs::Error &error) {
    // After a communication failure exiting non-zero is enough: the
    // runtime aborts the MPI job at exit, so mpirun stops every rank.
    std::fprintf(stderr, "error: %s\n", error.what());
    return 1;
  }
}
