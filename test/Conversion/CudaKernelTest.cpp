//===- CudaKernelTest.cpp - CUDA C kernels and their NVRTC compilation ----===//
//
// Without a GPU the kernels cannot run, so these tests check what can be
// checked on any machine: the CUDA C expression of every elementwise op (a
// hand-written cavs.fused), float literals that read back exactly, and, in a
// build with CUDA, that NVRTC compiles the kernels of every example model
// (both programs) to an sm_90 CUBIN and to compute_90 PTX with one entry
// per kernel, named like the CPU kernels.
//
//===----------------------------------------------------------------------===//

#include "compiler/Config.h"
#include "compiler/Conversion/CudaKernels.h"
#include "compiler/Conversion/FusedKernels.h"
#include "compiler/Frontend/Frontend.h"
#include "compiler/Frontend/MLIRGen.h"
#include "compiler/Target/CudaCompiler.h"
#include "compiler/Target/ModelLibrary.h"
#include "dialects/CavsDialect.h"
#include "test/support/ExampleModels.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <random>

using namespace cavs;

namespace {
// Every elementwise op, a broadcast scalar input (s), a finite and an
// infinite constant.
constexpr const char *kEveryOp = R"mlir(
cavs.model @kernels {
  cavs.vertex @v arity 0 pulls {s = tensor<f32>, x = tensor<13xf32>, y = tensor<13xf32>}
                         pushes {a = tensor<13xf32>, b = tensor<13xf32>} {
    %x = cavs.pull "x" : tensor<13xf32>
    %y = cavs.pull "y" : tensor<13xf32>
    %s = cavs.pull "s" : tensor<f32>
    %k:2 = cavs.fused(%x, %s, %y) : (tensor<13xf32>, tensor<f32>, tensor<13xf32>) -> (tensor<13xf32>, tensor<13xf32>) {
    ^bb0(%x0: tensor<13xf32>, %x1: tensor<f32>, %x2: tensor<13xf32>):
      %tenth = cavs.constant dense<0.1> : tensor<f32>
      %inf = cavs.constant dense<0x7F800000> : tensor<f32>
      %0 = cavs.mul %x0, %x1 : tensor<13xf32>, tensor<f32> -> tensor<13xf32>
      %1 = cavs.sigmoid %0 : tensor<13xf32>
      %2 = cavs.tanh %x2 : tensor<13xf32>
      %3 = cavs.sub %1, %2 : tensor<13xf32>
      %4 = cavs.exp %3 : tensor<13xf32>
      %5 = cavs.log %4 : tensor<13xf32>
      %6 = cavs.div %5, %tenth : tensor<13xf32>, tensor<f32> -> tensor<13xf32>
      %7 = cavs.relu %6 : tensor<13xf32>
      %8 = cavs.neg %7 : tensor<13xf32>
      %9 = cavs.sum %8, %x0, %x2 : tensor<13xf32>
      %10 = cavs.relu_grad %3, %9 : tensor<13xf32>
      %11 = cavs.add %x1, %10 : tensor<f32>, tensor<13xf32> -> tensor<13xf32>
      %12 = cavs.mul %11, %inf : tensor<13xf32>, tensor<f32> -> tensor<13xf32>
      %13 = cavs.softplus %9 : tensor<13xf32>
      %14 = cavs.sqrt %13 : tensor<13xf32>
      %15 = cavs.equal %14, %x0 : tensor<13xf32>
      %16 = cavs.add %12, %15 : tensor<13xf32>
      cavs.yield %3, %16 : tensor<13xf32>, tensor<13xf32>
    }
    cavs.push "a", %k#1 : tensor<13xf32>
    cavs.push "b", %k#0 : tensor<13xf32>
  }
}
)mlir";

