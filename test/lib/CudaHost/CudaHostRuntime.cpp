//===- CudaHostRuntime.cpp - the CUDA runtime and cuBLAS on the host ------===//
//
// The calls runtime/src/cuda makes, for its host build (cavs_host_cuda):
// "device memory" is host memory, every stream runs its work at once, and
// cuBLAS's column-major SGEMM is OpenBLAS's. What a GPU would reject, this
// rejects too, with a message cudaGetErrorString returns: a copy or GEMM
// operand outside its allocation, a kernel argument that is not device
// memory, a dead stream, cuBLAS's leading-dimension rules, and (in
// CudaHostDevice.h) launch shapes over sm_90's limits. Each allocation ends
// at a page no one may touch, so a kernel that writes past it crashes the
// test instead of corrupting the heap.
//
// cudaLibraryLoadData loads the model's kernels from the shared object
// $CAVS_HOST_CUDA_KERNELS names: the model's CUDA source built by the host
// C++ compiler (HostKernels.h), not the CUBIN it is given.
//
//===----------------------------------------------------------------------===//
#include "CudaHostRuntime.h"

#include <cblas.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <string>

static_assert(cavs_host::kInvalidValue == int(cudaErrorInvalidValue) &&
              cavs_host::kInvalidConfiguration ==
                  int(cudaErrorInvalidConfiguration) &&
              cavs_host::kLaunchFailure == int(cudaErrorLaunchFailure));

namespace {

constexpr size_t kPage = 4096;

struct Allocation {
  size_t bytes;
  /// The mapping, guard pages included; null for cudaMallocHost's.
  void *mapping;
  size_t mappedBytes;
};

/// Device memory, and the live streams, events and kernels by address.
struct Handles {
  std::mutex mutex;
  std::map<const char *, Allocation> allocations; // by first byte
  std::set<const void *> streams, events, kernels;
};

Handles &handles() {
  static Handles instance;
  return instance;
}

thread_local cudaError_t lastError = cudaSuccess;
/// The message of each error code's latest failure on this thread.
thread_local std::map<int, std::string> messages;

cudaError_t failure(cudaError_t error, const std::string &message) {
  cavs_host::setLastError(error, message.c_str());
  return error;
}

/// The allocation holding [p, p + bytes), or null.
const Allocation *allocationOf(const void *p, size_t bytes) {
  Handles &h = handles();
  std::lock_guard<std::mutex> lock(h.mutex);
  const char *byte = static_cast<const char *>(p);
  auto next = h.allocations.upper_bound(byte);
  if (next == h.allocations.begin())
    return nullptr;
  auto found = std::prev(next);
  if (byte + bytes > found->first + found->second.bytes)
    return nullptr;
  return &found->second;
}

/// cudaErrorInvalidValue unless [p, p + bytes) is device memory.
cudaError_t checkRange(const char *call, const char *what, const void *p,
                       size_t bytes) {
  if (bytes == 0 || allocationOf(p, bytes))
    return cudaSuccess;
  return failure(cudaErrorInvalidValue,
                 std::string(call) + ": " + what + " [" +
                     std::to_string(reinterpret_cast<uintptr_t>(p)) + ", +" +
                     std::to_string(bytes) +
                     " bytes) is not inside one device allocation");
}

bool live(const std::set<const void *> &set, const void *handle) {
  std::lock_guard<std::mutex> lock(handles().mutex);
  return set.count(handle) != 0;
}

cudaError_t checkStream(const char *call, cudaStream_t stream) {
  if (cavs_host::isStream(stream))
    return cudaSuccess;
  return failure(cudaErrorInvalidResourceHandle,
                 std::string(call) + ": not a live stream");
}

template <typename Handle>
cudaError_t create(std::set<const void *> &set, Handle *out) {
  auto *handle = reinterpret_cast<Handle>(new char);
  std::lock_guard<std::mutex> lock(handles().mutex);
  set.insert(handle);
  *out = handle;
  return cudaSuccess;
}

cudaError_t destroy(const char *call, std::set<const void *> &set,
                    const void *handle) {
  {
    std::lock_guard<std::mutex> lock(handles().mutex);
    if (set.erase(handle)) {
      delete static_cast<const char *>(handle);
      return cudaSuccess;
    }
  }
  return failure(cudaErrorInvalidResourceHandle,
                 std::string(call) + ": not a live handle");
}

} // namespace

