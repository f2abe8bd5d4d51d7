//===- EmulatedCuda.cpp - a GPU emulated on the host, for the tests -------===//
//
// A stand-in for libcavs_runtime_cuda.so, loaded through
// $CAVS_CUDA_LIBRARY. Its "device memory" is host memory and its op table
// calls the CPU ops of cavs/ops.h and the CPU twins of the model's kernels
// (cavs_cuda_desc::host_kernels), with the device's conventions: checked
// ops report at the end of the pass, row marks are staged until then, the
// loss is added into "device" memory, fresh allocations hold garbage. So
// the CUDA phase functions and the executor's whole device path run on
// machines without a GPU, and since the ops run in the CPU's order, the
// results must equal the CPU's bit for bit, which the example apps' and
// the distributed trainer's GPU tests check. (test/lib/CudaHost runs the
// CUDA source itself, kernels and device ops, against the evaluator.)
//
//===----------------------------------------------------------------------===//
#include "cavs/ops.h"
#include "cavs/status.h"
#include "exec/DevicePlugin.h"

#ifdef CAVS_EMULATED_HAVE_MPI
#include <mpi.h>
#endif

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <utility>
#include <vector>

namespace {

using namespace cavs::runtime;
using namespace cavs::runtime::plugin;

#ifdef CAVS_EMULATED_HAVE_MPI
/// NCCL's stand-in: the same in-place sums over MPI on the "device" (host)
/// memory, waited for without a deadline (the tests do not kill ranks).
struct EmulatedGroup final : Collectives {
  ~EmulatedGroup() override { MPI_Comm_free(&comm); }
  Status postAllreduceSum(float *data, int64_t count) override {
    MPI_Request request;
    if (count > INT32_MAX ||
        MPI_Iallreduce(MPI_IN_PLACE, data, static_cast<int>(count), MPI_FLOAT,
                       MPI_SUM, comm, &request) != MPI_SUCCESS)
      return Status(CAVS_ERROR_IO, "MPI_Iallreduce failed");
    pending.push_back(request);
    return Status();
  }
  Status wait(std::string_view what) override {
    const int code = MPI_Waitall(static_cast<int>(pending.size()),
                                 pending.data(), MPI_STATUSES_IGNORE);
    pending.clear();
    if (code != MPI_SUCCESS)
      return Status(CAVS_ERROR_IO, std::string(what) + " failed");
    return Status();
  }
  MPI_Comm comm = MPI_COMM_NULL;
  std::vector<MPI_Request> pending;
};
#endif

/// The most kernel operands `launch` forwards (pointer and ld pairs).
constexpr int32_t kMaxOperands = 128;

/// Calls `kernel(rows, args[0], ..., args[N - 1])`: every operand is 8
/// bytes, passed in integer registers or on the stack alike.
template <size_t... I>
void callKernel(cavs_host_kernel_fn kernel, int64_t rows, const int64_t *args,
                std::index_sequence<I...>) {
  using Fn = void (*)(int64_t, decltype(I, int64_t())...);
  reinterpret_cast<Fn>(kernel)(rows, args[I]...);
}

template <size_t... N>
constexpr auto kernelCallers(std::index_sequence<N...>) {
  using Caller = void (*)(cavs_host_kernel_fn, int64_t, const int64_t *);
  return std::array<Caller, sizeof...(N)>{
      [](cavs_host_kernel_fn kernel, int64_t rows, const int64_t *args) {
        callKernel(kernel, rows, args, std::make_index_sequence<N>());
      }...};
}

class EmulatedDevice final : public Device {
public:
  explicit EmulatedDevice(const cavs_cuda_desc &cuda) : cuda_(cuda) {
    device_.owner = this;
    fillOps(device_.ops);
  }
  ~EmulatedDevice() override {
    for (auto &[host, copy] : constants_)
      std::free(copy);
  }

