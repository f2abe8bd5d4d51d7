//===- FusedKernelTest.cpp - CPU fused kernels against the evaluator ------===//
//
// A vertex function made of every elementwise op, and one whose kernel ends
// in reductions, is fused into one kernel, compiled through the LLVM
// dialect to an object file, linked into a shared object and run over many
// rows with strided operands; every row must match the reference
// evaluator's result for that vertex.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/FusedKernels.h"
#include "compiler/Target/ObjectEmitter.h"
#include "compiler/Transforms/Passes.h"
#include "test/lib/Evaluator/ReferenceEvaluator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

using namespace cavs;

namespace {
// Every elementwise op, broadcast scalars, and a value used twice.
constexpr const char *kModel = R"mlir(
cavs.model @kernels {
  cavs.vertex @v arity 0 pulls {x = tensor<13xf32>, y = tensor<13xf32>, s = tensor<f32>}
                         pushes {a = tensor<13xf32>, b = tensor<13xf32>} {
    %x = cavs.pull "x" : tensor<13xf32>
    %y = cavs.pull "y" : tensor<13xf32>
    %s = cavs.pull "s" : tensor<f32>
    %two = cavs.constant dense<2.0> : tensor<f32>
    %0 = cavs.mul %x, %s : tensor<13xf32>, tensor<f32> -> tensor<13xf32>
    %1 = cavs.sigmoid %0 : tensor<13xf32>
    %2 = cavs.tanh %y : tensor<13xf32>
    %3 = cavs.sub %1, %2 : tensor<13xf32>
    %4 = cavs.exp %3 : tensor<13xf32>
    %5 = cavs.log %4 : tensor<13xf32>
    %6 = cavs.div %5, %two : tensor<13xf32>, tensor<f32> -> tensor<13xf32>
    %7 = cavs.relu %6 : tensor<13xf32>
    %8 = cavs.neg %7 : tensor<13xf32>
    %9 = cavs.sum %8, %x, %y : tensor<13xf32>
    %10 = cavs.relu_grad %3, %9 : tensor<13xf32>
    %11 = cavs.add %s, %10 : tensor<f32>, tensor<13xf32> -> tensor<13xf32>
    %12 = cavs.softplus %11 : tensor<13xf32>
    %13 = cavs.equal %x, %y : tensor<13xf32>
    %15 = cavs.sqrt %12 : tensor<13xf32>
    %14 = cavs.add %15, %13 : tensor<13xf32>
    cavs.push "a", %14 : tensor<13xf32>
    cavs.push "b", %3 : tensor<13xf32>
  }
}
)mlir";

// Elementwise ops ending in reductions: sums and maxima of kernel values,
// of a broadcast scalar's product and of a value with ties (relu's zeros).
constexpr const char *kReductions = R"mlir(
cavs.model @kernels {
  cavs.vertex @v arity 0 pulls {x = tensor<13xf32>, y = tensor<13xf32>, s = tensor<f32>}
                         pushes {t = tensor<13xf32>, sum = tensor<f32>, max = tensor<f32>, dot = tensor<f32>, ties = tensor<f32>} {
    %x = cavs.pull "x" : tensor<13xf32>
    %y = cavs.pull "y" : tensor<13xf32>
    %s = cavs.pull "s" : tensor<f32>
    %0 = cavs.mul %x, %s : tensor<13xf32>, tensor<f32> -> tensor<13xf32>
    %1 = cavs.tanh %0 : tensor<13xf32>
    %2 = cavs.reduce_sum %1 : tensor<13xf32>
    %3 = cavs.reduce_max %1 : tensor<13xf32>
    %4 = cavs.mul %1, %y : tensor<13xf32>
    %5 = cavs.reduce_sum %4 : tensor<13xf32>
    %6 = cavs.relu %4 : tensor<13xf32>
    %7 = cavs.neg %6 : tensor<13xf32>
    %8 = cavs.reduce_max %7 : tensor<13xf32>
    cavs.push "t", %1 : tensor<13xf32>
    cavs.push "sum", %2 : tensor<f32>
    cavs.push "max", %3 : tensor<f32>
    cavs.push "dot", %5 : tensor<f32>
    cavs.push "ties", %8 : tensor<f32>
  }
}
)mlir";

