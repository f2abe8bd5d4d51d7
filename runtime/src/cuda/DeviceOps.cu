//===- DeviceOps.cu - the batched ops of the generated code, on a GPU -----===//
//
// The entries of cavs_device_ops: the CUDA twins of the cavs/ops.h CPU ops,
// with the same layouts and numerics, queued on CudaDevice::stream without
// ever waiting for it. Errors cannot be returned through the table, so they
// go into CudaDevice::firstError (CUDA) or CudaDevice::fault (bad indices,
// found on the device) for the executor to report when the pass ends.
//
// Kernel shapes: row moves run one thread per element, consecutive threads
// on consecutive columns so that every row is read and written coalesced;
// row reductions give each row a warp (narrow rows) or a whole block (wide
// rows, such as a 10,000-word softmax); the column sum gives each block a
// 32-column tile and a share of the rows.
//
//===----------------------------------------------------------------------===//
#include "cuda/CudaDevice.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

namespace cavs::runtime::cuda {
namespace {

constexpr int kBlock = 256;
constexpr int kWarp = 32;
/// Grid caps of the grid-stride loops: enough blocks to fill any current
/// GPU several times over, without launching one block per element.
constexpr int64_t kMaxElementBlocks = 4096;
constexpr int64_t kMaxRowBlocks = 4096;
constexpr int64_t kMaxLossBlocks = 1024;
/// The column sum's blocks in total; fewer than kMaxElementBlocks since
/// every block ends with one atomicAdd per column of its tile.
constexpr int64_t kColumnSumBlocks = 1024;
/// Rows up to this width are reduced by one warp each; wider ones by a
/// whole block, so that a few wide rows still use the GPU.
constexpr int64_t kMaxWarpRowWidth = 1024;
/// The limit of an index nothing bounds (vertex ids, children).
constexpr int64_t kUnbounded = std::numeric_limits<int64_t>::max();

//===----------------------------------------------------------------------===//
// Error recording
//===----------------------------------------------------------------------===//

/// Keeps the first error of the pass. A failed call also leaves the error
/// as the thread's last error, which is cleared here so that the launch
/// check of a later op (maybe of another device) does not report it again.
void record(CudaDevice &dev, cudaError_t error) {
  if (error == cudaSuccess)
    return;
  (void)cudaGetLastError();
  if (dev.firstError == cudaSuccess)
    dev.firstError = error;
}

void checkLaunch(CudaDevice &dev) { record(dev, cudaGetLastError()); }

/// Reports a bad index unless an earlier failure of the pass already did:
/// only the thread that claims the code writes the details.
__device__ void reportFault(DeviceFault *fault, FaultCode code, int64_t row,
                            int64_t value, int64_t limit) {
  if (atomicCAS(&fault->code, kNoFault, code) == kNoFault) {
    fault->row = row;
    fault->value = value;
    fault->limit = limit;
  }
}

/// Whether index `id` of row r is below `limit`; if not, the row's column-0
/// thread reports it, so one fault is claimed per bad row.
__device__ bool indexInRange(int64_t id, int64_t r, int64_t c, int64_t limit,
                             DeviceFault *fault, FaultCode code) {
  if (id < limit)
    return true;
  if (c == 0)
    reportFault(fault, code, r, id, limit);
  return false;
}

//===----------------------------------------------------------------------===//
// Launch shapes
//===----------------------------------------------------------------------===//

unsigned blocksFor(int64_t threads, int64_t maxBlocks) {
  return unsigned(std::min((threads + kBlock - 1) / kBlock, maxBlocks));
}

/// Calls body(row, column) for every element of a rows × width grid, in a
/// grid-stride loop over the flattened elements. The 64-bit division that
/// splits an element into row and column is done once per thread; the loop
/// advances both by the stride instead.
template <typename Body>
__device__ void forEachElement(int64_t rows, int64_t width, Body body) {
  const int64_t total = rows * width;
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  int64_t element = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (element >= total)
    return;
  int64_t row = element / width, column = element % width;
  const int64_t strideRows = stride / width, strideColumns = stride % width;
  for (; element < total; element += stride) {
    body(row, column);
    row += strideRows;
    column += strideColumns;
    if (column >= width) {
      column -= width;
      ++row;
    }
  }
}

//===----------------------------------------------------------------------===//
// Row moves
//===----------------------------------------------------------------------===//

__global__ void zeroRowsKernel(int64_t rows, int64_t width,
                               float *__restrict__ dst, int64_t ld) {
  forEachElement(rows, width,
                 [&](int64_t r, int64_t c) { dst[r * ld + c] = 0.0f; });
}

/// C = beta · C, the product of an empty (k == 0) gemm. beta == 0 writes
/// zeros rather than 0 · C so that NaNs in C are cleared, as BLAS does.
__global__ void scaleRowsKernel(int64_t rows, int64_t width, float beta,
                                float *__restrict__ c, int64_t ld) {
  forEachElement(rows, width, [&](int64_t r, int64_t col) {
    float &value = c[r * ld + col];
    value = beta == 0.0f ? 0.0f : beta * value;
  });
}

__global__ void copyRowsKernel(int64_t rows, int64_t width,
                               const float *__restrict__ src, int64_t src_ld,
                               float *__restrict__ dst, int64_t dst_ld) {
  forEachElement(rows, width, [&](int64_t r, int64_t c) {
    dst[r * dst_ld + c] = src[r * src_ld + c];
  });
}

/// dst row r = table row index[r * index_ld] (ld = width), zeros for a
/// negative index: gather, gather_rows and lookup. An index ≥ limit is
/// reported into `fault` and its row left alone.
__global__ void gatherKernel(int64_t rows, int64_t width,
                             const int32_t *__restrict__ index,
                             int64_t index_ld, const float *__restrict__ table,
                             int64_t limit, DeviceFault *fault, FaultCode code,
                             float *__restrict__ dst, int64_t ld) {
  forEachElement(rows, width, [&](int64_t r, int64_t c) {
    const int64_t id = index[r * index_ld];
    if (!indexInRange(id, r, c, limit, fault, code))
      return;
    dst[r * ld + c] = id < 0 ? 0.0f : table[id * width + c];
  });
}

/// dst row index[r * index_ld] (ld = width) += src row r, or = with
/// Accumulate false, skipping negative indices: child_grad, lookup_grad and
/// scatter_rows. Rows may share a destination row, hence the atomicAdd. An
/// index ≥ limit is reported into `fault` and its row skipped.
template <bool Accumulate>
__global__ void
scatterKernel(int64_t rows, int64_t width, const int32_t *__restrict__ index,
              int64_t index_ld, int64_t limit, DeviceFault *fault,
              FaultCode code, const float *__restrict__ src, int64_t ld,
              float *__restrict__ dst) {
  forEachElement(rows, width, [&](int64_t r, int64_t c) {
    const int64_t id = index[r * index_ld];
    if (!indexInRange(id, r, c, limit, fault, code))
      return;
    if (id < 0)
      return;
    const float value = src[r * ld + c];
    float *out = dst + id * width + c;
    if constexpr (Accumulate)
      atomicAdd(out, value);
    else
      *out = value;
  });
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

struct Sum {
  template <typename T> __device__ T operator()(T a, T b) const {
    return a + b;
  }
};

struct Max {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};

/// Combines `value` over the kGroup threads that share a row (a warp, or
/// the whole block); every thread of the group gets the result. Every
/// thread of the group must call it.
template <int kGroup, typename T, typename Op>
__device__ T groupReduce(T value, Op op) {
  static_assert(kGroup == kWarp || kGroup == kBlock, "a warp or a block");
  for (int offset = kWarp / 2; offset > 0; offset /= 2)
    value = op(value, __shfl_xor_sync(0xffffffffu, value, offset));
  if constexpr (kGroup == kBlock) {
    __shared__ T warpResults[kBlock / kWarp];
    if (threadIdx.x % kWarp == 0)
      warpResults[threadIdx.x / kWarp] = value;
    __syncthreads();
    value = warpResults[0];
    for (int warp = 1; warp < kBlock / kWarp; ++warp)
      value = op(value, warpResults[warp]);
    // The next reduction of the block overwrites warpResults.
    __syncthreads();
  }
  return value;
}

/// The rows of a row reduction, kBlock / kGroup per block, in a grid-stride
/// loop. A row's group is uniform, so the loop bounds and any per-row branch
/// are too, as groupReduce requires.
template <int kGroup> struct RowGroup {
  static constexpr int kRowsPerBlock = kBlock / kGroup;

  __device__ static int64_t firstRow() {
    return int64_t(blockIdx.x) * kRowsPerBlock + threadIdx.x / kGroup;
  }
  __device__ static int64_t rowStride() {
    return int64_t(gridDim.x) * kRowsPerBlock;
  }
  /// The thread's first column of the row; it then steps by kGroup.
  __device__ static int lane() { return threadIdx.x % kGroup; }
};

/// Calls launchGroup(std::integral_constant<int, kGroup>, blocks) with the
/// row group that suits `width`.
template <typename LaunchGroup>
void launchPerRow(CudaDevice &dev, int64_t rows, int64_t width,
                  LaunchGroup launchGroup) {
  if (width <= kMaxWarpRowWidth)
    launchGroup(std::integral_constant<int, kWarp>(),
                blocksFor(rows * kWarp, kMaxRowBlocks));
  else
    launchGroup(std::integral_constant<int, kBlock>(),
                blocksFor(rows * kBlock, kMaxRowBlocks));
  checkLaunch(dev);
}

/// The maximum of a row, over all threads of its group.
template <int kGroup> __device__ float rowMax(const float *row, int64_t width) {
  float max = -INFINITY;
  for (int64_t c = RowGroup<kGroup>::lane(); c < width; c += kGroup)
    max = fmaxf(max, row[c]);
  return groupReduce<kGroup>(max, Max());
}

/// Σ_c exp(row[c] − shift) over the group; with `out`, each term is also
/// written to out[c]. Each thread writes only the columns it read, so out
/// may be row.
template <int kGroup>
__device__ float rowShiftedExpSum(const float *row, int64_t width, float shift,
                                  float *out) {
  float sum = 0.0f;
  for (int64_t c = RowGroup<kGroup>::lane(); c < width; c += kGroup) {
    const float term = expf(row[c] - shift);
    if (out)
      out[c] = term;
    sum += term;
  }
  return groupReduce<kGroup>(sum, Sum());
}

/// Not __restrict__: src may equal dst. The maximum is complete (the
/// reduction synchronizes the group) before any element is overwritten,
/// and afterwards each thread touches only its own columns.
template <int kGroup>
__global__ void softmaxKernel(int64_t rows, int64_t width, const float *src,
                              int64_t ld, float *dst, int64_t dst_ld) {
  using Group = RowGroup<kGroup>;
  for (int64_t r = Group::firstRow(); r < rows; r += Group::rowStride()) {
    const float *in = src + r * ld;
    float *out = dst + r * dst_ld;
    const float shift = rowMax<kGroup>(in, width);
    const float scale = 1.0f / rowShiftedExpSum<kGroup>(in, width, shift, out);
    for (int64_t c = Group::lane(); c < width; c += kGroup)
      out[c] *= scale;
  }
}


/// loss = logsumexp(row) − row[label], 0 for a negative label; a label
/// ≥ width is reported and its loss left alone.
template <int kGroup>
__global__ void crossEntropyKernel(int64_t rows, int64_t width,
                                   const float *__restrict__ logits, int64_t ld,
                                   const int32_t *__restrict__ labels,
                                   int64_t labels_ld, DeviceFault *fault,
                                   float *__restrict__ dst, int64_t dst_ld) {
  using Group = RowGroup<kGroup>;
  const bool leader = Group::lane() == 0;
  for (int64_t r = Group::firstRow(); r < rows; r += Group::rowStride()) {
    const int64_t label = labels[r * labels_ld];
    if (label >= width) {
      if (leader)
        reportFault(fault, kCrossEntropyLabel, r, label, width);
      continue;
    }
    if (label < 0) {
      if (leader)
        dst[r * dst_ld] = 0.0f;
      continue;
    }
    const float *in = logits + r * ld;
    const float shift = rowMax<kGroup>(in, width);
    const float sum = rowShiftedExpSum<kGroup>(in, width, shift, nullptr);
    if (leader)
      dst[r * dst_ld] = logf(sum) - (in[label] - shift); // see Softmax.cpp
  }
}

/// dst row = grad · (softmax(row) − onehot(label)), zeros for a negative
/// label; a label ≥ width is reported and its row left alone.
template <int kGroup>
__global__ void crossEntropyGradKernel(
    int64_t rows, int64_t width, const float *__restrict__ logits, int64_t ld,
    const int32_t *__restrict__ labels, int64_t labels_ld,
    const float *__restrict__ grad, int64_t grad_ld, DeviceFault *fault,
    float *__restrict__ dst, int64_t dst_ld) {
  using Group = RowGroup<kGroup>;
  for (int64_t r = Group::firstRow(); r < rows; r += Group::rowStride()) {
    const int64_t label = labels[r * labels_ld];
    float *out = dst + r * dst_ld;
    if (label >= width) {
      if (Group::lane() == 0)
        reportFault(fault, kCrossEntropyLabel, r, label, width);
      continue;
    }
    if (label < 0) {
      for (int64_t c = Group::lane(); c < width; c += kGroup)
        out[c] = 0.0f;
      continue;
    }
    const float *in = logits + r * ld;
    const float shift = rowMax<kGroup>(in, width);
    const float rowGrad = grad[r * grad_ld];
    const float scale =
        rowGrad / rowShiftedExpSum<kGroup>(in, width, shift, out);
    for (int64_t c = Group::lane(); c < width; c += kGroup) {
      out[c] *= scale;
      if (c == label)
        out[c] -= rowGrad;
    }
  }
}

/// Columns per column-sum block (one warp-wide, coalesced row segment) and
/// the rows a block reads at once.
constexpr int kColumnTile = kWarp;
constexpr int kRowsAtOnce = kBlock / kColumnTile;

/// dst[c] += Σ_r src[r][c]. Block (x, y) sums column tile x over every
/// gridDim.y-th group of kRowsAtOnce rows, combines its rows in shared
/// memory and adds the tile's partial sums into dst.
__global__ void columnSumKernel(int64_t rows, int64_t width,
                                const float *__restrict__ src, int64_t ld,
                                float *__restrict__ dst) {
  __shared__ float partials[kRowsAtOnce][kColumnTile];
  const int tileColumn = threadIdx.x % kColumnTile;
  const int tileRow = threadIdx.x / kColumnTile;
  const int64_t c = int64_t(blockIdx.x) * kColumnTile + tileColumn;
  float sum = 0.0f;
  if (c < width)
    for (int64_t r = int64_t(blockIdx.y) * kRowsAtOnce + tileRow; r < rows;
         r += int64_t(gridDim.y) * kRowsAtOnce)
      sum += src[r * ld + c];
  partials[tileRow][tileColumn] = sum;
  __syncthreads();
  if (tileRow == 0 && c < width) {
    for (int i = 1; i < kRowsAtOnce; ++i)
      sum += partials[i][tileColumn];
    atomicAdd(dst + c, sum);
  }
}

/// *total += Σ_r src[r * ld], summed in double like the CPU op.
__global__ void lossSumKernel(int64_t rows, const float *__restrict__ src,
                              int64_t ld, double *__restrict__ total) {
  double sum = 0.0;
  for (int64_t r = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; r < rows;
       r += int64_t(gridDim.x) * blockDim.x)
    sum += src[r * ld];
  sum = groupReduce<kBlock>(sum, Sum());
  if (threadIdx.x == 0)
    atomicAdd(total, sum);
}

//===----------------------------------------------------------------------===//
// The table's entries
//===----------------------------------------------------------------------===//

void zeroRows(CudaDevice &dev, int64_t rows, int64_t width, float *dst,
              int64_t ld) {
  if (rows == 0 || width == 0)
    return;
  launchKernel(zeroRowsKernel, blocksFor(rows * width, kMaxElementBlocks),
               kBlock, dev.stream, rows, width, dst, ld);
  checkLaunch(dev);
}

void copyRows(CudaDevice &dev, int64_t rows, int64_t width, const float *src,
              int64_t src_ld, float *dst, int64_t dst_ld) {
  if (rows == 0 || width == 0)
    return;
  if (src_ld == width && dst_ld == width) {
    record(dev, cudaMemcpyAsync(dst, src, sizeof(float) * rows * width,
                                cudaMemcpyDeviceToDevice, dev.stream));
    return;
  }
  launchKernel(copyRowsKernel, blocksFor(rows * width, kMaxElementBlocks),
               kBlock, dev.stream, rows, width, src, src_ld, dst, dst_ld);
  checkLaunch(dev);
}

void gatherRowsOf(CudaDevice &dev, int64_t rows, int64_t width,
                  const int32_t *index, int64_t index_ld, const float *table,
                  int64_t limit, FaultCode code, float *dst, int64_t ld) {
  if (rows == 0 || width == 0)
    return;
  launchKernel(gatherKernel, blocksFor(rows * width, kMaxElementBlocks), kBlock,
               dev.stream, rows, width, index, index_ld, table, limit,
               dev.fault, code, dst, ld);
  checkLaunch(dev);
}

template <bool Accumulate>
void scatterRowsTo(CudaDevice &dev, int64_t rows, int64_t width,
                   const int32_t *index, int64_t index_ld, int64_t limit,
                   FaultCode code, const float *src, int64_t ld, float *dst) {
  if (rows == 0 || width == 0)
    return;
  launchKernel(scatterKernel<Accumulate>,
               blocksFor(rows * width, kMaxElementBlocks), kBlock, dev.stream,
               rows, width, index, index_ld, limit, dev.fault, code, src, ld,
               dst);
  checkLaunch(dev);
}

void gemm(cavs_device_ops *d, int trans_a, int trans_b, int64_t m, int64_t n,
          int64_t k, float alpha, const float *a, int64_t lda, const float *b,
          int64_t ldb, float beta, float *c, int64_t ldc) {
  CudaDevice &dev = deviceOf(d);
  if (m == 0 || n == 0)
    return;
  if (k == 0) {
    if (beta != 1.0f) {
      launchKernel(scaleRowsKernel, blocksFor(m * n, kMaxElementBlocks), kBlock,
                   dev.stream, m, n, beta, c, ldc);
      checkLaunch(dev);
    }
    return;
  }
  // cuBLAS is column-major, where the row-major C is Cᵀ = op(B)ᵀ · op(A)ᵀ:
  // the same call with the operands (and m, n) swapped.
  cublasStatus_t status = cublasSetStream(dev.blas, dev.stream);
  if (status == CUBLAS_STATUS_SUCCESS)
    status =
        cublasSgemm(dev.blas, trans_b ? CUBLAS_OP_T : CUBLAS_OP_N,
                    trans_a ? CUBLAS_OP_T : CUBLAS_OP_N, int(n), int(m), int(k),
                    &alpha, b, int(ldb), a, int(lda), &beta, c, int(ldc));
  if (status != CUBLAS_STATUS_SUCCESS)
    record(dev, cudaErrorUnknown);
}

void gather(cavs_device_ops *d, int64_t rows, int64_t k, int64_t arity,
            const int32_t *children, const float *state, int64_t width,
            float *dst, int64_t ld) {
  gatherRowsOf(deviceOf(d), rows, width, children + k, arity, state, kUnbounded,
               kNoFault, dst, ld);
}

void scatter(cavs_device_ops *d, int64_t rows, const float *src, int64_t ld,
             float *state_rows_begin, int64_t width) {
  copyRows(deviceOf(d), rows, width, src, ld, state_rows_begin, width);
}

void childGrad(cavs_device_ops *d, int64_t rows, int64_t k, int64_t arity,
               const int32_t *children, const float *src, int64_t ld,
               float *state_grad, int64_t width) {
  scatterRowsTo<true>(deviceOf(d), rows, width, children + k, arity, kUnbounded,
                      kNoFault, src, ld, state_grad);
}

void copyRowsEntry(cavs_device_ops *d, int64_t rows, int64_t width,
                   const float *src, int64_t src_ld, float *dst,
                   int64_t dst_ld) {
  copyRows(deviceOf(d), rows, width, src, src_ld, dst, dst_ld);
}

void zeroRowsEntry(cavs_device_ops *d, int64_t rows, int64_t width, float *dst,
                   int64_t ld) {
  zeroRows(deviceOf(d), rows, width, dst, ld);
}

cavs_status lookup(cavs_device_ops *d, int64_t rows, const int32_t *index,
                   int64_t index_ld, const float *table, int64_t table_rows,
                   int64_t width, float *dst, int64_t ld) {
  gatherRowsOf(deviceOf(d), rows, width, index, index_ld, table, table_rows,
               kLookupIndex, dst, ld);
  return CAVS_OK;
}

cavs_status lookupGrad(cavs_device_ops *d, int64_t rows, const int32_t *index,
                       int64_t index_ld, const float *src, int64_t ld,
                       float *table_grad, int64_t table_rows, int64_t width) {
  scatterRowsTo<true>(deviceOf(d), rows, width, index, index_ld, table_rows,
                      kLookupIndex, src, ld, table_grad);
  return CAVS_OK;
}

void columnSum(cavs_device_ops *d, int64_t rows, int64_t width,
               const float *src, int64_t ld, float *dst) {
  CudaDevice &dev = deviceOf(d);
  if (rows == 0 || width == 0)
    return;
  const int64_t tiles = (width + kColumnTile - 1) / kColumnTile;
  const int64_t rowGroups = (rows + kRowsAtOnce - 1) / kRowsAtOnce;
  const int64_t rowSplits =
      std::min(rowGroups, std::max<int64_t>(1, kColumnSumBlocks / tiles));
  launchKernel(columnSumKernel, dim3(unsigned(tiles), unsigned(rowSplits)),
               kBlock, dev.stream, rows, width, src, ld, dst);
  checkLaunch(dev);
}

void softmax(cavs_device_ops *d, int64_t rows, int64_t width, const float *src,
             int64_t ld, float *dst, int64_t dst_ld) {
  CudaDevice &dev = deviceOf(d);
  if (rows == 0 || width == 0)
    return;
  launchPerRow(dev, rows, width, [&](auto group, unsigned blocks) {
    launchKernel(softmaxKernel<decltype(group)::value>, blocks, kBlock,
                 dev.stream, rows, width, src, ld, dst, dst_ld);
  });
}

cavs_status softmaxCrossEntropy(cavs_device_ops *d, int64_t rows, int64_t width,
                                const float *logits, int64_t ld,
                                const int32_t *labels, int64_t labels_ld,
                                float *dst, int64_t dst_ld) {
  CudaDevice &dev = deviceOf(d);
  if (rows == 0)
    return CAVS_OK;
  launchPerRow(dev, rows, width, [&](auto group, unsigned blocks) {
    launchKernel(crossEntropyKernel<decltype(group)::value>, blocks, kBlock,
                 dev.stream, rows, width, logits, ld, labels, labels_ld,
                 dev.fault, dst, dst_ld);
  });
  return CAVS_OK;
}

cavs_status softmaxCrossEntropyGrad(cavs_device_ops *d, int64_t rows,
                                    int64_t width, const float *logits,
                                    int64_t ld, const int32_t *labels,
                                    int64_t labels_ld, const float *grad,
                                    int64_t grad_ld, float *dst,
                                    int64_t dst_ld) {
  CudaDevice &dev = deviceOf(d);
  if (rows == 0)
    return CAVS_OK;
  launchPerRow(dev, rows, width, [&](auto group, unsigned blocks) {
    launchKernel(crossEntropyGradKernel<decltype(group)::value>, blocks, kBlock,
                 dev.stream, rows, width, logits, ld, labels, labels_ld, grad,
                 grad_ld, dev.fault, dst, dst_ld);
  });
  return CAVS_OK;
}

void gatherRows(cavs_device_ops *d, int64_t rows, const int32_t *index,
                const float *src, int64_t width, float *dst, int64_t ld) {
  CudaDevice &dev = deviceOf(d);
  if (!src) {
    zeroRows(dev, rows, width, dst, ld);
    return;
  }
  gatherRowsOf(dev, rows, width, index, 1, src, kUnbounded, kNoFault, dst, ld);
}

void scatterRows(cavs_device_ops *d, int64_t rows, const int32_t *index,
                 const float *src, int64_t ld, float *dst, int64_t width,
                 int32_t accumulate) {
  CudaDevice &dev = deviceOf(d);
  if (!dst)
    return;
  if (accumulate)
    scatterRowsTo<true>(dev, rows, width, index, 1, kUnbounded, kNoFault, src,
                        ld, dst);
  else
    scatterRowsTo<false>(dev, rows, width, index, 1, kUnbounded, kNoFault, src,
                         ld, dst);
}

cavs_status markRows(cavs_device_ops *d, cavs_grad_store *grads, int32_t param,
                     int64_t rows, const int32_t *index, int64_t index_ld) {
  CudaDevice &dev = deviceOf(d);
  record(dev, dev.marks.add(dev.stream, grads, param, rows, index, index_ld));
  return CAVS_OK;
}

void lossSum(cavs_device_ops *d, int64_t rows, const float *src, int64_t ld,
             double *total) {
  CudaDevice &dev = deviceOf(d);
  if (rows == 0)
    return;
  launchKernel(lossSumKernel, blocksFor(rows, kMaxLossBlocks), kBlock,
               dev.stream, rows, src, ld, total);
  checkLaunch(dev);
}

void launch(cavs_device_ops *d, int32_t kernel, int64_t rows, int64_t width,
            const int64_t *args, int32_t num_args) {
  CudaDevice &dev = deviceOf(d);
  if (kernel < 0 || size_t(kernel) >= dev.kernels.size()) {
    record(dev, cudaErrorInvalidDeviceFunction);
    return;
  }
  const int64_t elements = rows * width;
  if (elements == 0)
    return;
  // The kernel's parameters are (long long rows, then the operands), each
  // passed as a pointer to its 8 bytes.
  std::vector<void *> params(1 + size_t(num_args));
  params[0] = &rows;
  for (int32_t i = 0; i < num_args; ++i)
    params[1 + i] = const_cast<int64_t *>(&args[i]);
  // The runtime takes a cudaKernel_t (of cudaLibraryGetKernel) in place of
  // a kernel's host stub and loads it into the current context on first use.
  record(dev,
         cudaLaunchKernel(reinterpret_cast<const void *>(dev.kernels[kernel]),
                          dim3(blocksFor(elements, kMaxElementBlocks)),
                          dim3(kBlock), params.data(), 0, dev.stream));
}

const float *constant(cavs_device_ops *d, const float *values, int64_t count) {
  CudaDevice &dev = deviceOf(d);
  if (auto found = dev.constants.find(values); found != dev.constants.end())
    return found->second;
  float *copy = nullptr;
  const size_t bytes = sizeof(float) * size_t(count);
  cudaError_t error = cudaMalloc(&copy, bytes);
  // Waits for the copy: the array may be used next from another stream (the
  // executor switches streams per phase), and this happens once per array.
  if (error == cudaSuccess)
    error = cudaMemcpyAsync(copy, values, bytes, cudaMemcpyHostToDevice,
                            dev.stream);
  if (error == cudaSuccess)
    error = cudaStreamSynchronize(dev.stream);
  if (error != cudaSuccess) {
    cudaFree(copy);
    record(dev, error);
    return nullptr;
  }
  dev.constants.emplace(values, copy);
  return copy;
}

} // namespace

void fillDeviceOps(cavs_device_ops &ops) {
  ops.gemm = gemm;
  ops.gather = gather;
  ops.scatter = scatter;
  ops.child_grad = childGrad;
  ops.copy_rows = copyRowsEntry;
  ops.zero_rows = zeroRowsEntry;
  ops.lookup = lookup;
  ops.lookup_grad = lookupGrad;
  ops.column_sum = columnSum;
  ops.softmax = softmax;
  ops.softmax_cross_entropy = softmaxCrossEntropy;
  ops.softmax_cross_entropy_grad = softmaxCrossEntropyGrad;
  ops.gather_rows = gatherRows;
  ops.scatter_rows = scatterRows;
  ops.mark_rows = markRows;
  ops.loss_sum = lossSum;
  ops.launch = launch;
  ops.constant = constant;
  // The fused kernels run through launch.
  ops.run_rows = nullptr;
}

} // namespace cavs::runtime::cuda
