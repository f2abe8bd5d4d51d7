//===- FusedKernelTest.cpp - CPU fused kernels against the evaluator ------===//
//
// A vertex function made of every elementwise op is fused into one kernel,
// compiled through the LLVM dialect to an object file, linked into a shared
// object and run over many rows with strided operands; every row must match
// the reference evaluator's result for that vertex.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/FusedKernels.h"
#include "compiler/Evaluator/ReferenceEvaluator.h"
#include "compiler/Target/ObjectEmitter.h"
#include "compiler/Transforms/Passes.h"

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
    cavs.push "a", %11 : tensor<13xf32>
    cavs.push "b", %3 : tensor<13xf32>
  }
}
)mlir";

using Kernel = void (*)(int64_t, const float *, int64_t, const float *,
                        int64_t, const float *, int64_t, float *, int64_t,
                        float *, int64_t);

TEST(FusedKernel, CompiledKernelMatchesTheEvaluator) {
  mlir::MLIRContext context;
  context.loadDialect<CavsDialect, mlir::func::FuncDialect,
                      mlir::arith::ArithDialect, mlir::math::MathDialect,
                      mlir::scf::SCFDialect, mlir::LLVM::LLVMDialect>();
  mlir::ScopedDiagnosticHandler failOnError(&context, [](mlir::Diagnostic &d) {
    ADD_FAILURE() << d.str();
    return mlir::success();
  });
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kModel, &context);
  ASSERT_TRUE(module);
  auto model = *module->getOps<ModelOp>().begin();
  mlir::PassManager pm(&context);
  pm.nest<ModelOp>().addPass(createCavsClassify());
  pm.nest<ModelOp>().addPass(createCavsFuseElementwise());
  ASSERT_TRUE(mlir::succeeded(pm.run(*module)));
  auto vertex = *model.getBody().getOps<VertexOp>().begin();
  auto kernels = vertex.getBody().getOps<FusedOp>();
  ASSERT_EQ(std::distance(kernels.begin(), kernels.end()), 1);
  FusedOp fused = *kernels.begin();
  // The kernel's inputs are x, s, y (program order of first use); it yields
  // the values pushed as "b" (%3) and "a" (%11).
  ASSERT_EQ(fused.getInputs().size(), 3u);
  ASSERT_EQ(fused.getNumResults(), 2u);

  mlir::OwningOpRef<mlir::ModuleOp> target =
      mlir::ModuleOp::create(mlir::UnknownLoc::get(&context));
  ASSERT_TRUE(mlir::succeeded(buildFusedKernel(fused, *target, "kernel")));
  ASSERT_TRUE(mlir::succeeded(lowerToLLVMDialect(*target)));
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("cavs-kernel", dir));
  std::string object = (dir + "/kernel.o").str();
  std::string library = (dir + "/libkernel.so").str();
  llvm::SmallString<0> ir;
  {
    llvm::raw_svector_ostream irStream(ir);
    ASSERT_TRUE(
        mlir::succeeded(emitLLVM(*target, CpuTarget{}, irStream, false)));
  }
  // The column loop is vectorized: the optimized IR computes on vectors.
  EXPECT_TRUE(llvm::StringRef(ir).contains(" x float>"))
      << "the kernel was not vectorized";
  {
    std::error_code ec;
    llvm::raw_fd_ostream file(object, ec);
    ASSERT_FALSE(ec) << ec.message();
    ASSERT_TRUE(mlir::succeeded(emitLLVM(*target, CpuTarget{}, file, true)));
  }
  std::string error;
  ASSERT_TRUE(mlir::succeeded(linkSharedObject({object}, library, {}, error)))
      << error;
  void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(handle, nullptr) << dlerror();
  auto kernel = reinterpret_cast<Kernel>(dlsym(handle, "kernel"));
  ASSERT_NE(kernel, nullptr);

  // Rows with padding between them, as columns of a wider arena row.
  constexpr int64_t rows = 37, width = 13, ld = 20;
  std::mt19937 random(7);
  std::uniform_real_distribution<float> uniform(-2, 2);
  std::vector<float> x(rows * ld), y(rows * ld), s(rows * 3);
  for (float &v : x)
    v = uniform(random);
  for (float &v : y)
    v = uniform(random);
  for (float &v : s)
    v = uniform(random);
  std::vector<float> b(rows * ld, NAN), a(rows * ld, NAN);
  kernel(rows, x.data(), ld, s.data(), 3, y.data(), ld, b.data(), ld,
         a.data(), ld);

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
    vertex.f32Inputs["s"] = EvalTensor::scalar(s[r * 3]);
    graph.vertices.push_back(std::move(vertex));
  }
  mlir::FailureOr<EvalResult> expected = evaluate(model, graph, {}, {});
  ASSERT_TRUE(mlir::succeeded(expected));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < width; ++c) {
      double wantA = expected->pushes[r].lookup("a").data[c];
      double wantB = expected->pushes[r].lookup("b").data[c];
      EXPECT_NEAR(a[r * ld + c], wantA, 1e-5 * std::max(1.0, std::abs(wantA)))
          << "a at row " << r << ", column " << c;
      EXPECT_NEAR(b[r * ld + c], wantB, 1e-5 * std::max(1.0, std::abs(wantB)))
          << "b at row " << r << ", column " << c;
    }
  // The padding between rows is never written.
  for (int64_t r = 0; r < rows; ++r)
    EXPECT_TRUE(std::isnan(a[r * ld + width]));
  dlclose(handle);
  llvm::sys::fs::remove_directories(dir);
}
} // namespace
