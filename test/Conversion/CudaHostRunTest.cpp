//===- CudaHostRunTest.cpp - CUDA C kernels run on the host ---------------===//
//
// Without a GPU the CUDA C of the fused kernels can still run: the host C++
// compiler builds it with a small prelude that makes every CUDA thread a
// std::thread (two blocks of two warps) and implements __shfl_xor_sync
// with a barrier per warp. The results, every row of strided operands, must
// match the reference evaluator, for an elementwise kernel and for one
// ending in reductions (whose rows each get a warp and whose lanes combine
// their sums and maxima with shuffles).
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/CudaKernels.h"
#include "dialects/CavsDialect.h"
#include "test/lib/Evaluator/ReferenceEvaluator.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace cavs;

namespace {

/// What CUDA provides and the host lacks. Threads of `kBlocks` blocks of
/// `kThreads` run the kernel at once; a warp's shuffles meet at its barrier.
constexpr const char *kPrelude = R"cpp(
#include <barrier>
#include <cstdint>
#include <cstring>
#include <functional>
#include <math.h>
#include <memory>
#include <thread>
#include <vector>

#define __global__
struct Dim3 { unsigned x; };
static thread_local Dim3 threadIdx, blockIdx;
static Dim3 blockDim, gridDim;
static thread_local unsigned globalThread;
static std::vector<float> shuffleSlots;
static std::vector<std::unique_ptr<std::barrier<>>> warpBarriers;

static float __uint_as_float(unsigned bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

static float __shfl_xor_sync(unsigned, float value, int laneMask) {
  std::barrier<> &warp = *warpBarriers[globalThread / 32];
  shuffleSlots[globalThread] = value;
  warp.arrive_and_wait();
  float other = shuffleSlots[globalThread ^ laneMask];
  warp.arrive_and_wait();
  return other;
}

static void runThreads(const std::function<void()> &kernel) {
  constexpr unsigned kBlocks = 2, kThreads = 64;
  blockDim.x = kThreads;
  gridDim.x = kBlocks;
  shuffleSlots.assign(kBlocks * kThreads, 0.0f);
  warpBarriers.clear();
  for (unsigned w = 0; w < kBlocks * kThreads / 32; ++w)
    warpBarriers.push_back(std::make_unique<std::barrier<>>(32));
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < kBlocks * kThreads; ++t)
    threads.emplace_back([&kernel, t] {
      globalThread = t;
      blockIdx.x = t / kThreads;
      threadIdx.x = t % kThreads;
      kernel();
    });
  for (std::thread &thread : threads)
    thread.join();
}
)cpp";

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

/// Calls kernel `name` with the operands in `args`, 8 bytes each, as the
/// runtime's launch passes them.
using Launcher = void (*)(long long rows, const long long *args);

/// The source of a launcher for `fused`, named `launch_<name>`.
std::string launcherSource(FusedOp fused, const std::string &name) {
  std::string text = "extern \"C\" void launch_" + name +
                     "(long long rows, const long long *args) {\n"
                     "  runThreads([=] { " +
                     name + "(rows";
  unsigned operand = 0;
  for (unsigned i = 0, e = fused.getInputs().size(); i < e; ++i, operand += 2)
    text += ", (const float *)args[" + std::to_string(operand) + "], args[" +
            std::to_string(operand + 1) + "]";
  for (unsigned i = 0, e = fused.getNumResults(); i < e; ++i, operand += 2)
    text += ", (float *)args[" + std::to_string(operand) + "], args[" +
            std::to_string(operand + 1) + "]";
  return text + "); });\n}\n";
}

TEST(CudaHostRun, KernelsMatchTheEvaluator) {
  mlir::MLIRContext context;
  context.loadDialect<CavsDialect>();
  mlir::ScopedDiagnosticHandler failOnError(&context, [](mlir::Diagnostic &d) {
    ADD_FAILURE() << d.str();
    return mlir::success();
  });
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kModel, &context);
  ASSERT_TRUE(module);
  ModelOp model = *module->getOps<ModelOp>().begin();

  // The prelude, each kernel and its launcher.
  std::string source = kPrelude;
  llvm::raw_string_ostream os(source);
  std::vector<FusedOp> kernels;
  model.walk([&](FusedOp fused) { kernels.push_back(fused); });
  ASSERT_EQ(kernels.size(), 2u);
  for (auto [i, fused] : llvm::enumerate(kernels)) {
    std::string name = "k" + std::to_string(i);
    ASSERT_TRUE(mlir::succeeded(emitCudaKernel(fused, name, os)));
    os << launcherSource(fused, name);
  }

  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("cavs-cuda-host", dir));
  std::string cpp = (dir + "/kernels.cpp").str();
  std::string library = (dir + "/libkernels.so").str();
  {
    std::error_code ec;
    llvm::raw_fd_ostream file(cpp, ec);
    ASSERT_FALSE(ec) << ec.message();
    file << source;
  }
  llvm::ErrorOr<std::string> compiler = llvm::sys::findProgramByName("c++");
  ASSERT_TRUE(compiler) << "no host C++ compiler (c++) on the PATH";
  std::string errorFile = (dir + "/errors.txt").str();
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, errorFile,
                                                errorFile};
  int status = llvm::sys::ExecuteAndWait(
      *compiler,
      {*compiler, "-std=c++20", "-O1", "-shared", "-fPIC", "-pthread", "-o",
       library, cpp},
      std::nullopt, redirects);
  if (status != 0) {
    auto log = llvm::MemoryBuffer::getFile(errorFile);
    FAIL() << "the host compiler rejects the CUDA C:\n"
           << (log ? (*log)->getBuffer().str() : std::string());
  }
  void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(handle, nullptr) << dlerror();

  // Strided rows, some with equal x and y elements, many with ties.
  constexpr int64_t rows = 9, width = 45, ld = 50, sLd = 2;
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
  long long elementwise[] = {pointer(x), ld, pointer(s), sLd, pointer(y),
                             ld,         pointer(a), ld};
  long long reductions[] = {pointer(x), ld, pointer(s), sLd, pointer(y), ld,
                            pointer(t), ld, pointer(dot), sLd, pointer(max),
                            sLd};
  auto launch = [&](const char *name) {
    return reinterpret_cast<Launcher>(dlsym(handle, name));
  };
  ASSERT_NE(launch("launch_k0"), nullptr);
  ASSERT_NE(launch("launch_k1"), nullptr);
  launch("launch_k0")(rows, elementwise);
  launch("launch_k1")(rows, reductions);

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
  dlclose(handle);
  llvm::sys::fs::remove_directories(dir);
}

} // namespace
