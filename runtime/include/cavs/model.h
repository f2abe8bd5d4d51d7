//===- model.h - model descriptors and parameter stores of the cavs C ABI -===//
//
// A generated model library describes its trainable parameters with a static
// model descriptor (plain C structs the compiler emits as constant data); the
// runtime turns it into a parameter store: ONE 64-byte-aligned float buffer
// that holds every parameter, so optimizers run over flat arrays and a
// parameter pack (members stored back to back) is one matrix for a GEMM.
// A gradient store has the same layout and can track which rows of an
// embedding table the backward pass touched, for sparse updates.
//
// Layout of the flat buffer: parameters in declaration order, each starting
// at a multiple of CAVS_PARAM_ALIGNMENT floats, except that the members of a
// pack directly follow each other (row-stacked) where its first declared
// member would be, so only the pack as a whole is aligned. Padding between
// tensors is zero and stays zero. Parameter indices are the declaration
// order whatever the packs.
//
// Parameters are f32, rank 1 (vectors) or 2 (row-major matrices). See
// docs/runtime.md, "Parameters, optimizers and checkpoints".
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_MODEL_H
#define CAVS_MODEL_H

#include "cavs/status.h"

#include <stdint.h>

CAVS_EXTERN_C_BEGIN

/// The version of the descriptor structs below; a descriptor records the
/// version it was compiled against in cavs_model_desc::version.
#define CAVS_MODEL_DESC_VERSION 2

/// Parameters (and packs) start at a multiple of this many floats (64 bytes)
/// of the flat buffer, whose base is 64-byte aligned.
#define CAVS_PARAM_ALIGNMENT 16

/// What a model may declare, checked by cavsc when it compiles a model and
/// by the runtime when it creates one: every dimension of a parameter, the
/// parameter elements of a model in all (each tensor counted with one
/// alignment of padding), and the floats per vertex (the state, a pull or
/// push, and each vertex function's arena and scratch rows), so that sizes
/// times vertex counts and byte counts never overflow int64.
#define CAVS_MAX_DIMENSION INT32_MAX
#define CAVS_MAX_PARAM_ELEMENTS (INT64_C(1) << 56)
#define CAVS_MAX_VERTEX_FLOATS INT32_MAX
/// A normal initializer draws at most this many standard deviations from
/// its mean (Box-Muller from 53-bit uniforms: 8.6), so
/// |mean| + CAVS_NORMAL_INIT_DEVIATIONS * deviation must be a finite f32.
#define CAVS_NORMAL_INIT_DEVIATIONS 9

/// How a parameter is initialised, one CAVS_INIT_<NAME> per entry of
/// cavs/init_kinds.def (which the compiler reads too):
/// - ZEROS: all elements 0.
/// - ONES: all elements 1.
/// - CONSTANT: all elements init_args[0].
/// - UNIFORM: uniform in [init_args[0], init_args[1]), with lo < hi.
/// - NORMAL: normal with mean init_args[0] and standard deviation
///   init_args[1] > 0, |mean| + CAVS_NORMAL_INIT_DEVIATIONS * deviation a
///   finite f32.
/// - XAVIER: Glorot uniform: uniform in [-l, l),
///   l = sqrt(6 / (fan_in + fan_out)), fan_out = rows, fan_in = columns; a
///   vector of size n uses fan_in = fan_out = n.
typedef enum cavs_init_kind {
#define CAVS_INIT_KIND(keyword, NAME, value, args) CAVS_INIT_##NAME = value,
#include "cavs/init_kinds.def"
  /// Not a kind: makes the enum 32 bits wide.
  CAVS_INIT_FORCE_INT32 = 0x7fffffff,
} cavs_init_kind;

/// One trainable parameter of a model descriptor.
typedef struct cavs_param_desc {
  /// Unique, non-empty name (the symbol of cavs.param, without '@').
  const char *name;
  /// 1 (vector) or 2 (matrix).
  int32_t rank;
  cavs_init_kind init;
  /// {size, 0} for a vector, {rows, columns} for a matrix; every used
  /// dimension in [1, INT32_MAX], the unused one 0.
  int64_t shape[2];
  /// Numbers of the initializer (see cavs_init_kind); unused ones ignored.
  double init_args[2];
} cavs_param_desc;

/// A parameter pack: parameters stored back to back, in the order of
/// `members`, so that they form one tensor: matrices with equal column
/// counts stacked by rows, or vectors concatenated. The members may lie
/// anywhere in the descriptor's list (its order is the declaration order);
/// a parameter belongs to at most one pack.
typedef struct cavs_pack_desc {
  /// Unique, non-empty name, distinct from every parameter name.
  const char *name;
  /// At least 1.
  int32_t num_params;
  /// Indices into cavs_model_desc::params of the members, in stacking
  /// order.
  const int32_t *members;
} cavs_pack_desc;

