//===- CudaHostRunTest.cpp - CUDA C kernels run on the host ---------------===//
//
// Without a GPU the CUDA C of the fused kernels can still run: the host C++
// compiler builds it with the shim of test/lib/CudaHost, which runs every
// CUDA thread of a block as a fiber and opens a warp's shuffles once all
// its lanes wait there. Launched as two blocks of two warps, the results,
// every row of strided operands, must match the reference evaluator, for
// an elementwise kernel and for one ending in reductions (whose rows each
// get a warp and whose lanes combine their sums and maxima with shuffles).
// Launches an sm_90 GPU rejects fail with the reason.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/CudaKernels.h"
#include "dialects/CavsDialect.h"
#include "test/lib/CudaHost/CudaHostLaunch.h"
#include "test/lib/CudaHost/HostKernels.h"
#include "test/lib/Evaluator/ReferenceEvaluator.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <random>

using namespace cavs;

namespace {

// An elementwise kernel with a broadcast scalar, and one that ends in a
// sum and a maximum with ties (relu's zeros).
constexpr const char *kModel = R"mlir(
cavs.model @kernels {
  cavs.vertex @v arity 0 pulls {s = tensor<f32>, x = tensor<45xf32>, y = tensor<45xf32>}
                         pushes {a = tensor<45xf32>, t = tensor<45xf32>, dot = tensor<f32>, max = tensor<f32>} {
    %x = cavs.pull "x" : tensor<45xf32>
    %y = cavs.pull "y" : tensor<45xf32>
    %s = cavs.pull "s" : tensor<f32>
    %a = cavs.fused(%x, %s, %y) : (tensor<45xf32>, tensor<f32>, tensor<45xf32>) -> tensor<45xf32> {
    ^bb0(%x0: tensor<45xf32>, %x1: tensor<f32>, %x2: tensor<45xf32>):
      %0 = cavs.mul %x0, %x1 : tensor<45xf32>, tensor<f32> -> tensor<45xf32>
      %1 = cavs.sigmoid %0 : tensor<45xf32>
      %s2 = cavs.softplus %x2 : tensor<45xf32>
      %2 = cavs.sqrt %s2 : tensor<45xf32>
      %3 = cavs.sub %1, %2 : tensor<45xf32>
      %4 = cavs.equal %x0, %x2 : tensor<45xf32>
      %5 = cavs.sum %3, %4, %x0 : tensor<45xf32>
      cavs.yield %5 : tensor<45xf32>
    }
    %k:3 = cavs.fused(%x, %s, %y) : (tensor<45xf32>, tensor<f32>, tensor<45xf32>) -> (tensor<45xf32>, tensor<f32>, tensor<f32>) {
    ^bb0(%x0: tensor<45xf32>, %x1: tensor<f32>, %x2: tensor<45xf32>):
      %0 = cavs.mul %x0, %x1 : tensor<45xf32>, tensor<f32> -> tensor<45xf32>
      %1 = cavs.tanh %0 : tensor<45xf32>
      %2 = cavs.mul %1, %x2 : tensor<45xf32>
      %3 = cavs.reduce_sum %2 : tensor<45xf32>
      %4 = cavs.relu %2 : tensor<45xf32>
      %5 = cavs.neg %4 : tensor<45xf32>
      %6 = cavs.reduce_max %5 : tensor<45xf32>
      cavs.yield %1, %3, %6 : tensor<45xf32>, tensor<f32>, tensor<f32>
    }
    cavs.push "a", %a : tensor<45xf32>
    cavs.push "t", %k#0 : tensor<45xf32>
    cavs.push "dot", %k#1 : tensor<f32>
    cavs.push "max", %k#2 : tensor<f32>
  }
}
)mlir";