// log alone, for its special arguments.
constexpr const char *kLog = R"mlir(
cavs.model @kernels {
  cavs.vertex @v arity 0 pulls {x = tensor<16xf32>} pushes {l = tensor<16xf32>} {
    %x = cavs.pull "x" : tensor<16xf32>
    %0 = cavs.log %x : tensor<16xf32>
    cavs.push "l", %0 : tensor<16xf32>
  }
}
)mlir";

/// The single kernel that cavs-fuse-elementwise makes of `source`'s vertex
/// function, compiled into a shared object and loaded.
class CompiledKernel {
public:
  explicit CompiledKernel(const char *source) {
    context.loadDialect<CavsDialect, mlir::func::FuncDialect,
                        mlir::arith::ArithDialect, mlir::math::MathDialect,
                        mlir::scf::SCFDialect, mlir::LLVM::LLVMDialect>();
    module = mlir::parseSourceString<mlir::ModuleOp>(source, &context);
  }
  ~CompiledKernel() {
    if (handle)
      dlclose(handle);
    if (!dir.empty())
      llvm::sys::fs::remove_directories(dir);
  }

  /// Fuses and compiles; gtest failures explain what went wrong.
  void build(unsigned inputs, unsigned outputs) {
    ASSERT_TRUE(module);
    model = *module->getOps<ModelOp>().begin();
    mlir::PassManager pm(&context);
    pm.nest<ModelOp>().addPass(createCavsClassify());
    pm.nest<ModelOp>().addPass(createCavsFuseElementwise());
    ASSERT_TRUE(mlir::succeeded(pm.run(*module)));
    auto vertex = *model.getBody().getOps<VertexOp>().begin();
    auto kernels = vertex.getBody().getOps<FusedOp>();
    ASSERT_EQ(std::distance(kernels.begin(), kernels.end()), 1);
    fused = *kernels.begin();
    ASSERT_EQ(fused.getInputs().size(), inputs);
    ASSERT_EQ(fused.getNumResults(), outputs);

    mlir::OwningOpRef<mlir::ModuleOp> target =
        mlir::ModuleOp::create(mlir::UnknownLoc::get(&context));
    ASSERT_TRUE(mlir::succeeded(buildFusedKernel(fused, *target, "kernel")));
    ASSERT_TRUE(mlir::succeeded(lowerToLLVMDialect(*target)));
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("cavs-kernel", dir));
    std::string object = (dir + "/kernel.o").str();
    std::string library = (dir + "/libkernel.so").str();
    {
      llvm::raw_svector_ostream irStream(ir);
      ASSERT_TRUE(
          mlir::succeeded(emitLLVM(*target, CpuTarget{}, irStream, false)));
    }
    {
      std::error_code ec;
      llvm::raw_fd_ostream file(object, ec);
      ASSERT_FALSE(ec) << ec.message();
      ASSERT_TRUE(mlir::succeeded(emitLLVM(*target, CpuTarget{}, file, true)));
    }
    std::string error;
    ASSERT_TRUE(mlir::succeeded(linkSharedObject({object}, library, {}, error)))
        << error;
    handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(handle, nullptr) << dlerror();
    symbol = dlsym(handle, "kernel");
    ASSERT_NE(symbol, nullptr);
  }

  mlir::MLIRContext context;
  mlir::ScopedDiagnosticHandler failOnError{
      &context, [](mlir::Diagnostic &d) {
        ADD_FAILURE() << d.str();
        return mlir::success();
      }};
  mlir::OwningOpRef<mlir::ModuleOp> module;
  ModelOp model;
  FusedOp fused;
  /// The optimized LLVM IR of the kernel.
  llvm::SmallString<0> ir;
  void *symbol = nullptr;

