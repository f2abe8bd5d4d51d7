//===- Options.cpp - defaults, validation and named hyperparameters -------===//
//
// One table lists every hyperparameter with the kinds that use it, so the
// checkpoint writer and reader cannot disagree on names or order.
//
//===----------------------------------------------------------------------===//
#include "optim/Options.h"

#include <cmath>

namespace cavs::runtime {

bool isOptimizerKind(int64_t kind) {
  return kind == CAVS_OPTIMIZER_SGD || kind == CAVS_OPTIMIZER_ADAGRAD ||
         kind == CAVS_OPTIMIZER_ADAM;
}

namespace {

constexpr unsigned kindBit(int64_t kind) {
  return kind >= 0 && kind < 32 ? 1u << kind : 0u;
}
constexpr unsigned kSgd = kindBit(CAVS_OPTIMIZER_SGD);
constexpr unsigned kAdagrad = kindBit(CAVS_OPTIMIZER_ADAGRAD);
constexpr unsigned kAdam = kindBit(CAVS_OPTIMIZER_ADAM);

/// A hyperparameter field of cavs_optimizer_options, read and written as a
/// double.
struct Field {
  const char *name;
  /// kindBit of every kind that uses it.
  unsigned kinds;
  double (*get)(const cavs_optimizer_options &);
  void (*set)(cavs_optimizer_options &, double);
};

#define CAVS_DOUBLE_FIELD(member, kinds)                                       \
  Field {                                                                      \
#member, kinds,                                                            \
        [](const cavs_optimizer_options                                        \
               &o) { return o.member; }, [](cavs_optimizer_options & o,        \
                                            double v) { o.member = v; }        \
  }

const Field kFields[] = {
    CAVS_DOUBLE_FIELD(learning_rate, kSgd | kAdagrad | kAdam),
    CAVS_DOUBLE_FIELD(weight_decay, kSgd | kAdagrad | kAdam),
    CAVS_DOUBLE_FIELD(clip_norm, kSgd | kAdagrad | kAdam),
    CAVS_DOUBLE_FIELD(momentum, kSgd),
    Field{"nesterov", kSgd,
          [](const cavs_optimizer_options &o) { return double(o.nesterov); },
          // A stored value other than 0 or 1 stays invalid for validation.
          [](cavs_optimizer_options &o, double v) {
            o.nesterov = v == 0 ? 0 : v == 1 ? 1 : -1;
          }},
    CAVS_DOUBLE_FIELD(beta1, kAdam),
    CAVS_DOUBLE_FIELD(beta2, kAdam),
    CAVS_DOUBLE_FIELD(epsilon, kAdagrad | kAdam),
};

#undef CAVS_DOUBLE_FIELD

bool uses(const Field &field, cavs_optimizer_kind kind) {
  return (field.kinds & kindBit(kind)) != 0;
}

/// Fails unless lo <= value < hi (or <= hi when `closed`) and finite.
Status checkRange(cavs_optimizer_kind kind, const char *what, double value,
                  double lo, double hi, bool closed, const char *rangeText) {
  const bool ok = std::isfinite(value) && value >= lo &&
                  (closed ? value <= hi : value < hi);
  if (ok)
    return Status();
  return makeError(CAVS_ERROR_INVALID_ARGUMENT, "{}: {} must be {}, not {}",
                   optimizerKindName(kind), what, rangeText, value);
}

Status checkKind(cavs_optimizer_kind kind) {
  if (isOptimizerKind(kind))
    return Status();
  return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                   "unknown optimizer kind {}; expected {} (SGD), {} "
                   "(Adagrad) or {} (Adam)",
                   static_cast<int64_t>(kind), int(CAVS_OPTIMIZER_SGD),
                   int(CAVS_OPTIMIZER_ADAGRAD), int(CAVS_OPTIMIZER_ADAM));
}

} // namespace

const char *optimizerKindName(int64_t kind) {
  switch (kind) {
  case CAVS_OPTIMIZER_SGD:
    return "SGD";
  case CAVS_OPTIMIZER_ADAGRAD:
    return "Adagrad";
  case CAVS_OPTIMIZER_ADAM:
    return "Adam";
  default:
    return "unknown";
  }
}

