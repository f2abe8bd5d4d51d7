//===- App.h - the frame around every app's training loop -------*- C++ -*-===//
//
// The shared frame of the apps: exit codes and error messages (2 for a bad
// command line, 1 for a failure at run time), kernel threads and the GEMM
// banner, the model banner and optimizer options, and the checks of model
// dimensions against the data.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_EXAMPLES_APP_H
#define CAVS_EXAMPLES_APP_H

#include "ArgParser.h"

#include "cavs/runtime.hpp"

#include <cstdint>
#include <functional>
#include <string>

namespace cavs_examples {

/// Parses the command line with `parser` (printing --help), then calls
/// `run`; turns exceptions into a message on stderr and the exit status.
int runApp(const ArgParser &parser, int argc, char **argv,
           const std::function<int()> &run);

/// Sets the kernel threads (0 keeps the runtime's default) and prints the
/// GEMM engine with its kernel family, and the thread count.
void setUpThreads(int32_t threads);

/// Prints "model: <name>, <count> parameters on <device>; <details>".
void printModel(const cavs::Model &model, const std::string &details);

/// The options of an optimizer of `kind` with the given learning rate,
/// gradient-norm clipping (0: none) and weight decay.
cavs_optimizer_options optimizerOptions(cavs::OptimizerKind kind,
                                        double learningRate, double clip = 0,
                                        double weightDecay = 0);

/// Rows of matrix parameter `name` (an embedding table); throws a message
/// naming the dimension `dim` to raise with cavs_add_model DEFINES when
/// `needed` ids do not fit.
void requireRows(const cavs::Model &model, const std::string &name,
                 int64_t needed, const std::string &dim);

/// requireRows for `needed` ids asked for by a command-line flag: a usage
/// error naming `flag` and its value (checked before any data is loaded).
void requireRowsForFlag(const cavs::Model &model, const std::string &flag,
                        const std::string &name, int64_t needed,
                        const std::string &dim);

} // namespace cavs_examples

#endif // CAVS_EXAMPLES_APP_H