  const std::string &description() const override { return name_; }
  Status allocate(int64_t bytes, void *&out) override {
    out = std::malloc(static_cast<size_t>(bytes));
    if (!out)
      return Status(CAVS_ERROR_OUT_OF_MEMORY, "emulated device: no memory");
    // cudaMalloc does not zero: neither does the emulation.
    std::memset(out, 0xff, static_cast<size_t>(bytes));
    return Status();
  }
  void release(void *pointer) noexcept override { std::free(pointer); }
  void zero(void *dst, int64_t bytes) override {
    std::memset(dst, 0, static_cast<size_t>(bytes));
  }
  void upload(void *dst, const void *src, int64_t bytes) override {
    std::memcpy(dst, src, static_cast<size_t>(bytes));
  }
  Status download(void *dst, const void *src, int64_t bytes) override {
    std::memcpy(dst, src, static_cast<size_t>(bytes));
    return Status();
  }
  cavs_device_ops *ops() override { return &device_.ops; }
  void beginPhase(PhaseClass, bool, int32_t, bool) override {}
  void endPhase(PhaseClass, bool, int32_t) override {}
  Status collectiveGroupId(std::string *id) override {
#ifdef CAVS_EMULATED_HAVE_MPI
    if (id)
      *id = "emulated";
    return Status();
#else
    (void)id;
    return Status(CAVS_ERROR_UNSUPPORTED,
                  "the emulated GPU sums over MPI, which this build lacks");
#endif
  }
  Status joinCollectiveGroup(const std::string &id, int32_t, int32_t, double,
                             std::unique_ptr<Collectives> &out) override {
#ifdef CAVS_EMULATED_HAVE_MPI
    if (id != "emulated")
      return Status(CAVS_ERROR_INVALID_ARGUMENT, "not an emulated group id");
    auto group = std::make_unique<EmulatedGroup>();
    if (MPI_Comm_dup(MPI_COMM_WORLD, &group->comm) != MPI_SUCCESS)
      return Status(CAVS_ERROR_IO, "MPI_Comm_dup failed");
    out = std::move(group);
    return Status();
#else
    (void)id, (void)out;
    return collectiveGroupId(nullptr);
#endif
  }
  Status finishPass(const MarkRows &mark) override {
    Status status = std::move(firstFailure_);
    firstFailure_ = Status();
    for (Marks &marks : marks_)
      if (status.ok())
        status = mark(marks.grads, marks.param, marks.rows.data(),
                      int64_t(marks.rows.size()));
    marks_.clear();
    return status;
  }

private:
  /// The table, with a way back to its device.
  struct Table {
    cavs_device_ops ops;
    EmulatedDevice *owner;
  };
  struct Marks {
    cavs_grad_store *grads;
    int32_t param;
    std::vector<int32_t> rows;
  };

  static EmulatedDevice &of(cavs_device_ops *ops) {
    return *reinterpret_cast<Table *>(ops)->owner;
  }
  /// A checked op's failure waits for the end of the pass, as on a GPU.
  static cavs_status defer(cavs_device_ops *ops, cavs_status status) {
    Status &first = of(ops).firstFailure_;
    if (status != CAVS_OK && first.ok())
      first = Status(status, cavs_last_error_message());
    return CAVS_OK;
  }

  static void fillOps(cavs_device_ops &ops);

