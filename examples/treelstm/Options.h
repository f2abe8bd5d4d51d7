//===- Options.h - command line of treelstm-train ---------------*- C++ -*-===//
#ifndef TREELSTM_OPTIONS_H
#define TREELSTM_OPTIONS_H

#include <cstdint>
#include <stdexcept>
#include <string>

namespace treelstm {

/// A malformed command line; main prints it with a pointer to --help.
class UsageError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

struct Options {
  /// Folder with train.txt, dev.txt and test.txt (SST bracket format).
  std::string dataDir;
  /// Whether --data was given (a missing split is then an error instead of
  /// a reason to fall back to synthetic data).
  bool dataGiven = false;
  /// Train on the generated synthetic sample even when SST is present.
  bool synthetic = false;
  int32_t epochs = 10;
  int32_t batchSize = 25;
  /// Adagrad learning rate.
  double learningRate = 0.05;
  /// L2 weight decay per tree (as in Tai et al.: gradients are means over
  /// the minibatch, then wd * p is added).
  double weightDecay = 1e-4;
  uint64_t seed = 1;
  /// Kernel threads; 0 keeps the runtime's default.
  int32_t threads = 0;
  /// Use only the first N training trees; -1 uses them all.
  int64_t maxTrain = -1;
  /// Trees per batch when evaluating dev and test.
  int32_t evalBatchSize = 500;
  std::string checkpoint = "treelstm.ckpt";
  bool help = false;
};

/// Parses the command line; throws UsageError.
Options parseOptions(int argc, char **argv);

/// The --help text.
std::string usage();

} // namespace treelstm

#endif // TREELSTM_OPTIONS_H