/// The static description of a model's parameters.
typedef struct cavs_model_desc {
  /// CAVS_MODEL_DESC_VERSION of the emitting compiler.
  int32_t version;
  int32_t num_params;
  int32_t num_packs;
  /// Non-empty model name (for messages and checkpoints).
  const char *name;
  /// The identity of the model's trained state, computed by the compiler
  /// from the parameter names and shapes and the state width (not from
  /// packs or anything else a build chooses); the runtime only compares it
  /// (checkpoints record it).
  uint64_t signature;
  const cavs_param_desc *params;
  /// May be NULL when num_packs is 0.
  const cavs_pack_desc *packs;
} cavs_model_desc;

/// Where a parameter lives in the flat buffer.
typedef struct cavs_param_info {
  const char *name;
  int32_t rank;
  /// Index of the pack holding the parameter, or -1.
  int32_t pack;
  /// As in cavs_param_desc: {size, 0} or {rows, columns}.
  int64_t shape[2];
  /// Index of the first element in the flat buffer.
  int64_t offset;
  /// Number of elements.
  int64_t size;
} cavs_param_info;

/// Where a pack lives in the flat buffer.
typedef struct cavs_pack_info {
  const char *name;
  int32_t rank;
  int32_t num_params;
  /// The parameter indices of the members, in stacking order.
  const int32_t *members;
  /// {total size, 0} for vectors, {total rows, columns} for matrices.
  int64_t shape[2];
  /// The offset of members[0].
  int64_t offset;
  int64_t size;
} cavs_pack_info;

/// The parameter values of one model instance; not thread-safe while written.
typedef struct cavs_param_store cavs_param_store;
/// Gradients in the layout of a parameter store.
typedef struct cavs_grad_store cavs_grad_store;

//===----------------------------------------------------------------------===//
// Parameter stores
//===----------------------------------------------------------------------===//

/// Validates `desc` and creates its parameter store, initialising every
/// parameter from `seed`: parameter p draws from its own random stream,
/// derived from the seed and p's name only, so results are the same on
/// every platform and adding a parameter leaves the others unchanged. The
/// store copies what it needs from `desc`. Fails with
/// CAVS_ERROR_INVALID_ARGUMENT (naming the model and parameter) for a bad
/// descriptor, CAVS_ERROR_UNSUPPORTED for another descriptor version.
CAVS_API cavs_status cavs_param_store_create(const cavs_model_desc *desc,
                                             uint64_t seed,
                                             cavs_param_store **out_store);

/// Destroys a store; NULL is ignored.
CAVS_API void cavs_param_store_destroy(cavs_param_store *store);

// Accessors never fail: on NULL or an index out of range they return NULL,
// 0 or -1. Pointers live as long as the store.

/// Name of the model.
CAVS_API const char *cavs_param_store_model_name(const cavs_param_store *store);
/// Signature of the model.
CAVS_API uint64_t cavs_param_store_signature(const cavs_param_store *store);
/// Number of floats in the flat buffer, padding included.
CAVS_API int64_t cavs_param_store_size(const cavs_param_store *store);
/// The flat buffer (64-byte aligned). Taking it counts as a change of the
/// values: a model instance on a GPU uploads them before its next forward
/// pass. Readers use cavs_param_store_values.
CAVS_API float *cavs_param_store_data(cavs_param_store *store);
/// The flat buffer, read-only (no upload follows).
CAVS_API const float *cavs_param_store_values(const cavs_param_store *store);

/// Number of parameters.
CAVS_API int32_t cavs_param_store_num_params(const cavs_param_store *store);
/// Index of the parameter called `name`, or -1.
CAVS_API int32_t cavs_param_store_find_param(const cavs_param_store *store,
                                             const char *name);
/// Layout of parameter `index`.
CAVS_API const cavs_param_info *
cavs_param_store_param(const cavs_param_store *store, int32_t index);
/// Values of parameter `index`; taking them counts as a change, as for
/// cavs_param_store_data.
CAVS_API float *cavs_param_store_param_data(cavs_param_store *store,
                                            int32_t index);
/// Values of parameter `index`, read-only (see cavs_param_store_values).
CAVS_API const float *
cavs_param_store_param_values(const cavs_param_store *store, int32_t index);

/// Number of packs.
CAVS_API int32_t cavs_param_store_num_packs(const cavs_param_store *store);
/// Index of the pack called `name`, or -1.
CAVS_API int32_t cavs_param_store_find_pack(const cavs_param_store *store,
                                            const char *name);
