//===- DeviceOpsTest.cpp - the GPU's op table, run on the host ------------===//
//
// runtime/src/cuda/DeviceOps.cu built for the host (libcavs_host_cuda.so),
// called through the device interface as the executor calls it, against
// the CPU ops of cavs/ops.h, on shapes the example models do not reach:
// rows wider than a warp reduces (softmax and cross-entropy over 1,500
// classes get a block per row), column sums over enough rows to split them
// among blocks, loss sums over several blocks, and every transpose of the
// GEMM with strided operands; and the memory checks of the host runtime.
//
//===----------------------------------------------------------------------===//
#include "exec/DeviceInterface.h"
#include "test/lib/CudaHost/HostKernels.h"

#include "cavs/ops.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <random>
#include <vector>

namespace {

class DeviceOps : public testing::Test {
protected:
  void SetUp() override;
  void TearDown() override {
    for (void *p : allocations)
      table->release(device, p);
    if (device)
      table->close(device);
  }

  /// A device copy of `values`.
  template <typename T> T *upload(const std::vector<T> &values) {
    void *p = nullptr;
    EXPECT_EQ(table->allocate(device, int64_t(values.size() * sizeof(T)), &p,
                              message, sizeof(message)),
              CAVS_OK)
        << message;
    allocations.push_back(p);
    table->upload(device, p, values.data(), int64_t(values.size() * sizeof(T)));
    return static_cast<T *>(p);
  }
  /// The device's `count` values at `p`, after the pass's work.
  template <typename T> std::vector<T> download(const T *p, size_t count) {
    std::vector<T> values(count);
    EXPECT_EQ(
        table->finish_pass(device, nullptr, nullptr, message, sizeof(message)),
        CAVS_OK)
        << message;
    EXPECT_EQ(table->download(device, values.data(), p,
                              int64_t(count * sizeof(T)), message,
                              sizeof(message)),
              CAVS_OK)
        << message;
    return values;
  }
  std::vector<float> random(size_t count, float scale = 2.0f) {
    std::uniform_real_distribution<float> uniform(-scale, scale);
    std::vector<float> values(count);
    for (float &v : values)
      v = uniform(engine);
    return values;
  }

