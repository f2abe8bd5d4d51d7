//===- Options.cpp - command line of treelstm-train -----------------------===//
#include "Options.h"

#include <cerrno>
#include <cstdlib>
#include <limits>

namespace treelstm {

namespace {
std::string valueOf(int argc, char **argv, int &i, const std::string &flag,
                    const std::string &inlineValue, bool hasInline) {
  if (hasInline)
    return inlineValue;
  if (i + 1 >= argc)
    throw UsageError(flag + " needs a value");
  return argv[++i];
}

int64_t parseInteger(const std::string &flag, const std::string &text,
                     int64_t lo, int64_t hi) {
  errno = 0;
  char *end = nullptr;
  long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE || value < lo ||
      value > hi)
    throw UsageError(flag + " expects an integer in [" + std::to_string(lo) +
                     ", " + std::to_string(hi) + "], got '" + text + "'");
  return value;
}

double parseNumber(const std::string &flag, const std::string &text) {
  errno = 0;
  char *end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || errno == ERANGE || !(value >= 0) ||
      value == std::numeric_limits<double>::infinity())
    throw UsageError(flag + " expects a non-negative number, got '" + text +
                     "'");
  return value;
}
} // namespace

std::string usage() {
  return std::string(
             "usage: treelstm-train [options]\n"
             "\n"
             "Trains the binary Tree-LSTM of Tai et al. (2015), compiled from\n"
             "examples/models/treelstm.cavs, on Stanford Sentiment Treebank\n"
             "fine-grained (5-class) sentiment, and reports root accuracy.\n"
             "\n"
             "  --data DIR        folder with train.txt, dev.txt, test.txt\n"
             "                    (default: " TREELSTM_DEFAULT_DATA_DIR ";\n"
             "                    a synthetic sample is generated when it is absent)\n"
             "  --synthetic       train on the generated synthetic sample\n"
             "  --epochs N        passes over the training set (10)\n"
             "  --batch B         trees per minibatch (25)\n"
             "  --lr X            Adagrad learning rate (0.05)\n"
             "  --wd X            L2 weight decay per tree (1e-4)\n"
             "  --seed S          seed of initialisation and shuffling (1)\n"
             "  --threads T       kernel threads (default: $CAVS_NUM_THREADS or all cores)\n"
             "  --max-train N     use only the first N training trees\n"
             "  --eval-batch B    trees per batch when evaluating (500)\n"
             "  --checkpoint PATH where to save the model after each epoch\n"
             "                    (treelstm.ckpt)\n"
             "  --help            print this text\n");
}

Options parseOptions(int argc, char **argv) {
  Options options;
  options.dataDir = TREELSTM_DEFAULT_DATA_DIR;
  constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string flag = arg, inlineValue;
    bool hasInline = false;
    if (size_t eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      flag = arg.substr(0, eq);
      inlineValue = arg.substr(eq + 1);
      hasInline = true;
    }
    auto value = [&] {
      return valueOf(argc, argv, i, flag, inlineValue, hasInline);
    };
    if ((flag == "--help" || flag == "--synthetic") && hasInline)
      throw UsageError(flag + " takes no value");
    if (flag == "--help" || flag == "-h") {
      options.help = true;
    } else if (flag == "--data") {
      options.dataDir = value();
      options.dataGiven = true;
    } else if (flag == "--synthetic") {
      options.synthetic = true;
    } else if (flag == "--epochs") {
      options.epochs = int32_t(parseInteger(flag, value(), 1, kInt32Max));
    } else if (flag == "--batch") {
      options.batchSize = int32_t(parseInteger(flag, value(), 1, kInt32Max));
    } else if (flag == "--lr") {
      options.learningRate = parseNumber(flag, value());
    } else if (flag == "--wd") {
      options.weightDecay = parseNumber(flag, value());
    } else if (flag == "--seed") {
      options.seed = uint64_t(parseInteger(
          flag, value(), 0, std::numeric_limits<int64_t>::max()));
    } else if (flag == "--threads") {
      options.threads = int32_t(parseInteger(flag, value(), 1, 4096));
    } else if (flag == "--max-train") {
      options.maxTrain = parseInteger(flag, value(), 1, kInt32Max);
    } else if (flag == "--eval-batch") {
      options.evalBatchSize = int32_t(parseInteger(flag, value(), 1, kInt32Max));
    } else if (flag == "--checkpoint") {
      options.checkpoint = value();
      if (options.checkpoint.empty())
        throw UsageError("--checkpoint needs a non-empty path");
    } else {
      throw UsageError("unknown option '" + arg + "'");
    }
  }
  return options;
}

} // namespace treelstm