Status defaultOptions(cavs_optimizer_kind kind, cavs_optimizer_options &out) {
  CAVS_RETURN_IF_ERROR(checkKind(kind));
  out = cavs_optimizer_options{};
  out.kind = kind;
  out.learning_rate = kind == CAVS_OPTIMIZER_ADAM ? 1e-3 : 1e-2;
  out.beta1 = 0.9;
  out.beta2 = 0.999;
  out.epsilon = kind == CAVS_OPTIMIZER_ADAGRAD ? 1e-10 : 1e-8;
  return Status();
}

Status validateLearningRate(double learningRate) {
  if (std::isfinite(learningRate) && learningRate >= 0)
    return Status();
  return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                   "the learning rate must be finite and >= 0, not {}",
                   learningRate);
}

Status validateOptions(const cavs_optimizer_options &options) {
  const cavs_optimizer_kind kind = options.kind;
  CAVS_RETURN_IF_ERROR(checkKind(kind));
  CAVS_RETURN_IF_ERROR(validateLearningRate(options.learning_rate));
  const double infinity = HUGE_VAL;
  CAVS_RETURN_IF_ERROR(checkRange(kind, "the weight decay",
                                  options.weight_decay, 0, infinity, false,
                                  "finite and >= 0"));
  CAVS_RETURN_IF_ERROR(checkRange(kind, "the clipping norm", options.clip_norm,
                                  0, infinity, false,
                                  "finite and >= 0 (0 disables clipping)"));
  if (kind == CAVS_OPTIMIZER_SGD) {
    CAVS_RETURN_IF_ERROR(checkRange(kind, "the momentum", options.momentum, 0,
                                    1, false, "in [0, 1)"));
    if (options.nesterov != 0 && options.nesterov != 1)
      return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                       "SGD: nesterov must be 0 or 1, not {}",
                       options.nesterov);
    if (options.nesterov && options.momentum == 0)
      return Status(CAVS_ERROR_INVALID_ARGUMENT,
                    "SGD: Nesterov momentum needs a momentum > 0");
  }
  if (kind == CAVS_OPTIMIZER_ADAM) {
    CAVS_RETURN_IF_ERROR(
        checkRange(kind, "beta1", options.beta1, 0, 1, false, "in [0, 1)"));
    CAVS_RETURN_IF_ERROR(
        checkRange(kind, "beta2", options.beta2, 0, 1, false, "in [0, 1)"));
  }
  if (kind != CAVS_OPTIMIZER_SGD &&
      !(std::isfinite(options.epsilon) && options.epsilon > 0))
    return makeError(CAVS_ERROR_INVALID_ARGUMENT,
                     "{}: epsilon must be finite and > 0, not {}",
                     optimizerKindName(kind), options.epsilon);
  return Status();
}

std::vector<const char *> slotNames(const cavs_optimizer_options &options) {
  switch (options.kind) {
  case CAVS_OPTIMIZER_SGD:
    if (options.momentum != 0)
      return {"velocity"};
    return {};
  case CAVS_OPTIMIZER_ADAGRAD:
    return {"sum"};
  case CAVS_OPTIMIZER_ADAM:
    return {"m", "v"};
  default:
    return {};
  }
}

bool isSumOfSquaresSlot(std::string_view name) {
  return name == "sum" || name == "v";
}

std::vector<Hyperparameter>
hyperparameters(const cavs_optimizer_options &options) {
  std::vector<Hyperparameter> result;
  for (const Field &field : kFields)
    if (uses(field, options.kind))
      result.push_back({field.name, field.get(options)});
  return result;
}

bool setHyperparameter(cavs_optimizer_options &options, std::string_view name,
                       double value) {
  for (const Field &field : kFields)
    if (uses(field, options.kind) && name == field.name) {
      field.set(options, value);
      return true;
    }
  return false;
}

} // namespace cavs::runtime