/// Layout of pack `index`.
CAVS_API const cavs_pack_info *
cavs_param_store_pack(const cavs_param_store *store, int32_t index);
/// Values of pack `index`: its members, back to back; taking them counts
/// as a change, as for cavs_param_store_data.
CAVS_API float *cavs_param_store_pack_data(cavs_param_store *store,
                                           int32_t index);

/// Freezes (`frozen` nonzero, as a C boolean) or unfreezes (0) parameter
/// `index`. Optimizer
/// steps leave a frozen parameter and its optimizer state unchanged, and
/// the distributed trainer does not exchange its gradient (freeze before
/// creating the trainer, on every rank). Its values stay writable and are
/// saved and loaded by checkpoints as before; the flag itself is not saved.
/// New stores freeze nothing. Fails for an index out of range.
CAVS_API cavs_status cavs_param_store_set_frozen(cavs_param_store *store,
                                                 int32_t index, int32_t frozen);
/// 1 when parameter `index` is frozen, else 0 (also on NULL or an index out
/// of range).
CAVS_API int32_t cavs_param_store_frozen(const cavs_param_store *store,
                                         int32_t index);

//===----------------------------------------------------------------------===//
// Gradient stores
//===----------------------------------------------------------------------===//

/// Creates a zeroed gradient store in the layout of `params` (same size,
/// offsets and indices); it does not refer to `params` afterwards.
CAVS_API cavs_status cavs_grad_store_create(const cavs_param_store *params,
                                            cavs_grad_store **out_grads);

/// Destroys a gradient store; NULL is ignored.
CAVS_API void cavs_grad_store_destroy(cavs_grad_store *grads);

/// Number of floats in the flat buffer (that of the parameter store).
CAVS_API int64_t cavs_grad_store_size(const cavs_grad_store *grads);
/// The flat buffer (64-byte aligned); NULL on NULL.
CAVS_API float *cavs_grad_store_data(cavs_grad_store *grads);
/// Layout of parameter `index` (as in the parameter store), or NULL.
CAVS_API const cavs_param_info *
cavs_grad_store_param(const cavs_grad_store *grads, int32_t index);
/// Layout of pack `index` (as in the parameter store), or NULL.
CAVS_API const cavs_pack_info *
cavs_grad_store_pack(const cavs_grad_store *grads, int32_t index);
/// Gradient of parameter `index`, or NULL when out of range.
CAVS_API float *cavs_grad_store_param_data(cavs_grad_store *grads,
                                           int32_t index);
/// Gradient of pack `index` (its members back to back), or NULL when out of
/// range.
CAVS_API float *cavs_grad_store_pack_data(cavs_grad_store *grads,
                                          int32_t index);

/// Sets every gradient to zero. For a parameter that tracks rows only its
/// touched rows are cleared (the others are zero already), and its list of
/// touched rows is emptied; this is what makes zeroing a large embedding
/// table cheap.
CAVS_API void cavs_grad_store_zero(cavs_grad_store *grads);

/// Starts tracking the touched rows of matrix parameter `param` (an
/// embedding table): zeroes its gradient and empties its list. From then on
/// the backward pass must mark every row it writes (cavs_grad_store_mark_rows)
/// and may assume unmarked rows are zero; optimizers update only marked rows
/// (see cavs/optim.h). Tracking twice is harmless. Fails for an index out of
/// range or a vector, and on a model instance's store (cavs_model_grads) for
/// a parameter the instance does not track: its generated backward marks
/// the rows of its lookup tables only.
CAVS_API cavs_status cavs_grad_store_track_rows(cavs_grad_store *grads,
                                                int32_t param);

/// Whether parameter `param` tracks rows (1) or not (0).
CAVS_API int32_t cavs_grad_store_tracks_rows(const cavs_grad_store *grads,
                                             int32_t param);

/// Marks `count` rows of matrix parameter `param` as touched (repeats are
/// fine). Every row must be in [0, rows); otherwise nothing is marked and the
/// call fails. For a parameter that does not track rows the call only checks
/// the rows, so the backward pass of a lookup can mark unconditionally.
CAVS_API cavs_status cavs_grad_store_mark_rows(cavs_grad_store *grads,
                                               int32_t param,
                                               const int32_t *rows,
                                               int64_t count);

/// Number of distinct rows of `param` marked since the last zeroing (0 when
/// it does not track rows).
CAVS_API int64_t cavs_grad_store_num_touched_rows(const cavs_grad_store *grads,
                                                  int32_t param);
/// Those rows, in the order they were first marked; valid until the next
/// mark, zero or track call.
CAVS_API const int32_t *
cavs_grad_store_touched_rows(const cavs_grad_store *grads, int32_t param);

CAVS_EXTERN_C_END

#endif // CAVS_MODEL_H
