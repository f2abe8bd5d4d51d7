//===- optim.h - optimizers of the cavs C ABI -----------------------------===//
//
// An optimizer updates a parameter store from a gradient store of the same
// model: SGD (with momentum, optionally Nesterov), Adagrad or Adam. Its state
// (velocity, squared-gradient sums, moments) has the flat layout of the
// parameter store, so an update is a few vectorizable loops over flat
// arrays.
//
// Every step, in order:
//  1. if clip_norm > 0 and the global L2 norm n of all gradients exceeds it,
//     every gradient is scaled by clip_norm / n (the gradient store itself is
//     not modified);
//  2. weight decay: SGD and Adagrad add weight_decay * p to the gradient (L2
//     regularisation); Adam decays the parameter directly,
//     p -= learning_rate * weight_decay * p (decoupled, as AdamW);
//  3. the update rule of the kind (see docs/runtime.md for the formulas).
//
// Sparse (lazy) semantics: for a parameter whose gradient tracks rows
// (cavs_grad_store_track_rows), only its touched rows take part: rows never
// touched since the last zeroing are not updated at all — no weight decay,
// no momentum or moment decay — as with DyNet's sparse updates and PyTorch's
// sparse optimizers. The step count and Adam's bias correction are global.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_OPTIM_H
#define CAVS_OPTIM_H

#include "cavs/model.h"

CAVS_EXTERN_C_BEGIN

/// The update rule; the values are also those of checkpoint files.
typedef enum cavs_optimizer_kind {
  /// p -= lr * d, with d = g, or with momentum m: v = m * v + g and
  /// d = v (d = g + m * v with Nesterov).
  CAVS_OPTIMIZER_SGD = 1,
  /// s += g * g; p -= lr * g / (sqrt(s) + epsilon).
  CAVS_OPTIMIZER_ADAGRAD = 2,
  /// Adam with bias correction and decoupled weight decay (AdamW).
  CAVS_OPTIMIZER_ADAM = 3,
  /// Not a kind: makes the enum 32 bits wide.
  CAVS_OPTIMIZER_FORCE_INT32 = 0x7fffffff,
} cavs_optimizer_kind;

/// Hyperparameters; fields a kind does not use are ignored. Start from
/// cavs_optimizer_options_init.
typedef struct cavs_optimizer_options {
  cavs_optimizer_kind kind;
  /// SGD: Nesterov momentum (0 or 1; 1 needs momentum > 0).
  int32_t nesterov;
  /// Step size, >= 0.
  double learning_rate;
  /// >= 0; L2 for SGD and Adagrad, decoupled for Adam.
  double weight_decay;
  /// Global-norm clipping threshold; 0 disables clipping.
  double clip_norm;
  /// SGD: momentum in [0, 1); 0 keeps no velocity state.
  double momentum;
  /// Adam: decay rates of the first and second moments, in [0, 1).
  double beta1;
  double beta2;
  /// Adagrad and Adam: added to the denominator, > 0.
  double epsilon;
} cavs_optimizer_options;

/// An optimizer and its state; not thread-safe.
typedef struct cavs_optimizer cavs_optimizer;

/// Fills `out_options` with the defaults of `kind`: learning rate 0.01 for
/// SGD and Adagrad, 0.001 for Adam; no weight decay, clipping or momentum;
/// Adagrad epsilon 1e-10; Adam betas 0.9 and 0.999, epsilon 1e-8.
CAVS_API cavs_status cavs_optimizer_options_init(
    cavs_optimizer_kind kind, cavs_optimizer_options *out_options);

/// Validates `options` and creates an optimizer for the model of `params`,
/// with zeroed state and step count 0. It keeps no reference to `params`.
CAVS_API cavs_status cavs_optimizer_create(
    const cavs_param_store *params, const cavs_optimizer_options *options,
    cavs_optimizer **out_optimizer);

/// Destroys an optimizer; NULL is ignored.
CAVS_API void cavs_optimizer_destroy(cavs_optimizer *optimizer);

/// Applies one update to `params` from `grads`; both must belong to the
/// optimizer's model (same signature and layout). Frozen parameters
/// (cavs_param_store_set_frozen) take no part: their values and optimizer
/// state stay as they are, and their gradients do not count towards the
/// clipping norm.
CAVS_API cavs_status cavs_optimizer_step(cavs_optimizer *optimizer,
                                         cavs_param_store *params,
                                         const cavs_grad_store *grads);

/// Changes the learning rate (for schedules); fails unless finite and >= 0.
CAVS_API cavs_status cavs_optimizer_set_learning_rate(cavs_optimizer *optimizer,
                                                      double learning_rate);

/// The current hyperparameters, or NULL on NULL.
CAVS_API const cavs_optimizer_options *
cavs_optimizer_options_of(const cavs_optimizer *optimizer);

/// Number of steps taken (restored by checkpoints); 0 on NULL.
CAVS_API int64_t cavs_optimizer_step_count(const cavs_optimizer *optimizer);

CAVS_EXTERN_C_END

#endif // CAVS_OPTIM_H
