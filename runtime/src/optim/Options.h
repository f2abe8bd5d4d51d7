//===- Options.h - optimizer hyperparameters and state slots --------------===//
//
// Everything that depends only on the options of an optimizer: defaults,
// validation, the state slots a kind keeps, and the named hyperparameter
// list that checkpoints record.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_RUNTIME_OPTIM_OPTIONS_H
#define CAVS_RUNTIME_OPTIM_OPTIONS_H

#include "cavs/optim.h"
#include "support/Status.h"

#include <string_view>
#include <vector>

namespace cavs::runtime {

/// Whether `kind` is one of the optimizer kinds.
bool isOptimizerKind(int64_t kind);

/// "SGD", "Adagrad" or "Adam"; "unknown" for other values.
const char *optimizerKindName(int64_t kind);

/// The defaults of `kind` (see cavs_optimizer_options_init).
Status defaultOptions(cavs_optimizer_kind kind, cavs_optimizer_options &out);

/// Checks every field that `options.kind` uses.
Status validateOptions(const cavs_optimizer_options &options);

/// Checks a learning rate: finite and >= 0.
Status validateLearningRate(double learningRate);

/// The names of the state arrays the options need, in order; each is a flat
/// array in the parameter layout. SGD keeps "velocity" only with momentum,
/// Adagrad "sum", Adam "m" and "v".
std::vector<const char *> slotNames(const cavs_optimizer_options &options);

/// Whether state slot `name` sums squares (Adagrad's "sum", Adam's "v"),
/// so that no value of it can be negative.
bool isSumOfSquaresSlot(std::string_view name);

/// A hyperparameter as checkpoints record it.
struct Hyperparameter {
  const char *name;
  double value;
};

/// The hyperparameters `options.kind` uses, in a fixed order; booleans are
/// 0 or 1.
std::vector<Hyperparameter>
hyperparameters(const cavs_optimizer_options &options);

/// Sets hyperparameter `name` of `options.kind`; false when the kind has
/// no hyperparameter of that name.
bool setHyperparameter(cavs_optimizer_options &options, std::string_view name,
                       double value);

} // namespace cavs::runtime

#endif // CAVS_RUNTIME_OPTIM_OPTIONS_H