  const cavs_cuda_desc &cuda_;
  std::string name_ = "cuda:0 (emulated on the host)";
  Table device_{};
  Status firstFailure_;
  std::vector<Marks> marks_;
  std::map<const float *, float *> constants_;
};

void EmulatedDevice::fillOps(cavs_device_ops &ops) {
  using D = cavs_device_ops *;
  ops.gemm = [](D, int ta, int tb, int64_t m, int64_t n, int64_t k, float alpha,
                const float *a, int64_t lda, const float *b, int64_t ldb,
                float beta, float *c, int64_t ldc) {
    cavs_op_gemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  };
  ops.gather = [](D, int64_t rows, int64_t k, int64_t arity,
                  const int32_t *children, const float *state, int64_t width,
                  float *dst, int64_t ld) {
    cavs_op_gather(rows, k, arity, children, state, width, dst, ld);
  };
  ops.scatter = [](D, int64_t rows, const float *src, int64_t ld, float *state,
                   int64_t width) {
    cavs_op_scatter(rows, src, ld, state, width);
  };
  ops.child_grad = [](D, int64_t rows, int64_t k, int64_t arity,
                      const int32_t *children, const float *src, int64_t ld,
                      float *stateGrad, int64_t width) {
    cavs_op_child_grad(rows, k, arity, children, src, ld, stateGrad, width);
  };
  ops.copy_rows = [](D, int64_t rows, int64_t width, const float *src,
                     int64_t srcLd, float *dst, int64_t dstLd) {
    cavs_op_copy_rows(rows, width, src, srcLd, dst, dstLd);
  };
  ops.zero_rows = [](D, int64_t rows, int64_t width, float *dst, int64_t ld) {
    cavs_op_zero_rows(rows, width, dst, ld);
  };
  ops.lookup = [](D d, int64_t rows, const int32_t *index, int64_t indexLd,
                  const float *table, int64_t tableRows, int64_t width,
                  float *dst, int64_t ld) {
    return defer(d, cavs_op_lookup(rows, index, indexLd, table, tableRows,
                                   width, dst, ld));
  };
  ops.lookup_grad = [](D d, int64_t rows, const int32_t *index,
                       int64_t indexLd, const float *src, int64_t ld,
                       float *tableGrad, int64_t tableRows, int64_t width) {
    return defer(d, cavs_op_lookup_grad(rows, index, indexLd, src, ld,
                                        tableGrad, tableRows, width));
  };
  ops.column_sum = [](D, int64_t rows, int64_t width, const float *src,
                      int64_t ld, float *dst) {
    cavs_op_column_sum(rows, width, src, ld, dst);
  };
  ops.softmax = [](D, int64_t rows, int64_t width, const float *src, int64_t ld,
                   float *dst, int64_t dstLd) {
    cavs_op_softmax(rows, width, src, ld, dst, dstLd);
  };
  ops.softmax_cross_entropy = [](D d, int64_t rows, int64_t width,
                                 const float *logits, int64_t ld,
                                 const int32_t *labels, int64_t labelsLd,
                                 float *dst, int64_t dstLd) {
    return defer(d, cavs_op_softmax_cross_entropy(rows, width, logits, ld,
                                                  labels, labelsLd, dst,
                                                  dstLd));
  };
  ops.softmax_cross_entropy_grad =
      [](D d, int64_t rows, int64_t width, const float *logits, int64_t ld,
         const int32_t *labels, int64_t labelsLd, const float *grad,
         int64_t gradLd, float *dst, int64_t dstLd) {
        return defer(d, cavs_op_softmax_cross_entropy_grad(
                            rows, width, logits, ld, labels, labelsLd, grad,
                            gradLd, dst, dstLd));
      };
  ops.gather_rows = [](D, int64_t rows, const int32_t *index, const float *src,
                       int64_t width, float *dst, int64_t ld) {
    cavs_op_gather_rows(rows, index, src, width, dst, ld);
  };
  ops.scatter_rows = [](D, int64_t rows, const int32_t *index,
                        const float *src, int64_t ld, float *dst, int64_t width,
                        int32_t accumulate) {
    cavs_op_scatter_rows(rows, index, src, ld, dst, width, accumulate);
  };
  ops.mark_rows = [](D d, cavs_grad_store *grads, int32_t param, int64_t rows,
                     const int32_t *index, int64_t indexLd) {
    // Staged, negative indices included, as the GPU copies them back.
    Marks marks{grads, param, {}};
    for (int64_t r = 0; r < rows; ++r)
      marks.rows.push_back(index[r * indexLd]);
    of(d).marks_.push_back(std::move(marks));
    return CAVS_OK;
  };
  ops.loss_sum = [](D, int64_t rows, const float *src, int64_t ld,
                    double *total) { *total += cavs_op_loss_sum(rows, src, ld); };
  ops.launch = [](D d, int32_t kernel, int64_t rows, int64_t, const int64_t *args,
                  int32_t numArgs) {
    static constexpr auto callers =
        kernelCallers(std::make_index_sequence<kMaxOperands + 1>());
    EmulatedDevice &device = of(d);
    Status failure;
    if (!device.cuda_.host_kernels || kernel < 0 ||
        kernel >= device.cuda_.num_kernels)
      failure =
          makeError(CAVS_ERROR_INTERNAL,
                    "emulated device: no host twin for kernel {}", kernel);
    else if (numArgs > kMaxOperands)
      failure = makeError(CAVS_ERROR_UNSUPPORTED,
                          "emulated device: kernel {} has {} operands; the "
                          "emulation forwards at most {}",
                          kernel, numArgs, kMaxOperands);
    if (!failure.ok()) {
      if (device.firstFailure_.ok())
        device.firstFailure_ = std::move(failure);
      return;
    }
    callers[numArgs](device.cuda_.host_kernels[kernel], rows, args);
  };
  ops.constant = [](D d, const float *values, int64_t count) -> const float * {
    float *&copy = of(d).constants_[values];
    if (!copy) {
      copy = static_cast<float *>(std::malloc(count * sizeof(float)));
      std::memcpy(copy, values, count * sizeof(float));
    }
    return copy;
  };
}

} // namespace

namespace {

Status openEmulated(const cavs_cuda_desc &cuda, int32_t ordinal, bool,
                    std::unique_ptr<Device> &out) {
  if (ordinal != 0)
    return Status(CAVS_ERROR_UNSUPPORTED,
                  "cannot use a GPU: the emulation has only cuda:0");
  out = std::make_unique<EmulatedDevice>(cuda);
  return Status();
}

Status countEmulated(int32_t &count) {
  count = 1;
  return Status();
}

} // namespace

extern "C" __attribute__((visibility("default"))) const cavs_device_interface *
cavs_get_device_interface() {
  return pluginInterface<countEmulated, openEmulated>();
}