namespace cavs_host {

bool isDeviceMemory(const void *p) { return allocationOf(p, 1) != nullptr; }

bool isStream(cudaStream_t stream) {
  return !stream || live(handles().streams, stream);
}

void setLastError(cudaError_t error, const char *message) {
  lastError = error;
  messages[error] = message;
}

} // namespace cavs_host

//===----------------------------------------------------------------------===//
// Errors and the device
//===----------------------------------------------------------------------===//

cudaError_t cudaGetLastError() { return std::exchange(lastError, cudaSuccess); }

const char *cudaGetErrorString(cudaError_t error) {
  if (auto found = messages.find(error); found != messages.end())
    return found->second.c_str();
  return error == cudaSuccess ? "no error" : "CUDA error (host emulation)";
}

const char *cudaGetErrorName(cudaError_t error) {
  switch (error) {
  case cudaSuccess:
    return "cudaSuccess";
  case cudaErrorInvalidValue:
    return "cudaErrorInvalidValue";
  case cudaErrorMemoryAllocation:
    return "cudaErrorMemoryAllocation";
  case cudaErrorInvalidConfiguration:
    return "cudaErrorInvalidConfiguration";
  case cudaErrorInvalidDeviceFunction:
    return "cudaErrorInvalidDeviceFunction";
  case cudaErrorInvalidDevice:
    return "cudaErrorInvalidDevice";
  case cudaErrorInvalidResourceHandle:
    return "cudaErrorInvalidResourceHandle";
  case cudaErrorSymbolNotFound:
    return "cudaErrorSymbolNotFound";
  case cudaErrorLaunchFailure:
    return "cudaErrorLaunchFailure";
  default:
    return "cudaError";
  }
}

cudaError_t cudaGetDeviceCount(int *count) {
  *count = 1;
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
  return device == 0 ? cudaSuccess
                     : failure(cudaErrorInvalidDevice,
                               "the host emulation has only device 0");
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device) {
  if (device != 0)
    return cudaSetDevice(device);
  *prop = cudaDeviceProp{};
  std::snprintf(prop->name, sizeof(prop->name),
                "host-compiled CUDA");
  prop->major = 9;
  prop->minor = 0;
  prop->warpSize = int(cavs_host::kWarp);
  prop->maxThreadsPerBlock = int(cavs_host::kMaxBlockThreads);
  prop->sharedMemPerBlock = cavs_host::kMaxSharedBytes;
  return cudaSuccess;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

cudaError_t cudaMalloc(void **devPtr, size_t size) {
  *devPtr = nullptr;
  if (size == 0)
    return cudaSuccess;
  // A guard page on either side; the data ends 16-byte aligned at the upper
  // one, so a kernel running off its end faults at once.
  const size_t rounded = (size + 15) / 16 * 16;
  const size_t body = (rounded + kPage - 1) / kPage * kPage;
  const size_t mapped = body + 2 * kPage;
  void *mapping = mmap(nullptr, mapped, PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapping == MAP_FAILED)
    return failure(cudaErrorMemoryAllocation, "cudaMalloc: out of memory");
  char *first = static_cast<char *>(mapping) + kPage;
  mprotect(first, body, PROT_READ | PROT_WRITE);
  char *data = first + body - rounded;
  // cudaMalloc does not zero: neither does the emulation.
  std::memset(data, 0xff, size);
  Handles &h = handles();
  std::lock_guard<std::mutex> lock(h.mutex);
  h.allocations[data] = Allocation{size, mapping, mapped};
  *devPtr = data;
  return cudaSuccess;
}

/// Pinned memory (cuda_runtime.h's C++ overloads of cudaMallocHost call
/// cudaHostAlloc).
cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned) {
  *ptr = std::malloc(size ? size : 1);
  if (!*ptr)
    return failure(cudaErrorMemoryAllocation, "cudaHostAlloc: out of memory");
  Handles &h = handles();
  std::lock_guard<std::mutex> lock(h.mutex);
  h.allocations[static_cast<char *>(*ptr)] = Allocation{size, nullptr, 0};
  return cudaSuccess;
}

cudaError_t cudaMallocHost(void **ptr, size_t size) {
  return cudaHostAlloc(ptr, size, cudaHostAllocDefault);
}

