//===- CudaHostDevice.h - CUDA's device built-ins on the host ---*- C++ -*-===//
//
// What CUDA C needs to run on the host: the qualifiers, threadIdx and its
// siblings, __syncthreads, __shfl_xor_sync, atomics and __uint_as_float, and
// runGrid, which runs a grid the way a GPU would. The host C++ compiler
// builds the model's kernels (the source NVRTC compiles) and the runtime's
// DeviceOps.cu with it, so the CUDA source itself runs in the tests.
//
// Every block runs its CUDA threads as fibers (ucontext) on the calling
// thread, one at a time: a thread runs until it returns or waits at
// __syncthreads (the whole block) or a shuffle (its warp), and a barrier
// opens once every thread it names waits there. A barrier a thread has left
// the kernel without, or one that can never open, fails the launch, as
// does a launch shape an sm_90 GPU rejects. __shared__ variables are static
// (per host thread), which every thread of the one running block shares.
//
// Self-contained, without the CUDA toolkit: NVRTC sources include nothing.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_TEST_LIB_CUDAHOST_CUDAHOSTDEVICE_H
#define CAVS_TEST_LIB_CUDAHOST_CUDAHOSTDEVICE_H

#include "CudaHostLaunch.h"

#include <math.h>
#include <sys/mman.h>
#include <ucontext.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#undef __global__
#undef __device__
#undef __host__
#undef __shared__
#undef __forceinline__
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __shared__ static thread_local

