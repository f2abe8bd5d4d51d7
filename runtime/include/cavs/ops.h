//===- ops.h - batched kernels called by the generated model code ---------===//
//
// The ABI between cavsc-generated code and the runtime: the few CPU kernels
// a vertex function's batched forward and backward code calls. It is not
// part of the user API (runtime.h does not include it).
//
// Data layout shared by every op:
// - a per-vertex value of a call is `rows` consecutive row-major rows: row r
//   starts at `base + r * ld`, with `ld` (elements between consecutive rows)
//   at least the value's width;
// - an i32 per-vertex value (token id, label) lives as int32 bits in a
//   float-sized slot and is passed as `const int32_t *` with the same ld;
// - parameters are plain row-major f32 arrays ([M, K] with ld = K);
// - the model state is one global row-major buffer, one row of `width`
//   floats per vertex of the batch (ld = width); children are passed as
//   `rows * arity` global state rows, children[r * arity + k], with -1
//   (CAVS_NO_CHILD) for an absent child. The schedule stores them slot-major
//   (cavs_call::children), so generated code passes slot k's column as
//   k = 0, arity = 1, children + k * rows.
//
// The generated code is trusted: pointers and sizes are not validated
// (pointers may be NULL only when nothing is read or written through them,
// e.g. rows == 0), and sources must not overlap destinations unless a
// function says so. Every op accepts rows == 0. Only the ops whose indices
// come from input data (lookup ids, labels) check them and return a
// cavs_status; they check every row before writing anything, so a failed
// call leaves its outputs untouched.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_OPS_H
#define CAVS_OPS_H

#include "cavs/model.h"

#include <stdint.h>

CAVS_EXTERN_C_BEGIN

/// C[m×n] = alpha · op(A)[m×k] · op(B)[k×n] + beta · C, all row-major, where
/// op(X) is X, or Xᵀ when the trans flag is nonzero (cblas_sgemm). Sizes and
/// leading dimensions must fit in 32 bits. With k == 0 C becomes beta · C
/// (and zero when beta == 0, whatever C held). The generated code uses it as
/// - matmul, Y[rows×M] = X[rows×K] · Wᵀ for W[M×K]:
///   gemm(0, 1, rows, M, K, 1, X, ldx, W, K, 0, Y, ldy);
/// - transposed matmul (the input gradient), DX[rows×K] = DY[rows×M] · W:
///   gemm(0, 0, rows, K, M, 1, DY, lddy, W, K, 0, DX, lddx);
/// - outer-product weight gradient, dW[M×K] += DYᵀ · X over the call's rows:
///   gemm(1, 0, M, K, rows, 1, DY, lddy, X, ldx, 1, dW, K).
/// beta = 1 accumulates in the first two uses as well.
CAVS_API void cavs_op_gemm(int trans_a, int trans_b, int64_t m, int64_t n,
                           int64_t k, float alpha, const float *a, int64_t lda,
                           const float *b, int64_t ldb, float beta, float *c,
                           int64_t ldc);

/// gather(k): dst row r = state row children[r * arity + k] (`width` floats),
/// or zeros when that child is absent (negative).
CAVS_API void cavs_op_gather(int64_t rows, int64_t k, int64_t arity,
                             const int32_t *children, const float *state,
                             int64_t width, float *dst, int64_t ld);

/// scatter: copies the rows into consecutive state rows starting at
/// `state_rows_begin` (the state row of the call's first vertex; ld = width).
CAVS_API void cavs_op_scatter(int64_t rows, const float *src, int64_t ld,
                              float *state_rows_begin, int64_t width);

/// Backward of gather(k): state_grad row children[r * arity + k] += src row r,
/// skipping absent children. Rows may share a child (DAGs); their
/// contributions all accumulate, in row order.
CAVS_API void cavs_op_child_grad(int64_t rows, int64_t k, int64_t arity,
                                 const int32_t *children, const float *src,
                                 int64_t ld, float *state_grad, int64_t width);

/// dst row r = src row r (`width` floats); used for pull, push, state
/// gradient reads, slices and the parts of concat and pad.
CAVS_API void cavs_op_copy_rows(int64_t rows, int64_t width, const float *src,
                                int64_t src_ld, float *dst, int64_t dst_ld);

/// Sets `width` floats of each row to zero (gradient initialization, the
/// padding of pad).
CAVS_API void cavs_op_zero_rows(int64_t rows, int64_t width, float *dst,
                                int64_t ld);