constexpr const char *kEveryOpKernel =
    R"cuda(extern "C" __global__ void every_op(
    long long rows,
    const float *__restrict__ in0, long long ld0,
    const float *__restrict__ in1, long long ld1,
    const float *__restrict__ in2, long long ld2,
    float *__restrict__ out0, long long ldo0,
    float *__restrict__ out1, long long ldo1) {
  const long long n = rows * 13;
  for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < n;
       e += (long long)gridDim.x * blockDim.x) {
    const long long row = e / 13, col = e % 13;
    const float x0 = in0[row * ld0 + col];
    const float x1 = in1[row * ld1];
    const float x2 = in2[row * ld2 + col];
    const float v0 = 0.1f;
    const float v1 = __uint_as_float(0x7f800000u);
    const float v2 = x0 * x1;
    const float v3 = 1.0f / (1.0f + expf(-v2));
    const float v4 = tanhf(x2);
    const float v5 = v3 - v4;
    const float v6 = expf(v5);
    const float v7 = logf(v6);
    const float v8 = v7 / v0;
    const float v9 = fmaxf(v8, 0.0f);
    const float v10 = -v9;
    const float v11 = v10 + x0 + x2;
    const float v12 = v5 > 0.0f ? v11 : 0.0f;
    const float v13 = x1 + v12;
    const float v14 = v13 * v1;
    const float v15 = fmaxf(v11, 0.0f) + log1pf(expf(-fabsf(v11)));
    const float v16 = sqrtf(v15);
    const float v17 = v16 == x0 ? 1.0f : 0.0f;
    const float v18 = v14 + v17;
    out0[row * ldo0 + col] = v5;
    out1[row * ldo1 + col] = v18;
  }
}
)cuda";

// Elementwise ops ending in a sum and a maximum (which has ties where relu
// gives zeros): the kernel gives each row a warp.
constexpr const char *kReductions = R"mlir(
cavs.model @kernels {
  cavs.vertex @v arity 0 pulls {s = tensor<f32>, x = tensor<13xf32>, y = tensor<13xf32>}
                         pushes {t = tensor<13xf32>, dot = tensor<f32>, max = tensor<f32>} {
    %x = cavs.pull "x" : tensor<13xf32>
    %y = cavs.pull "y" : tensor<13xf32>
    %s = cavs.pull "s" : tensor<f32>
    %k:3 = cavs.fused(%x, %s, %y) : (tensor<13xf32>, tensor<f32>, tensor<13xf32>) -> (tensor<13xf32>, tensor<f32>, tensor<f32>) {
    ^bb0(%x0: tensor<13xf32>, %x1: tensor<f32>, %x2: tensor<13xf32>):
      %0 = cavs.mul %x0, %x1 : tensor<13xf32>, tensor<f32> -> tensor<13xf32>
      %1 = cavs.tanh %0 : tensor<13xf32>
      %2 = cavs.mul %1, %x2 : tensor<13xf32>
      %3 = cavs.reduce_sum %2 : tensor<13xf32>
      %4 = cavs.relu %2 : tensor<13xf32>
      %5 = cavs.neg %4 : tensor<13xf32>
      %6 = cavs.reduce_max %5 : tensor<13xf32>
      cavs.yield %1, %3, %6 : tensor<13xf32>, tensor<f32>, tensor<f32>
    }
    cavs.push "t", %k#0 : tensor<13xf32>
    cavs.push "dot", %k#1 : tensor<f32>
    cavs.push "max", %k#2 : tensor<f32>
  }
}
)mlir";