namespace cavs_host {

/// Where a CUDA thread of the running block stands.
enum class Wait { None, Block, Warp, Done };

struct Fiber {
  ucontext_t context;
  Wait wait = Wait::None;
  /// A shuffle's value (as bytes) and the lane it reads.
  uint64_t value = 0;
  unsigned sourceLane = 0;
  unsigned mask = 0;
};

/// The running block of this host thread.
struct BlockRun {
  std::vector<Fiber> fibers;
  ucontext_t scheduler;
  unsigned current = 0;
  void (*body)(void *) = nullptr;
  void *context = nullptr;
};

inline thread_local BlockRun *running = nullptr;

inline constexpr size_t kStackBytes = 128 * 1024;

/// CUDA threads' stacks, reused by every launch of this host thread; each
/// with a guard page below it.
inline char *stackOf(unsigned thread) {
  constexpr size_t kGuard = 4096;
  static thread_local std::vector<char *> stacks;
  while (stacks.size() <= thread) {
    void *region = mmap(nullptr, kStackBytes + kGuard, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (region == MAP_FAILED)
      return nullptr;
    mprotect(region, kGuard, PROT_NONE);
    stacks.push_back(static_cast<char *>(region) + kGuard);
  }
  return stacks[thread];
}

} // namespace cavs_host

// The built-in variables; runGrid sets them for the CUDA thread it runs.
inline thread_local cavs_host::Dim3 threadIdx, blockIdx, blockDim, gridDim;

namespace cavs_host {

/// Lets the other CUDA threads run until this one's barrier opens.
inline void waitAt(Wait wait) {
  BlockRun &run = *running;
  run.fibers[run.current].wait = wait;
  swapcontext(&run.fibers[run.current].context, &run.scheduler);
}

inline void fiberMain() {
  BlockRun &run = *running;
  run.body(run.context);
  run.fibers[run.current].wait = Wait::Done;
}

/// Opens the barriers every thread they name waits at (`opened` says
/// whether one did); a cudaError_t value, with the launch's message set,
/// when one never can.
inline int openBarriers(BlockRun &run, const Launch &launch, bool &opened) {
  const unsigned threads = unsigned(run.fibers.size());
  opened = false;
  unsigned atBlock = 0, done = 0;
  for (const Fiber &fiber : run.fibers) {
    atBlock += fiber.wait == Wait::Block;
    done += fiber.wait == Wait::Done;
  }
  if (atBlock && atBlock + done == threads) {
    if (done)
      return fail(launch, kLaunchFailure,
                  "block (%u, %u, %u): %u thread(s) returned without the "
                  "__syncthreads the others wait at",
                  blockIdx.x, blockIdx.y, blockIdx.z, done);
    for (Fiber &fiber : run.fibers)
      fiber.wait = Wait::None;
    opened = true;
  }
  for (unsigned first = 0; first < threads; first += kWarp) {
    const unsigned lanes = std::min(kWarp, threads - first);
    Fiber *warp = &run.fibers[first];
    unsigned waiting = 0;
    for (unsigned l = 0; l < lanes; ++l)
      waiting += warp[l].wait == Wait::Warp;
    if (!waiting)
      continue;
    // Every lane the shuffles' mask names must be there, at a shuffle.
    unsigned mask = 0;
    for (unsigned l = 0; l < lanes; ++l)
      if (warp[l].wait == Wait::Warp)
        mask |= warp[l].mask;
    bool ready = true;
    for (unsigned l = 0; l < kWarp; ++l) {
      if (!(mask >> l & 1u))
        continue;
      if (l >= lanes)
        return fail(launch, kLaunchFailure,
                    "a shuffle's mask 0x%08x names lane %u of a warp of %u "
                    "threads",
                    mask, l, lanes);
      if (warp[l].wait == Wait::Done)
        return fail(launch, kLaunchFailure,
                    "block (%u, %u, %u), warp %u: lane %u returned without "
                    "the shuffle the others wait at",
                    blockIdx.x, blockIdx.y, blockIdx.z, first / kWarp, l);
      ready &= warp[l].wait == Wait::Warp;
    }
    if (!ready)
      continue;
    uint64_t values[kWarp];
    for (unsigned l = 0; l < lanes; ++l)
      values[l] = warp[l].value;
    for (unsigned l = 0; l < lanes; ++l)
      if (warp[l].wait == Wait::Warp) {
        warp[l].value = values[warp[l].sourceLane % lanes];
        warp[l].wait = Wait::None;
      }
    opened = true;
  }
  return kSuccess;
}

/// Runs body(context) as every CUDA thread of the current block.
inline int runBlock(BlockRun &run, const Launch &launch) {
  const unsigned threads = unsigned(run.fibers.size());
  for (unsigned t = 0; t < threads; ++t) {
    Fiber &fiber = run.fibers[t];
    fiber.wait = Wait::None;
    // The context getcontext filled for the launch (runGrid), restarted.
    fiber.context.uc_stack.ss_sp = stackOf(t);
    fiber.context.uc_stack.ss_size = kStackBytes;
    fiber.context.uc_link = &run.scheduler;
    makecontext(&fiber.context, fiberMain, 0);
  }
  for (unsigned done = 0; done < threads;) {
    for (unsigned t = 0; t < threads; ++t) {
      Fiber &fiber = run.fibers[t];
      if (fiber.wait != Wait::None)
        continue;
      run.current = t;
      threadIdx = Dim3{t % launch.block.x, t / launch.block.x % launch.block.y,
                       t / (launch.block.x * launch.block.y)};
      swapcontext(&run.scheduler, &fiber.context);
      done += fiber.wait == Wait::Done;
    }
    bool opened = false;
    if (int error = openBarriers(run, launch, opened))
      return error;
    if (!opened && done < threads)
      return fail(launch, kLaunchFailure,
                  "block (%u, %u, %u): the threads wait at barriers that "
                  "never open",
                  blockIdx.x, blockIdx.y, blockIdx.z);
  }
  return kSuccess;
}

/// One fiber per CUDA thread of a block, reused by every block. Out of
/// line: getcontext returns twice, but only runBlock's makecontext ever
/// resumes these contexts.
[[gnu::noinline]] inline int makeFibers(BlockRun &run, const Launch &launch) {
  run.fibers.resize(launch.block.x * launch.block.y * launch.block.z);
  for (unsigned t = 0; t < run.fibers.size(); ++t)
    if (!stackOf(t) || getcontext(&run.fibers[t].context) != 0)
      return fail(launch, kLaunchFailure, "no host memory for thread stacks");
  return kSuccess;
}

/// Runs `body` as every CUDA thread of `launch`'s grid, after the checks a
/// GPU makes; returns a cudaError_t value.
template <typename Body> int runGrid(const Launch &launch, Body &body) {
  if (int error = checkShape(launch))
    return error;
  BlockRun run;
  run.body = [](void *context) { (*static_cast<Body *>(context))(); };
  run.context = &body;
  if (int error = makeFibers(run, launch))
    return error;
  BlockRun *outer = std::exchange(running, &run);
  blockDim = launch.block;
  gridDim = launch.grid;
  int error = kSuccess;
  for (unsigned z = 0; z < launch.grid.z && !error; ++z)
    for (unsigned y = 0; y < launch.grid.y && !error; ++y)
      for (unsigned x = 0; x < launch.grid.x && !error; ++x) {
        blockIdx = Dim3{x, y, z};
        error = runBlock(run, launch);
      }
  running = outer;
  return error;
}

/// Fails the launch unless every pointer argument is null or device memory.
template <typename... Params>
int checkPointers(const Launch &launch, const Params &...params) {
  if (!launch.deviceMemory)
    return kSuccess;
  int error = kSuccess, index = 0;
  auto check = [&](const auto &param) {
    if constexpr (std::is_pointer_v<std::decay_t<decltype(param)>>)
      if (!error && param && !launch.deviceMemory(param))
        error = fail(launch, kInvalidValue,
                     "argument %d (%p) is not device memory", index, param);
    ++index;
  };
  (check(params), ...);
  return error;
}

/// Runs kernel(params...) over `launch`'s grid: the parameters are copied
/// first, as a launch does.
template <typename... Params>
int runKernel(Launch launch, void (*kernel)(Params...),
              std::decay_t<Params>... params) {
  launch.paramBytes = (size_t(0) + ... + sizeof(Params));
  if (int error = checkPointers(launch, params...))
    return error;
  auto body = [&] { kernel(params...); };
  return runGrid(launch, body);
}

template <auto Kernel> struct EntryOf;
template <typename... Params, void (*Kernel)(Params...)>
struct EntryOf<Kernel> {
  template <size_t... I>
  static int unpack(const Launch &launch, void **params,
                    std::index_sequence<I...>) {
    return runKernel(launch, Kernel,
                     *static_cast<std::decay_t<Params> *>(params[I])...);
  }
  static int launch(const Launch &launch, void **params) {
    return unpack(launch, params, std::index_sequence_for<Params...>());
  }
};

} // namespace cavs_host

/// Exports kernel `name` as the KernelEntry `cavs_host_kernel_<name>`.
#define CAVS_HOST_KERNEL(name)                                                 \
  extern "C" __attribute__((visibility("default")))                            \
  const cavs_host::KernelEntry cavs_host_kernel_##name = {                     \
      #name, &cavs_host::EntryOf<&name>::launch};

// CUDA's device functions the sources call.

inline void __syncthreads() { cavs_host::waitAt(cavs_host::Wait::Block); }

template <typename T>
inline T __shfl_xor_sync(unsigned mask, T value, int laneMask) {
  static_assert(sizeof(T) <= sizeof(uint64_t), "a shuffle moves 8 bytes");
  cavs_host::BlockRun &run = *cavs_host::running;
  cavs_host::Fiber &fiber = run.fibers[run.current];
  std::memcpy(&fiber.value, &value, sizeof(T));
  fiber.sourceLane = (run.current % cavs_host::kWarp) ^ unsigned(laneMask);
  fiber.mask = mask;
  cavs_host::waitAt(cavs_host::Wait::Warp);
  std::memcpy(&value, &fiber.value, sizeof(T));
  return value;
}

inline float __uint_as_float(unsigned bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

inline float atomicAdd(float *address, float value) {
  return std::atomic_ref<float>(*address).fetch_add(value);
}
inline double atomicAdd(double *address, double value) {
  return std::atomic_ref<double>(*address).fetch_add(value);
}
inline int atomicCAS(int *address, int compare, int value) {
  std::atomic_ref<int>(*address).compare_exchange_strong(compare, value);
  return compare;
}

#endif // CAVS_TEST_LIB_CUDAHOST_CUDAHOSTDEVICE_H