/// Embedding lookup: dst row r = table row index[r * index_ld] of the
/// [table_rows × width] table, or zeros for a negative index. An index
/// ≥ table_rows fails with CAVS_ERROR_INVALID_ARGUMENT ("lookup index 21705
/// is out of range [0, 21701) at row 3").
CAVS_API cavs_status cavs_op_lookup(int64_t rows, const int32_t *index,
                                    int64_t index_ld, const float *table,
                                    int64_t table_rows, int64_t width,
                                    float *dst, int64_t ld);

/// Backward of lookup: table_grad row index[r * index_ld] += src row r,
/// skipping negative indices; repeated indices accumulate. Fails like
/// cavs_op_lookup for an index ≥ table_rows. Marking the touched rows of a
/// sparse gradient is the caller's job.
CAVS_API cavs_status cavs_op_lookup_grad(int64_t rows, const int32_t *index,
                                         int64_t index_ld, const float *src,
                                         int64_t ld, float *table_grad,
                                         int64_t table_rows, int64_t width);

/// dst[c] += Σ_r src[r][c] for c < width (the bias gradient).
CAVS_API void cavs_op_column_sum(int64_t rows, int64_t width, const float *src,
                                 int64_t ld, float *dst);

/// Row-wise softmax over `width` columns, shifted by the row maximum so
/// large logits do not overflow. src may equal dst (with the same ld).
CAVS_API void cavs_op_softmax(int64_t rows, int64_t width, const float *src,
                              int64_t ld, float *dst, int64_t dst_ld);

/// dst[r * dst_ld] = −log softmax(logits row r)[label], computed as
/// logsumexp − logit so it is stable; 0 for a negative label (an unlabeled
/// vertex). A label ≥ width fails with CAVS_ERROR_INVALID_ARGUMENT
/// ("cross-entropy label 5 is out of range [0, 5) at row 2").
CAVS_API cavs_status cavs_op_softmax_cross_entropy(
    int64_t rows, int64_t width, const float *logits, int64_t ld,
    const int32_t *labels, int64_t labels_ld, float *dst, int64_t dst_ld);

/// Gradient of cavs_op_softmax_cross_entropy with respect to the logits:
/// dst row r = grad[r * grad_ld] · (softmax(logits row r) − onehot(label)),
/// zeros for a negative label. Overwrites dst; labels are checked the same
/// way.
CAVS_API cavs_status cavs_op_softmax_cross_entropy_grad(
    int64_t rows, int64_t width, const float *logits, int64_t ld,
    const int32_t *labels, int64_t labels_ld, const float *grad,
    int64_t grad_ld, float *dst, int64_t dst_ld);

/// Reads per-vertex external data: dst row r = src row index[r] (`width`
/// floats per src row, ld = width), or zeros for every row when src is NULL
/// (an output gradient nobody provided). Used for pulls and push gradients;
/// index holds batch vertex ids, which the runtime guarantees are in range.
CAVS_API void cavs_op_gather_rows(int64_t rows, const int32_t *index,
                                  const float *src, int64_t width, float *dst,
                                  int64_t ld);

/// Writes per-vertex external data: dst row index[r] (= or += when
/// `accumulate`) src row r; nothing when dst is NULL (a gradient nobody
/// asked for). Used for pushes (assign) and pull gradients (accumulate).
CAVS_API void cavs_op_scatter_rows(int64_t rows, const int32_t *index,
                                   const float *src, int64_t ld, float *dst,
                                   int64_t width, int32_t accumulate);

/// Marks the rows index[r * index_ld] (r < rows, negative ones skipped) of
/// parameter `param` as touched in `grads` (see cavs_grad_store_mark_rows);
/// the backward pass of a lookup calls it after cavs_op_lookup_grad. Fails
/// like cavs_grad_store_mark_rows, marking nothing, for a row out of range.
CAVS_API cavs_status cavs_op_mark_rows(cavs_grad_store *grads, int32_t param,
                                       int64_t rows, const int32_t *index,
                                       int64_t index_ld);

/// Σ_r src[r * ld], accumulated in double (the total loss of a call).
CAVS_API double cavs_op_loss_sum(int64_t rows, const float *src, int64_t ld);

CAVS_EXTERN_C_END

#endif // CAVS_OPS_H