constexpr const char *kReductionsKernel =
    R"cuda(extern "C" __global__ void reductions(
    long long rows,
    const float *__restrict__ in0, long long ld0,
    const float *__restrict__ in1, long long ld1,
    const float *__restrict__ in2, long long ld2,
    float *__restrict__ out0, long long ldo0,
    float *__restrict__ out1, long long ldo1,
    float *__restrict__ out2, long long ldo2) {
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t / 32 < rows;
       t += (long long)gridDim.x * blockDim.x) {
    const long long row = t / 32;
    float a0 = 0.0f;
    float a1 = __uint_as_float(0xff800000u);
    for (long long col = t % 32; col < 13; col += 32) {
      const float x0 = in0[row * ld0 + col];
      const float x1 = in1[row * ld1];
      const float x2 = in2[row * ld2 + col];
      const float v0 = x0 * x1;
      const float v1 = tanhf(v0);
      const float v2 = v1 * x2;
      a0 = a0 + v2;
      const float v3 = fmaxf(v2, 0.0f);
      const float v4 = -v3;
      a1 = v4 > a1 || v4 != v4 ? v4 : a1;
      out0[row * ldo0 + col] = v1;
    }
    for (int lane = 16; lane > 0; lane /= 2) {
      const float other = __shfl_xor_sync(0xffffffffu, a0, lane);
      a0 = a0 + other;
    }
    for (int lane = 16; lane > 0; lane /= 2) {
      const float other = __shfl_xor_sync(0xffffffffu, a1, lane);
      a1 = other > a1 || other != other ? other : a1;
    }
    if (t % 32 == 0) {
      out1[row * ldo1] = a0;
      out2[row * ldo2] = a1;
    }
  }
}
)cuda";

/// A context with the cavs dialect whose diagnostics are kept in
/// `diagnostics`.
struct TestContext {
  TestContext() {
    context.loadDialect<CavsDialect>();
    handler.emplace(&context, [this](mlir::Diagnostic &diagnostic) {
      diagnostics += diagnostic.str() + "\n";
      return mlir::success();
    });
  }
  mlir::MLIRContext context;
  std::optional<mlir::ScopedDiagnosticHandler> handler;
  std::string diagnostics;
};

/// The first cavs.fused op of `module`.
FusedOp firstFused(mlir::ModuleOp module) {
  FusedOp first;
  module.walk([&](FusedOp fused) {
    first = fused;
    return mlir::WalkResult::interrupt();
  });
  return first;
}

TEST(CudaKernel, EveryElementwiseOpHasItsExpression) {
  TestContext test;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kEveryOp, &test.context);
  ASSERT_TRUE(module) << test.diagnostics;
  std::string kernel;
  llvm::raw_string_ostream os(kernel);
  ASSERT_TRUE(
      mlir::succeeded(emitCudaKernel(firstFused(*module), "every_op", os)))
      << test.diagnostics;
  EXPECT_EQ(kernel, kEveryOpKernel);
  if (!CAVS_HAVE_CUDA)
    GTEST_SKIP() << "built without CUDA: the kernel is not compiled";
  std::string ptx, error;
  ASSERT_TRUE(mlir::succeeded(
      compileCuda(kernel, "every_op.cu", CudaBinary::Ptx, ptx, error)))
      << error;
  EXPECT_NE(ptx.find(".visible .entry every_op("), std::string::npos);
}

TEST(CudaKernel, AKernelEndingInReductionsGivesEachRowAWarp) {
  TestContext test;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kReductions, &test.context);
  ASSERT_TRUE(module) << test.diagnostics;
  std::string kernel;
  llvm::raw_string_ostream os(kernel);
  ASSERT_TRUE(
      mlir::succeeded(emitCudaKernel(firstFused(*module), "reductions", os)))
      << test.diagnostics;
  EXPECT_EQ(kernel, kReductionsKernel);
  if (!CAVS_HAVE_CUDA)
    GTEST_SKIP() << "built without CUDA: the kernel is not compiled";
  std::string ptx, error;
  ASSERT_TRUE(mlir::succeeded(
      compileCuda(kernel, "reductions.cu", CudaBinary::Ptx, ptx, error)))
      << error;
  EXPECT_NE(ptx.find("shfl.sync.bfly"), std::string::npos);
}