namespace {

cudaError_t release(const char *call, void *p, bool pinned) {
  if (!p)
    return cudaSuccess;
  Allocation allocation;
  {
    Handles &h = handles();
    std::lock_guard<std::mutex> lock(h.mutex);
    auto found = h.allocations.find(static_cast<char *>(p));
    if (found == h.allocations.end() ||
        (found->second.mapping == nullptr) != pinned)
      return failure(cudaErrorInvalidValue,
                     std::string(call) + ": not an allocation of its kind");
    allocation = found->second;
    h.allocations.erase(found);
  }
  if (pinned)
    std::free(p);
  else
    munmap(allocation.mapping, allocation.mappedBytes);
  return cudaSuccess;
}

} // namespace

cudaError_t cudaFree(void *devPtr) {
  return release("cudaFree", devPtr, false);
}
cudaError_t cudaFreeHost(void *ptr) {
  return release("cudaFreeHost", ptr, true);
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
                            cudaMemcpyKind kind, cudaStream_t stream) {
  if (cudaError_t error = checkStream("cudaMemcpyAsync", stream))
    return error;
  const bool fromDevice =
      kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  const bool toDevice =
      kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  if (fromDevice)
    if (cudaError_t error =
            checkRange("cudaMemcpyAsync", "the source", src, count))
      return error;
  if (toDevice)
    if (cudaError_t error =
            checkRange("cudaMemcpyAsync", "the destination", dst, count))
      return error;
  std::memmove(dst, src, count);
  return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
                            cudaStream_t stream) {
  if (cudaError_t error = checkStream("cudaMemsetAsync", stream))
    return error;
  if (cudaError_t error =
          checkRange("cudaMemsetAsync", "the destination", devPtr, count))
    return error;
  std::memset(devPtr, value, count);
  return cudaSuccess;
}

//===----------------------------------------------------------------------===//
// Streams and events: the work ran when it was queued
//===----------------------------------------------------------------------===//

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned) {
  return create(handles().streams, pStream);
}
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  return destroy("cudaStreamDestroy", handles().streams, stream);
}
cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  return checkStream("cudaStreamSynchronize", stream);
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned) {
  return create(handles().events, event);
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  return destroy("cudaEventDestroy", handles().events, event);
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  if (!live(handles().events, event))
    return failure(cudaErrorInvalidResourceHandle,
                   "cudaEventRecord: not a live event");
  return checkStream("cudaEventRecord", stream);
}
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                unsigned) {
  if (!live(handles().events, event))
    return failure(cudaErrorInvalidResourceHandle,
                   "cudaStreamWaitEvent: not a live event");
  return checkStream("cudaStreamWaitEvent", stream);
}

//===----------------------------------------------------------------------===//
// The model's kernels
//===----------------------------------------------------------------------===//

cudaError_t cudaLibraryLoadData(cudaLibrary_t *library, const void *code,
                                cudaJitOption *, void **, unsigned,
                                cudaLibraryOption *, void **, unsigned) {
  const char *path = std::getenv("CAVS_HOST_CUDA_KERNELS");
  if (!code || !path || !*path)
    return failure(cudaErrorInvalidSource,
                   "cudaLibraryLoadData: the host emulation runs the model's "
                   "CUDA source built for the host; $CAVS_HOST_CUDA_KERNELS "
                   "must name it (test/lib/CudaHost/HostKernels.h)");
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return failure(cudaErrorInvalidSource,
                   std::string("cudaLibraryLoadData: ") + dlerror());
  *library = reinterpret_cast<cudaLibrary_t>(handle);
  return cudaSuccess;
}

cudaError_t cudaLibraryGetKernel(cudaKernel_t *pKernel, cudaLibrary_t library,
                                 const char *name) {
  const std::string symbol = std::string("cavs_host_kernel_") + name;
  void *entry = dlsym(library, symbol.c_str());
  if (!entry)
    return failure(cudaErrorSymbolNotFound,
                   std::string("cudaLibraryGetKernel: no kernel ") + name +
                       " in $CAVS_HOST_CUDA_KERNELS");
  std::lock_guard<std::mutex> lock(handles().mutex);
  handles().kernels.insert(entry);
  *pKernel = static_cast<cudaKernel_t>(entry);
  return cudaSuccess;
}