private:
  llvm::SmallString<128> dir;
  void *handle = nullptr;
};

/// Rows with padding between them, as columns of a wider arena row: x and
/// y are [rows x 13] with leading dimension 20, s is [rows x 1] with 3.
struct Inputs {
  static constexpr int64_t rows = 37, width = 13, ld = 20, sLd = 3;
  Inputs() {
    std::mt19937 random(7);
    std::uniform_real_distribution<float> uniform(-2, 2);
    for (float &v : x)
      v = uniform(random);
    for (float &v : y)
      v = uniform(random);
    for (float &v : s)
      v = uniform(random);
    // Equal elements in some rows, for cavs.equal.
    for (int64_t r = 0; r < rows; r += 3)
      y[r * ld + r % width] = x[r * ld + r % width];
  }
  /// The graph of one vertex per row for the evaluator.
  EvalGraph graph() const {
    EvalGraph graph;
    for (int64_t r = 0; r < rows; ++r) {
      EvalVertex vertex{"v", {}, {}, {}, {}};
      auto row = [&](const std::vector<float> &m) {
        return EvalTensor{{width},
                          std::vector<double>(m.begin() + r * ld,
                                              m.begin() + r * ld + width)};
      };
      vertex.f32Inputs["x"] = row(x);
      vertex.f32Inputs["y"] = row(y);
      vertex.f32Inputs["s"] = EvalTensor::scalar(s[r * sLd]);
      graph.vertices.push_back(std::move(vertex));
    }
    return graph;
  }
  std::vector<float> x = std::vector<float>(rows * ld),
                     y = std::vector<float>(rows * ld),
                     s = std::vector<float>(rows * sLd);
};

void expectClose(float actual, double expected, const std::string &what) {
  EXPECT_NEAR(actual, expected, 1e-5 * std::max(1.0, std::abs(expected)))
      << what;
}

TEST(FusedKernel, CompiledKernelMatchesTheEvaluator) {
  CompiledKernel compiled(kModel);
  // The kernel's inputs are x, s, y (program order of first use); it yields
  // the values pushed as "b" (%3) and "a" (%14).
  ASSERT_NO_FATAL_FAILURE(compiled.build(3, 2));
  // The column loop is vectorized: the optimized IR computes on vectors.
  EXPECT_TRUE(llvm::StringRef(compiled.ir).contains(" x float>"))
      << "the kernel was not vectorized";
  using Kernel = void (*)(int64_t, const float *, int64_t, const float *,
                          int64_t, const float *, int64_t, float *, int64_t,
                          float *, int64_t);
  auto kernel = reinterpret_cast<Kernel>(compiled.symbol);

  Inputs in;
  constexpr int64_t rows = Inputs::rows, width = Inputs::width,
                    ld = Inputs::ld;
  std::vector<float> b(rows * ld, NAN), a(rows * ld, NAN);
  kernel(rows, in.x.data(), ld, in.s.data(), Inputs::sLd, in.y.data(), ld,
         b.data(), ld, a.data(), ld);

  mlir::FailureOr<EvalResult> expected =
      evaluate(compiled.model, in.graph(), {}, {});
  ASSERT_TRUE(mlir::succeeded(expected));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < width; ++c) {
      std::string where =
          " at row " + std::to_string(r) + ", column " + std::to_string(c);
      expectClose(a[r * ld + c], expected->pushes[r].lookup("a").data[c],
                  "a" + where);
      expectClose(b[r * ld + c], expected->pushes[r].lookup("b").data[c],
                  "b" + where);
    }
  // The padding between rows is never written.
  for (int64_t r = 0; r < rows; ++r)
    EXPECT_TRUE(std::isnan(a[r * ld + width]));
}

