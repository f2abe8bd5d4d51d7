//===- OpsApi.cpp - the exported CPU ops of cavs/ops.h --------------------===//
//
// cavs_op_* for tests and other callers of the CPU kernels by symbol; the
// generated code reaches the same kernels through the CPU's op table
// (ops/CpuDeviceOps.cpp). The compiler checks each definition against its
// declaration, which cavs/ops.def generates.
//
//===----------------------------------------------------------------------===//
#include "cavs/ops.h"
#include "ops/CpuOps.h"

using namespace cavs::runtime;

extern "C" {

void cavs_op_gemm(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k,
                  float alpha, const float *a, int64_t lda, const float *b,
                  int64_t ldb, float beta, float *c, int64_t ldc) {
  cpu::gemm(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void cavs_op_gather(int64_t rows, int64_t k, int64_t arity,
                    const int32_t *children, const float *state, int64_t width,
                    float *dst, int64_t ld) {
  cpu::gather(rows, k, arity, children, state, width, dst, ld);
}

void cavs_op_scatter(int64_t rows, const float *src, int64_t ld,
                     float *state_rows_begin, int64_t width) {
  cpu::scatter(rows, src, ld, state_rows_begin, width);
}

void cavs_op_child_grad(int64_t rows, int64_t k, int64_t arity,
                        const int32_t *children, const float *src, int64_t ld,
                        float *state_grad, int64_t width) {
  cpu::child_grad(rows, k, arity, children, src, ld, state_grad, width);
}

void cavs_op_copy_rows(int64_t rows, int64_t width, const float *src,
                       int64_t src_ld, float *dst, int64_t dst_ld) {
  cpu::copy_rows(rows, width, src, src_ld, dst, dst_ld);
}

void cavs_op_zero_rows(int64_t rows, int64_t width, float *dst, int64_t ld) {
  cpu::zero_rows(rows, width, dst, ld);
}

cavs_status cavs_op_lookup(int64_t rows, const int32_t *index, int64_t index_ld,
                           const float *table, int64_t table_rows,
                           int64_t width, float *dst, int64_t ld) {
  return cpu::lookup(rows, index, index_ld, table, table_rows, width, dst, ld);
}

cavs_status cavs_op_lookup_grad(int64_t rows, const int32_t *index,
                                int64_t index_ld, const float *src, int64_t ld,
                                float *table_grad, int64_t table_rows,
                                int64_t width) {
  return cpu::lookup_grad(rows, index, index_ld, src, ld, table_grad,
                          table_rows, width);
}

void cavs_op_column_sum(int64_t rows, int64_t width, const float *src,
                        int64_t ld, float *dst) {
  cpu::column_sum(rows, width, src, ld, dst);
}

void cavs_op_softmax(int64_t rows, int64_t width, const float *src, int64_t ld,
                     float *dst, int64_t dst_ld) {
  cpu::softmax(rows, width, src, ld, dst, dst_ld);
}

cavs_status cavs_op_softmax_cross_entropy(int64_t rows, int64_t width,
                                          const float *logits, int64_t ld,
                                          const int32_t *labels,
                                          int64_t labels_ld, float *dst,
                                          int64_t dst_ld) {
  return cpu::softmax_cross_entropy(rows, width, logits, ld, labels, labels_ld,
                                    dst, dst_ld);
}

cavs_status cavs_op_softmax_cross_entropy_grad(
    int64_t rows, int64_t width, const float *logits, int64_t ld,
    const int32_t *labels, int64_t labels_ld, const float *grad,
    int64_t grad_ld, float *dst, int64_t dst_ld) {
  return cpu::softmax_cross_entropy_grad(rows, width, logits, ld, labels,
                                         labels_ld, grad, grad_ld, dst, dst_ld);
}

void cavs_op_gather_rows(int64_t rows, const int32_t *index, const float *src,
                         int64_t width, float *dst, int64_t ld) {
  cpu::gather_rows(rows, index, src, width, dst, ld);
}

void cavs_op_scatter_rows(int64_t rows, const int32_t *index, const float *src,
                          int64_t ld, float *dst, int64_t width,
                          int32_t accumulate) {
  cpu::scatter_rows(rows, index, src, ld, dst, width, accumulate);
}

cavs_status cavs_op_mark_rows(cavs_grad_store *grads, int32_t param,
                              int64_t rows, const int32_t *index,
                              int64_t index_ld) {
  return cpu::mark_rows(grads, param, rows, index, index_ld);
}

double cavs_op_loss_sum(int64_t rows, const float *src, int64_t ld) {
  return cpu::loss_sum(rows, src, ld);
}

} // extern "C"