cudaError_t cudaLibraryUnload(cudaLibrary_t library) {
  dlclose(library);
  return cudaSuccess;
}

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
                             void **args, size_t sharedMem,
                             cudaStream_t stream) {
  if (!live(handles().kernels, func))
    return failure(cudaErrorInvalidDeviceFunction,
                   "cudaLaunchKernel: not a kernel of a loaded library");
  if (cudaError_t error = checkStream("cudaLaunchKernel", stream))
    return error;
  const auto *entry = static_cast<const cavs_host::KernelEntry *>(func);
  char message[512] = "";
  cavs_host::Launch launch{entry->name,
                           {gridDim.x, gridDim.y, gridDim.z},
                           {blockDim.x, blockDim.y, blockDim.z},
                           sharedMem};
  launch.deviceMemory = cavs_host::isDeviceMemory;
  launch.message = message;
  launch.messageSize = sizeof(message);
  if (int error = entry->launch(launch, args))
    return failure(cudaError_t(error), message);
  return cudaSuccess;
}

//===----------------------------------------------------------------------===//
// cuBLAS
//===----------------------------------------------------------------------===//

struct cublasContext {
  cudaStream_t stream = nullptr;
};

cublasStatus_t cublasCreate_v2(cublasHandle_t *handle) {
  *handle = new cublasContext;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDestroy_v2(cublasHandle_t handle) {
  delete handle;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t stream) {
  if (!cavs_host::isStream(stream))
    return CUBLAS_STATUS_INVALID_VALUE;
  handle->stream = stream;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetMathMode(cublasHandle_t, cublasMath_t) {
  return CUBLAS_STATUS_SUCCESS;
}

namespace {

/// Whether a column-major rows × columns operand with leading dimension
/// `ld` lies in one device allocation.
bool operandInside(const float *p, int rows, int columns, int ld) {
  const size_t extent = size_t(columns - 1) * size_t(ld) + size_t(rows);
  return allocationOf(p, extent * sizeof(float)) != nullptr;
}

/// A rejected call. DeviceOps.cu reports every cuBLAS failure as
/// cudaErrorUnknown, whose message this becomes.
cublasStatus_t invalid(const std::string &why) {
  messages[cudaErrorUnknown] = "cublasSgemm: " + why;
  return CUBLAS_STATUS_INVALID_VALUE;
}

} // namespace

/// cuBLAS's checks (its documentation of cublas<t>gemm), then OpenBLAS's
/// column-major SGEMM: C = alpha op(A) op(B) + beta C, op(A) m × k.
cublasStatus_t cublasSgemm_v2(cublasHandle_t handle, cublasOperation_t transa,
                              cublasOperation_t transb, int m, int n, int k,
                              const float *alpha, const float *A, int lda,
                              const float *B, int ldb, const float *beta,
                              float *C, int ldc) {
  const bool ta = transa != CUBLAS_OP_N, tb = transb != CUBLAS_OP_N;
  if (!handle)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  const std::string shape =
      "m " + std::to_string(m) + ", n " + std::to_string(n) + ", k " +
      std::to_string(k) + ", lda " + std::to_string(lda) + ", ldb " +
      std::to_string(ldb) + ", ldc " + std::to_string(ldc);
  if (m < 0 || n < 0 || k < 0 || lda < std::max(1, ta ? k : m) ||
      ldb < std::max(1, tb ? n : k) || ldc < std::max(1, m))
    return invalid("cuBLAS rejects " + shape);
  if (m == 0 || n == 0)
    return CUBLAS_STATUS_SUCCESS;
  if (k > 0 && !operandInside(A, ta ? k : m, ta ? m : k, lda))
    return invalid("A is not inside one device allocation (" + shape + ")");
  if (k > 0 && !operandInside(B, tb ? n : k, tb ? k : n, ldb))
    return invalid("B is not inside one device allocation (" + shape + ")");
  if (!operandInside(C, m, n, ldc))
    return invalid("C is not inside one device allocation (" + shape + ")");
  cblas_sgemm(CblasColMajor, ta ? CblasTrans : CblasNoTrans,
              tb ? CblasTrans : CblasNoTrans, m, n, k, *alpha, A, lda, B, ldb,
              *beta, C, ldc);
  return CUBLAS_STATUS_SUCCESS;
}