TEST(FusedKernel, KernelEndingInReductionsMatchesTheEvaluator) {
  CompiledKernel compiled(kReductions);
  // Inputs x, s, y; results t, the two sums and the two maxima.
  ASSERT_NO_FATAL_FAILURE(compiled.build(3, 5));
  using Kernel = void (*)(int64_t, const float *, int64_t, const float *,
                          int64_t, const float *, int64_t, float *, int64_t,
                          float *, int64_t, float *, int64_t, float *, int64_t,
                          float *, int64_t);
  auto kernel = reinterpret_cast<Kernel>(compiled.symbol);

  Inputs in;
  constexpr int64_t rows = Inputs::rows, width = Inputs::width,
                    ld = Inputs::ld;
  // The scalar results are columns of rows 2 floats apart.
  std::vector<float> t(rows * ld, NAN);
  std::vector<std::vector<float>> scalars(4, std::vector<float>(rows * 2, NAN));
  kernel(rows, in.x.data(), ld, in.s.data(), Inputs::sLd, in.y.data(), ld,
         t.data(), ld, scalars[0].data(), 2, scalars[1].data(), 2,
         scalars[2].data(), 2, scalars[3].data(), 2);

  // The results in the kernel's order of the yield: find each push's.
  std::vector<std::string> names;
  for (mlir::Value result : compiled.fused.getResults())
    for (mlir::Operation *user : result.getUsers())
      names.push_back(llvm::cast<PushOp>(user).getName().str());
  ASSERT_EQ(names.size(), 5u);
  ASSERT_EQ(names[0], "t") << "the first result is the elementwise one";

  mlir::FailureOr<EvalResult> expected =
      evaluate(compiled.model, in.graph(), {}, {});
  ASSERT_TRUE(mlir::succeeded(expected));
  for (int64_t r = 0; r < rows; ++r) {
    std::string where = " at row " + std::to_string(r);
    for (int64_t c = 0; c < width; ++c)
      expectClose(t[r * ld + c], expected->pushes[r].lookup("t").data[c],
                  "t" + where + ", column " + std::to_string(c));
    for (int i = 0; i < 4; ++i) {
      expectClose(scalars[i][r * 2],
                  expected->pushes[r].lookup(names[i + 1]).data[0],
                  names[i + 1] + where);
      EXPECT_TRUE(std::isnan(scalars[i][r * 2 + 1])) << "padding" << where;
    }
  }
}
// Tests log on subnormal, zero, negative, infinite and NaN arguments
// besides normal ones: the polynomial approximation clamped subnormals to
// the smallest normal float, so log(1.4e-45) was -87.34 for -103.28.
TEST(FusedKernel, LogOfSpecialArguments) {
  CompiledKernel compiled(kLog);
  ASSERT_NO_FATAL_FAILURE(compiled.build(1, 1));
  using Kernel = void (*)(int64_t, const float *, int64_t, float *, int64_t);
  auto kernel = reinterpret_cast<Kernel>(compiled.symbol);
  const float inf = std::numeric_limits<float>::infinity();
  const float denormMin = std::numeric_limits<float>::denorm_min();
  const float normMin = std::numeric_limits<float>::min();
  const std::vector<float> x = {
      denormMin,    5.04e-44f, 1e-40f,
      9.99999e-39f, normMin,   std::nextafter(normMin, 0.0f),
      1e-30f,       0.5f,      1.0f,
      3.0f,         1e30f,     std::numeric_limits<float>::max(),
      0.0f,         -0.0f,     -1e-40f,
      inf};
  std::vector<float> l(x.size(), 0.0f);
  kernel(1, x.data(), 16, l.data(), 16);
  for (size_t i = 0; i < 12; ++i) {
    const double expected = std::log(double(x[i]));
    EXPECT_NEAR(l[i], expected, 4e-7 * std::abs(expected) + 1e-7)
        << "log(" << x[i] << ")";
  }
  EXPECT_EQ(l[12], -inf);
  EXPECT_EQ(l[13], -inf);
  EXPECT_TRUE(std::isnan(l[14]));
  EXPECT_EQ(l[15], inf);
  const std::vector<float> nan(16, std::numeric_limits<float>::quiet_NaN());
  kernel(1, nan.data(), 16, l.data(), 16);
  EXPECT_TRUE(std::isnan(l[0]));
}
} // namespace
