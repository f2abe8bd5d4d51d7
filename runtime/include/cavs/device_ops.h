//===- device_ops.h - the op table CUDA phase functions call through ------===//
//
// The ABI between cavsc's CUDA phase functions (cavsc --target=cuda) and the
// runtime. A CUDA phase function is host code with the structure of its CPU
// twin, but its pointers are device pointers and it never calls the
// runtime by symbol: it calls through this table, which it finds in
// cavs_call::device. So a model library built for CUDA has no link-time
// dependency on CUDA at all, and the runtime loads its CUDA half only when
// a model is created on a GPU.
//
// Every entry takes the table first and otherwise has the arguments and
// meaning of the cavs/ops.h function of the same name, with these
// differences:
// - ops are asynchronous (queued on the device's current stream);
// - the checked ops (lookup, cross-entropy) validate on the device and
//   return CAVS_OK; the first failure is reported when the pass ends, with
//   the CPU op's message;
// - loss_sum adds into `*total`, a double in device memory, instead of
//   returning the sum;
// - mark_rows copies the indices back to the host, where the rows are
//   marked when the backward pass ends;
// - launch runs fused kernel `kernel` of the model's CUDA image (its index
//   in cavs_cuda_desc::kernels) over rows × width elements; args holds its
//   operands after `rows`, each 8 bytes (pointers and leading dimensions);
// - constant returns a device copy of a constant array of the library
//   (made once per array and device).
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_DEVICE_OPS_H
#define CAVS_DEVICE_OPS_H

#include "cavs/model.h"

#include <stdint.h>

CAVS_EXTERN_C_BEGIN

typedef struct cavs_device_ops cavs_device_ops;

/// The table. The generated code addresses entry i at byte offset 8 * i,
/// so entries are only ever appended.
struct cavs_device_ops {
  void (*gemm)(cavs_device_ops *d, int trans_a, int trans_b, int64_t m,
               int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
               const float *b, int64_t ldb, float beta, float *c, int64_t ldc);
  void (*gather)(cavs_device_ops *d, int64_t rows, int64_t k, int64_t arity,
                 const int32_t *children, const float *state, int64_t width,
                 float *dst, int64_t ld);
  void (*scatter)(cavs_device_ops *d, int64_t rows, const float *src,
                  int64_t ld, float *state_rows_begin, int64_t width);
  void (*child_grad)(cavs_device_ops *d, int64_t rows, int64_t k,
                     int64_t arity, const int32_t *children, const float *src,
                     int64_t ld, float *state_grad, int64_t width);
  void (*copy_rows)(cavs_device_ops *d, int64_t rows, int64_t width,
                    const float *src, int64_t src_ld, float *dst,
                    int64_t dst_ld);
  void (*zero_rows)(cavs_device_ops *d, int64_t rows, int64_t width,
                    float *dst, int64_t ld);
  cavs_status (*lookup)(cavs_device_ops *d, int64_t rows,
                        const int32_t *index, int64_t index_ld,
                        const float *table, int64_t table_rows, int64_t width,
                        float *dst, int64_t ld);
  cavs_status (*lookup_grad)(cavs_device_ops *d, int64_t rows,
                             const int32_t *index, int64_t index_ld,
                             const float *src, int64_t ld, float *table_grad,
                             int64_t table_rows, int64_t width);
  void (*column_sum)(cavs_device_ops *d, int64_t rows, int64_t width,
                     const float *src, int64_t ld, float *dst);
  void (*softmax)(cavs_device_ops *d, int64_t rows, int64_t width,
                  const float *src, int64_t ld, float *dst, int64_t dst_ld);
  cavs_status (*softmax_cross_entropy)(cavs_device_ops *d, int64_t rows,
                                       int64_t width, const float *logits,
                                       int64_t ld, const int32_t *labels,
                                       int64_t labels_ld, float *dst,
                                       int64_t dst_ld);
  cavs_status (*softmax_cross_entropy_grad)(
      cavs_device_ops *d, int64_t rows, int64_t width, const float *logits,
      int64_t ld, const int32_t *labels, int64_t labels_ld, const float *grad,
      int64_t grad_ld, float *dst, int64_t dst_ld);
  void (*gather_rows)(cavs_device_ops *d, int64_t rows, const int32_t *index,
                      const float *src, int64_t width, float *dst, int64_t ld);
  void (*scatter_rows)(cavs_device_ops *d, int64_t rows, const int32_t *index,
                       const float *src, int64_t ld, float *dst, int64_t width,
                       int32_t accumulate);
  cavs_status (*mark_rows)(cavs_device_ops *d, cavs_grad_store *grads,
                           int32_t param, int64_t rows, const int32_t *index,
                           int64_t index_ld);
  void (*loss_sum)(cavs_device_ops *d, int64_t rows, const float *src,
                   int64_t ld, double *total);
  void (*launch)(cavs_device_ops *d, int32_t kernel, int64_t rows,
                 int64_t width, const int64_t *args, int32_t num_args);
  const float *(*constant)(cavs_device_ops *d, const float *values,
                           int64_t count);
};

CAVS_EXTERN_C_END

#endif // CAVS_DEVICE_OPS_H
