//===- MarkStaging.cu - touched embedding rows on their way to the host ---===//
//
// mark_rows cannot mark rows in the gradient store while the indices are
// still being computed on the device, so each call queues a copy of them
// into pinned host memory and is marked when its pass ends. A strided index
// column is first compacted on the device, so that one contiguous copy
// brings it back. Negative indices are copied too: the count of the others
// is only known on the device, and the marking skips them anyway.
//
//===----------------------------------------------------------------------===//
#include "cuda/CudaDevice.h"

#include <algorithm>

namespace cavs::runtime::cuda {
namespace {

constexpr int kBlock = 256;
constexpr int64_t kMaxBlocks = 1024;
/// The smallest block allocated, in indices: enough for the marks of a
/// typical pass, so that blocks are rarely allocated and never reallocated.
constexpr int64_t kMinBlockIndices = int64_t(1) << 16;

__global__ void compactKernel(int64_t rows, const int32_t *__restrict__ index,
                              int64_t index_ld, int32_t *__restrict__ dst) {
  for (int64_t r = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; r < rows;
       r += int64_t(gridDim.x) * blockDim.x)
    dst[r] = index[r * index_ld];
}

} // namespace

MarkStaging::~MarkStaging() {
  for (Block &block : blocks_) {
    cudaFreeHost(block.host);
    cudaFree(block.device);
  }
  // A failure (the device may already be gone) must not surface as the last
  // error of whichever CUDA call comes next on this thread.
  (void)cudaGetLastError();
}

cudaError_t MarkStaging::add(cudaStream_t stream, cavs_grad_store *grads,
                             int32_t param, int64_t rows, const int32_t *index,
                             int64_t index_ld) {
  if (rows == 0)
    return cudaSuccess;
  // Within a pass a block only fills up, so no staged copy that may still be
  // in flight is overwritten; clear() comes after the stream synchronized.
  auto block =
      std::find_if(blocks_.begin(), blocks_.end(),
                   [&](const Block &b) { return b.capacity - b.used >= rows; });
  if (block == blocks_.end()) {
    Block fresh;
    fresh.capacity = std::max(rows, kMinBlockIndices);
    const size_t bytes = sizeof(int32_t) * size_t(fresh.capacity);
    cudaError_t error = cudaMalloc(&fresh.device, bytes);
    if (error == cudaSuccess)
      error = cudaMallocHost(&fresh.host, bytes);
    if (error != cudaSuccess) {
      cudaFree(fresh.device);
      return error;
    }
    block = blocks_.insert(blocks_.end(), fresh);
  }

  int32_t *host = block->host + block->used;
  const size_t bytes = sizeof(int32_t) * size_t(rows);
  cudaError_t error;
  if (index_ld == 1) {
    error = cudaMemcpyAsync(host, index, bytes, cudaMemcpyDeviceToHost, stream);
  } else {
    int32_t *compact = block->device + block->used;
    const unsigned blocks =
        unsigned(std::min((rows + kBlock - 1) / kBlock, kMaxBlocks));
    launchKernel(compactKernel, blocks, kBlock, stream, rows, index, index_ld,
                 compact);
    error = cudaGetLastError();
    if (error == cudaSuccess)
      error =
          cudaMemcpyAsync(host, compact, bytes, cudaMemcpyDeviceToHost, stream);
  }
  if (error != cudaSuccess)
    return error;
  block->used += rows;
  staged_.push_back(StagedMarks{grads, param, host, rows});
  return cudaSuccess;
}

void MarkStaging::clear() {
  staged_.clear();
  for (Block &block : blocks_)
    block.used = 0;
}

} // namespace cavs::runtime::cuda