TEST(CudaKernel, NonSplatConstantsAreRefused) {
  TestContext test;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(R"mlir(
cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {a = tensor<2xf32>} {
    %x = cavs.pull "x" : tensor<2xf32>
    %0 = cavs.fused(%x) : (tensor<2xf32>) -> tensor<2xf32> {
    ^bb0(%a: tensor<2xf32>):
      %c = cavs.constant dense<[1.0, 2.0]> : tensor<2xf32>
      %1 = cavs.add %a, %c : tensor<2xf32>
      cavs.yield %1 : tensor<2xf32>
    }
    cavs.push "a", %0 : tensor<2xf32>
  }
}
)mlir",
                                              &test.context);
  ASSERT_TRUE(module) << test.diagnostics;
  std::string kernel;
  llvm::raw_string_ostream os(kernel);
  EXPECT_TRUE(mlir::failed(emitCudaKernel(firstFused(*module), "k", os)));
  EXPECT_EQ(kernel, "");
  EXPECT_NE(test.diagnostics.find(
                "only splat constants can be compiled into a CUDA kernel"),
            std::string::npos)
      << test.diagnostics;
}

TEST(CudaKernel, FloatLiteralsReadBackExactly) {
  EXPECT_EQ(cudaFloatLiteral(1), "1.0f");
  EXPECT_EQ(cudaFloatLiteral(-2.5f), "-2.5f");
  EXPECT_EQ(cudaFloatLiteral(0.1f), "0.1f");
  EXPECT_EQ(cudaFloatLiteral(-0.0f), "-0.0f");
  EXPECT_EQ(cudaFloatLiteral(1e30f), "1e+30f");
  EXPECT_EQ(cudaFloatLiteral(FLT_MAX), "3.4028235e+38f");
  EXPECT_EQ(cudaFloatLiteral(std::numeric_limits<float>::denorm_min()),
            "1e-45f");
  EXPECT_EQ(cudaFloatLiteral(INFINITY), "__uint_as_float(0x7f800000u)");
  EXPECT_EQ(cudaFloatLiteral(-INFINITY), "__uint_as_float(0xff800000u)");
  EXPECT_EQ(cudaFloatLiteral(std::numeric_limits<float>::quiet_NaN()),
            "__uint_as_float(0x7fc00000u)");
  // Any finite float: a literal that strtof reads back bit for bit.
  std::mt19937 random(3);
  for (int i = 0; i < 10000; ++i) {
    float value = llvm::bit_cast<float>(static_cast<uint32_t>(random()));
    if (!std::isfinite(value))
      continue;
    std::string literal = cudaFloatLiteral(value);
    ASSERT_EQ(literal.back(), 'f') << literal;
    float back = std::strtof(literal.c_str(), nullptr);
    ASSERT_EQ(llvm::bit_cast<uint32_t>(back), llvm::bit_cast<uint32_t>(value))
        << literal;
  }
}

TEST(CudaCompiler, CompileErrorsCarryNvrtcsLog) {
  if (!CAVS_HAVE_CUDA)
    GTEST_SKIP() << "built without CUDA: NVRTC is not linked";
  std::string output, error;
  EXPECT_TRUE(mlir::failed(
      compileCuda("extern \"C\" __global__ void k() { no_such_name = 1; }",
                  "bad.cu", CudaBinary::Cubin, output, error)));
  EXPECT_NE(error.find("NVRTC cannot compile 'bad.cu'"), std::string::npos)
      << error;
  EXPECT_NE(error.find("no_such_name"), std::string::npos) << error;
}

TEST(CudaCompiler, WithoutCudaItSaysHowToGetIt) {
  if (CAVS_HAVE_CUDA)
    GTEST_SKIP() << "built with CUDA";
  std::string output, error;
  EXPECT_TRUE(mlir::failed(
      compileCuda("", "empty.cu", CudaBinary::Ptx, output, error)));
  EXPECT_EQ(error, "this cavsc was built without CUDA (configure with "
                   "-DCAVS_ENABLE_CUDA=ON)");
}

class CudaExampleModelTest : public testing::TestWithParam<test::ExampleModel> {
};