/// Kernels k0 (elementwise) and k1 (reductions) of kModel, built for the
/// host, and strided operands for them.
class KernelSourceOnHost : public testing::Test {
protected:
  ~KernelSourceOnHost() override {
    if (handle)
      dlclose(handle);
  }
  void SetUp() override;
  /// Launches `kernel` with `args` (pointers and leading dimensions) over
  /// `rows`; returns the cudaError_t value, the reason in `message`.
  int launch(const char *kernel, cavs_host::Dim3 grid, cavs_host::Dim3 block,
             std::vector<long long> args, size_t sharedBytes = 0);

  mlir::MLIRContext context;
  std::optional<mlir::ScopedDiagnosticHandler> failOnError;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  ModelOp model;
  test::HostKernels kernels;
  void *handle = nullptr;
  long long rows = 9;
  char message[512] = "";
};

void KernelSourceOnHost::SetUp() {
  context.loadDialect<CavsDialect>();
  failOnError.emplace(&context, [](mlir::Diagnostic &d) {
    ADD_FAILURE() << d.str();
    return mlir::success();
  });
  module = mlir::parseSourceString<mlir::ModuleOp>(kModel, &context);
  ASSERT_TRUE(module);
  model = *module->getOps<ModelOp>().begin();
  std::string source;
  llvm::raw_string_ostream os(source);
  std::vector<FusedOp> fused;
  model.walk([&](FusedOp op) { fused.push_back(op); });
  ASSERT_EQ(fused.size(), 2u);
  std::vector<std::string> names;
  for (auto [i, op] : llvm::enumerate(fused)) {
    names.push_back("k" + std::to_string(i));
    ASSERT_TRUE(mlir::succeeded(emitCudaKernel(op, names.back(), os)));
  }
  kernels.build(source, names);
  if (HasFatalFailure())
    return;
  handle = dlopen(kernels.path().c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(handle, nullptr) << dlerror();
}

int KernelSourceOnHost::launch(const char *kernel, cavs_host::Dim3 grid,
                               cavs_host::Dim3 block,
                               std::vector<long long> args,
                               size_t sharedBytes) {
  auto *entry = static_cast<const cavs_host::KernelEntry *>(
      dlsym(handle, (std::string("cavs_host_kernel_") + kernel).c_str()));
  EXPECT_NE(entry, nullptr) << kernel;
  if (!entry)
    return -1;
  // cudaLaunchKernel's form: a pointer to each parameter, rows first.
  std::vector<void *> params = {&rows};
  for (long long &arg : args)
    params.push_back(&arg);
  cavs_host::Launch config{kernel, grid, block, sharedBytes};
  config.message = message;
  config.messageSize = sizeof(message);
  return entry->launch(config, params.data());
}

/// Two blocks of two warps: fewer threads than elements, so the
/// grid-stride loops take several steps.
constexpr cavs_host::Dim3 kGrid{2}, kBlock{64};

TEST_F(KernelSourceOnHost, MatchesTheEvaluator) {
  // Strided rows, some with equal x and y elements, many with ties.
  constexpr int64_t width = 45, ld = 50, sLd = 2;
  std::mt19937 random(11);
  std::uniform_real_distribution<float> uniform(-2, 2);
  std::vector<float> x(rows * ld), y(rows * ld), s(rows * sLd);
  for (std::vector<float> *values : {&x, &y, &s})
    for (float &v : *values)
      v = uniform(random);
  for (int64_t r = 0; r < rows; r += 2)
    y[r * ld + r] = x[r * ld + r];
  std::vector<float> a(rows * ld, NAN), t(rows * ld, NAN);
  std::vector<float> dot(rows * sLd, NAN), max(rows * sLd, NAN);
  auto pointer = [](const std::vector<float> &v) {
    return static_cast<long long>(reinterpret_cast<intptr_t>(v.data()));
  };
  ASSERT_EQ(
      launch("k0", kGrid, kBlock,
             {pointer(x), ld, pointer(s), sLd, pointer(y), ld, pointer(a), ld}),
      cavs_host::kSuccess)
      << message;
  ASSERT_EQ(launch("k1", kGrid, kBlock,
                   {pointer(x), ld, pointer(s), sLd, pointer(y), ld, pointer(t),
                    ld, pointer(dot), sLd, pointer(max), sLd}),
            cavs_host::kSuccess)
      << message;

  EvalGraph graph;
  for (int64_t r = 0; r < rows; ++r) {
    EvalVertex vertex{"v", {}, {}, {}, {}};
    auto row = [&](const std::vector<float> &m) {
      return EvalTensor{{width}, std::vector<double>(m.begin() + r * ld,
                                                     m.begin() + r * ld + width)};
    };
    vertex.f32Inputs["x"] = row(x);
    vertex.f32Inputs["y"] = row(y);
    vertex.f32Inputs["s"] = EvalTensor::scalar(s[r * sLd]);
    graph.vertices.push_back(std::move(vertex));
  }
  mlir::FailureOr<EvalResult> expected = evaluate(model, graph, {}, {});
  ASSERT_TRUE(mlir::succeeded(expected));
  auto expectClose = [](float actual, double want, const std::string &what) {
    EXPECT_NEAR(actual, want, 1e-5 * std::max(1.0, std::abs(want))) << what;
  };
  for (int64_t r = 0; r < rows; ++r) {
    std::string where = " of row " + std::to_string(r);
    const llvm::StringMap<EvalTensor> &pushes = expected->pushes[r];
    for (int64_t c = 0; c < width; ++c) {
      expectClose(a[r * ld + c], pushes.lookup("a").data[c],
                  "a[" + std::to_string(c) + "]" + where);
      expectClose(t[r * ld + c], pushes.lookup("t").data[c],
                  "t[" + std::to_string(c) + "]" + where);
    }
    expectClose(dot[r * sLd], pushes.lookup("dot").data[0], "dot" + where);
    expectClose(max[r * sLd], pushes.lookup("max").data[0], "max" + where);
    // Padding is never written.
    EXPECT_TRUE(std::isnan(a[r * ld + width])) << where;
    EXPECT_TRUE(std::isnan(dot[r * sLd + 1])) << where;
  }
}

// What an sm_90 GPU refuses to launch, and a warp whose shuffles name lanes
// it lacks, fail with the reason; nothing runs (the operands are null).
TEST_F(KernelSourceOnHost, FailsLaunchesSm90Refuses) {
  const std::vector<long long> k0(8, 0);
  auto expectFailure = [&](int error, int want, const std::string &words) {
    EXPECT_EQ(error, want) << message;
    EXPECT_NE(std::string(message).find(words), std::string::npos) << message;
  };
  expectFailure(launch("k0", kGrid, {2048}, k0),
                cavs_host::kInvalidConfiguration,
                "kernel k0: block (2048, 1, 1) is over sm_90's limits");
  expectFailure(launch("k0", kGrid, {16, 16, 128}, k0),
                cavs_host::kInvalidConfiguration, "block (16, 16, 128)");
  expectFailure(launch("k0", {1, 65536}, kBlock, k0),
                cavs_host::kInvalidConfiguration,
                "grid (1, 65536, 1) is over sm_90's limits");
  expectFailure(launch("k0", {0}, kBlock, k0), cavs_host::kInvalidConfiguration,
                "empty grid");
  expectFailure(launch("k0", kGrid, kBlock, k0, 64 * 1024),
                cavs_host::kInvalidValue,
                "65536 bytes of dynamic shared memory");
  // 48 threads: the second warp has 16 lanes (on row 1), the full mask
  // names 32.
  rows = 2;
  std::vector<float> zeros(64, 0.0f);
  const long long p =
      static_cast<long long>(reinterpret_cast<intptr_t>(zeros.data()));
  expectFailure(launch("k1", {1}, {48}, {p, 0, p, 0, p, 0, p, 0, p, 0, p, 0}),
                cavs_host::kLaunchFailure,
                "a shuffle's mask 0xffffffff names lane 16 of a warp of 16 "
                "threads");
}

} // namespace