  cavs::test::HostKernels kernels;
  const cavs_device_interface *table = nullptr;
  cavs_device *device = nullptr;
  cavs_device_ops *ops = nullptr;
  std::vector<void *> allocations;
  std::mt19937 engine{5};
  char message[512] = "";
};

void DeviceOps::SetUp() {
  // A model without fused kernels: an empty kernel library.
  kernels.build("", {});
  ASSERT_FALSE(kernels.path().empty());
  setenv("CAVS_HOST_CUDA_KERNELS", kernels.path().c_str(), 1);
  void *library = dlopen(CAVS_HOST_CUDA_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(library, nullptr) << dlerror();
  auto entry = reinterpret_cast<cavs_device_interface_fn>(
      dlsym(library, CAVS_DEVICE_INTERFACE_SYMBOL));
  ASSERT_NE(entry, nullptr);
  table = entry();
  static const unsigned char cubin[] = {0x7f, 'E', 'L', 'F'};
  cavs_cuda_desc cuda{};
  cuda.arch = 90;
  cuda.cubin = cubin;
  cuda.cubin_size = sizeof(cubin);
  cuda.ptx = "";
  ASSERT_EQ(table->open(&cuda, 0, 0, &device, message, sizeof(message)),
            CAVS_OK)
      << message;
  ops = table->ops(device);
}

void expectClose(const std::vector<float> &actual,
                 const std::vector<float> &want, const char *what) {
  ASSERT_EQ(actual.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i)
    ASSERT_NEAR(actual[i], want[i], 1e-5 * std::max(1.0f, std::abs(want[i])))
        << what << "[" << i << "]";
}

TEST_F(DeviceOps, WideRowsMatchTheCpu) {
  constexpr int64_t rows = 3, width = 1500, ld = 1510;
  std::vector<float> logits = random(rows * ld, 8.0f);
  const std::vector<int32_t> labels = {1499, -1, 7};
  const std::vector<float> grad = {0.5f, 2.0f, -1.0f};
  std::vector<float> softmax(rows * ld, 0.0f), loss(rows, 0.0f),
      lossGrad(rows * ld, 0.0f);
  cavs_op_softmax(rows, width, logits.data(), ld, softmax.data(), ld);
  ASSERT_EQ(cavs_op_softmax_cross_entropy(rows, width, logits.data(), ld,
                                          labels.data(), 1, loss.data(), 1),
            CAVS_OK);
  ASSERT_EQ(cavs_op_softmax_cross_entropy_grad(rows, width, logits.data(), ld,
                                               labels.data(), 1, grad.data(), 1,
                                               lossGrad.data(), ld),
            CAVS_OK);

  const float *dLogits = upload(logits);
  const int32_t *dLabels = upload(labels);
  float *dSoftmax = upload(std::vector<float>(rows * ld, 0.0f));
  float *dLoss = upload(std::vector<float>(rows, 0.0f));
  float *dLossGrad = upload(std::vector<float>(rows * ld, 0.0f));
  ops->softmax(ops, rows, width, dLogits, ld, dSoftmax, ld);
  ops->softmax_cross_entropy(ops, rows, width, dLogits, ld, dLabels, 1, dLoss,
                             1);
  ops->softmax_cross_entropy_grad(ops, rows, width, dLogits, ld, dLabels, 1,
                                  upload(grad), 1, dLossGrad, ld);
  expectClose(download(dSoftmax, rows * ld), softmax, "softmax");
  expectClose(download(dLoss, rows), loss, "loss");
  expectClose(download(dLossGrad, rows * ld), lossGrad, "loss gradient");
}

TEST_F(DeviceOps, SumsOverManyRowsMatchTheCpu) {
  constexpr int64_t rows = 700, width = 70, ld = 72;
  const std::vector<float> src = random(rows * ld);
  std::vector<float> columns = random(width);
  const std::vector<float> start = columns;
  cavs_op_column_sum(rows, width, src.data(), ld, columns.data());
  const double loss = cavs_op_loss_sum(rows, src.data(), ld);

  const float *dSrc = upload(src);
  float *dColumns = upload(start);
  double *dLoss = upload(std::vector<double>{1.0});
  ops->column_sum(ops, rows, width, dSrc, ld, dColumns);
  ops->loss_sum(ops, rows, dSrc, ld, dLoss);
  expectClose(download(dColumns, width), columns, "column sum");
  EXPECT_NEAR(download(dLoss, 1)[0], 1.0 + loss, 1e-9 * rows);
}

TEST_F(DeviceOps, GemmMatchesTheCpuForEveryTranspose) {
  constexpr int64_t m = 37, n = 29, k = 53, pad = 3;
  for (int ta : {0, 1})
    for (int tb : {0, 1}) {
      SCOPED_TRACE("trans_a " + std::to_string(ta) + ", trans_b " +
                   std::to_string(tb));
      // Row-major op(A) m × k and op(B) k × n, stored transposed or not.
      const int64_t lda = (ta ? m : k) + pad, ldb = (tb ? k : n) + pad,
                    ldc = n + pad;
      const std::vector<float> a = random((ta ? k : m) * lda),
                               b = random((tb ? n : k) * ldb);
      std::vector<float> c = random(m * ldc);
      const std::vector<float> start = c;
      cavs_op_gemm(ta, tb, m, n, k, 0.5f, a.data(), lda, b.data(), ldb, 1.0f,
                   c.data(), ldc);
      float *dC = upload(start);
      ops->gemm(ops, ta, tb, m, n, k, 0.5f, upload(a), lda, upload(b), ldb,
                1.0f, dC, ldc);
      expectClose(download(dC, m * ldc), c, "C");
    }
}

// What a GPU would fault on fails the pass, with the reason: a copy past
// its allocation, host memory handed to a kernel.
TEST_F(DeviceOps, BadMemoryFailsThePass) {
  auto expectFailure = [&](const std::string &words) {
    EXPECT_NE(
        table->finish_pass(device, nullptr, nullptr, message, sizeof(message)),
        CAVS_OK);
    EXPECT_NE(std::string(message).find(words), std::string::npos) << message;
  };
  float *small = upload(std::vector<float>(4, 0.0f));
  const std::vector<float> host(8, 1.0f);
  table->upload(device, small, host.data(), int64_t(sizeof(float) * 8));
  expectFailure("cudaMemcpyAsync: the destination");
  // Strided rows: a copy kernel rather than cudaMemcpyAsync.
  ops->copy_rows(ops, 2, 1, host.data(), 2, small, 2);
  expectFailure("kernel copyRowsKernel: argument 2");
}

} // namespace