TEST_P(CudaExampleModelTest, KernelsCompileToCubinAndPtx) {
  TestContext test;
  std::string path = std::string(CAVS_EXAMPLES_DIR) + "/" + GetParam().file;
  auto buffer = llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(buffer) << "cannot read " << path;
  llvm::SourceMgr sourceMgr;
  addSourceBuffer(sourceMgr, std::move(*buffer));
  std::unique_ptr<FrontendResult> checked =
      runFrontend(sourceMgr, GetParam().defines);
  ASSERT_TRUE(checked) << path << " does not compile";
  mlir::OwningOpRef<mlir::ModuleOp> module =
      generateMLIR(test.context, sourceMgr, checked->model);
  ASSERT_TRUE(module);
  mlir::FailureOr<ModelCode> code =
      generateModelCode(*module, OptimizationSwitches{}, Targets{true, true});
  ASSERT_TRUE(mlir::succeeded(code)) << test.diagnostics;

  // The CUDA kernels are the CPU kernels: same names, same order.
  std::string model = code->train.model.getSymName().str();
  // The CPU kernels are the code module's function definitions that are
  // not phase functions, in the order cavs-lower-fused built them, each
  // followed by its rows form (what run_rows calls).
  std::vector<std::string> cpuKernels, rowsForms;
  for (auto function : code->code->getOps<mlir::func::FuncOp>()) {
    llvm::StringRef name = function.getSymName();
    bool isPhase = llvm::any_of(kPhaseNames, [&](llvm::StringRef phase) {
      return name.ends_with("_" + phase.str());
    });
    if (function.isDeclaration() || isPhase)
      continue;
    if (!cpuKernels.empty() && name == rowsKernelName(cpuKernels.back()))
      rowsForms.push_back(name.str());
    else
      cpuKernels.push_back(name.str());
  }
  EXPECT_EQ(rowsForms.size(), cpuKernels.size())
      << "every CPU kernel is followed by its rows form";
  ASSERT_TRUE(code->cuda);
  const std::string &source = code->cuda->source;
  const std::vector<std::string> *kernels = &code->cuda->kernels;
  ASSERT_FALSE(kernels->empty());
  EXPECT_EQ(*kernels, cpuKernels);
  EXPECT_EQ(llvm::StringRef(source).count("__global__"), kernels->size());

  if (!CAVS_HAVE_CUDA)
    GTEST_SKIP() << "built without CUDA: the kernels are not compiled";
  std::string cubin, ptx, error;
  ASSERT_TRUE(mlir::succeeded(
      compileCuda(source, model + ".cu", CudaBinary::Cubin, cubin, error)))
      << error;
  // An ELF image for EM_CUDA (190) with every kernel's symbol.
  ASSERT_GT(cubin.size(), 20u);
  EXPECT_TRUE(llvm::StringRef(cubin).starts_with("\177ELF"));
  uint16_t machine;
  std::memcpy(&machine, cubin.data() + 18, sizeof(machine));
  EXPECT_EQ(machine, 190);
  for (const std::string &kernel : *kernels)
    EXPECT_NE(cubin.find(kernel + '\0'), std::string::npos) << kernel;

  ASSERT_TRUE(mlir::succeeded(
      compileCuda(source, model + ".cu", CudaBinary::Ptx, ptx, error)))
      << error;
  EXPECT_EQ(ptx.find('\0'), std::string::npos) << "PTX ends in a NUL byte";
  EXPECT_NE(ptx.find(".target sm_90"), std::string::npos);
  EXPECT_EQ(llvm::StringRef(ptx).count(".entry"), kernels->size());
  for (const std::string &kernel : *kernels)
    EXPECT_NE(ptx.find(".visible .entry " + kernel + "("), std::string::npos)
        << kernel;
}

INSTANTIATE_TEST_SUITE_P(ExampleModels, CudaExampleModelTest,
                         testing::ValuesIn(test::exampleModels()),
                         test::exampleModelName);
} // namespace
