//===- TrainOptions.cpp - the flags every training app has ----------------===//
#include "TrainOptions.h"

#include "cavs/instance.h"

#include <filesystem>
#include <limits>
#include <sstream>

namespace cavs_examples {

void addTrainOptions(ArgParser &parser, TrainOptions &options,
                     const std::string &unit, const std::string &optimizer,
                     const std::string &dataUnit) {
  constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
  parser.integer("--epochs", "passes over the training set", &options.epochs, 1,
                 kInt32Max);
  parser.integer("--batch", unit + " per minibatch", &options.batchSize, 1,
                 kInt32Max);
  parser.number("--lr", optimizer + " learning rate", &options.learningRate);
  parser.number("--clip", "gradient-norm clipping, 0 for none", &options.clip);
  parser.integer("--seed", "seed of initialisation and shuffling",
                 &options.seed, 0, std::numeric_limits<int64_t>::max());
  parser.integer("--threads",
                 "kernel threads (default: $CAVS_NUM_THREADS or all cores)",
                 &options.threads, 1, CAVS_MAX_THREADS);
  parser.integer("--max-train",
                 "use only the first N training " +
                     (dataUnit.empty() ? unit : dataUnit),
                 &options.maxTrain, 1, kInt32Max);
  parser.integer("--eval-batch", unit + " per batch when evaluating",
                 &options.evalBatchSize, 1, kInt32Max);
  parser.text("--checkpoint", "PATH",
              "save parameters, optimizer and run state after each epoch "
              "(and to PATH.best when the epoch is the best so far)",
              &options.checkpoint);
  parser.checkedText(
      "--resume", "PATH",
      "continue the run saved in checkpoint PATH up to --epochs (same flags "
      "otherwise; hyperparameters come from PATH)",
      &options.resume, existingFileProblem);
  parser.checkedText(
      "--device", "NAME",
      "run on cpu (default), cuda, cuda:N or auto (a GPU if there is one)",
      &options.device, [](const std::string &name) {
        cavs_device_options device;
        return cavs_device_parse(name.c_str(), &device) == CAVS_OK
                   ? std::string()
                   : std::string(cavs_last_error_message());
      });
  parser.text("--metrics", "FILE",
              "write the training curves to FILE, a JSON line per epoch "
              "(examples/README.md)",
              &options.metrics);
  parser.integer("--metrics-every",
                 "also a --metrics line every N training steps, 0 for none",
                 &options.metricsEvery, 0, kInt32Max);
  parser.number("--progress-every",
                "seconds between progress lines on stderr when it is not a "
                "terminal (a bar when it is), 0 for no progress",
                &options.progressEvery);
}

std::string existingFileProblem(const std::string &path) {
  std::error_code error;
  const std::filesystem::file_status status =
      std::filesystem::status(path, error);
  if (!std::filesystem::exists(status))
    return "no such file";
  if (std::filesystem::is_directory(status))
    return "a directory, not a file";
  return std::string();
}

std::string describeTraining(const TrainOptions &options,
                             const std::string &optimizer,
                             const std::string &unit) {
  std::ostringstream text;
  // A resumed run keeps its own (the "resumed" line prints them).
  if (!options.resume.empty())
    text << optimizer << " with the hyperparameters of the resumed run";
  else {
    text << optimizer << " lr " << options.learningRate;
    if (options.clip > 0)
      text << ", clip " << options.clip;
  }
  text << ", batch " << options.batchSize << " " << unit << ", seed "
       << options.seed;
  return text.str();
}

} // namespace cavs_examples
