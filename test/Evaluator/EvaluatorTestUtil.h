//===- EvaluatorTestUtil.h - fixture of the evaluator tests -----*- C++ -*-===//
//
// Parses models from inline IR, collects the diagnostics they raise, and
// compares tensors with the values a test computed by hand.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_TEST_EVALUATOR_EVALUATORTESTUTIL_H
#define CAVS_TEST_EVALUATOR_EVALUATORTESTUTIL_H

#include "test/lib/Evaluator/ReferenceEvaluator.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cavs::test {

/// Owns a context with the cavs dialect, the parsed module, and every
/// diagnostic emitted so far (parse errors and evaluator errors alike).
class EvaluatorTest : public ::testing::Test {
protected:
  EvaluatorTest()
      : handler(&context, [this](mlir::Diagnostic &diag) {
          diagnostics.push_back(diag.str());
          return mlir::success();
        }) {
    context.loadDialect<CavsDialect>();
  }

  /// Parses `ir` and returns its cavs.model named `name` (the first one
  /// when empty); a null op, and a test failure, when there is none.
  ModelOp parse(llvm::StringRef ir, llvm::StringRef name = "") {
    module = mlir::parseSourceString<mlir::ModuleOp>(ir, &context);
    if (!module) {
      ADD_FAILURE() << "the IR does not parse:\n" << errors();
      return nullptr;
    }
    for (auto model : module->getOps<ModelOp>())
      if (name.empty() || model.getSymName() == name)
        return model;
    ADD_FAILURE() << "no cavs.model @" << name.str();
    return nullptr;
  }

  /// evaluate(), expected to succeed.
  EvalResult run(ModelOp model, const EvalGraph &graph,
                 const llvm::StringMap<EvalTensor> &params = {},
                 bool runBackward = false) {
    mlir::FailureOr<EvalResult> result =
        evaluate(model, graph, params, EvalOptions{runBackward});
    if (mlir::failed(result)) {
      ADD_FAILURE() << "evaluation failed:\n" << errors();
      return {};
    }
    return std::move(*result);
  }

  /// The messages of all diagnostics so far, one per line.
  std::string errors() const {
    std::string text;
    for (const std::string &message : diagnostics)
      text += message + "\n";
    return text;
  }

  mlir::MLIRContext context;
  std::vector<std::string> diagnostics;
  mlir::ScopedDiagnosticHandler handler;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

/// Expects `actual` to have `shape` and, elementwise within `tolerance`,
/// `values`.
inline void expectTensor(const EvalTensor &actual,
                         llvm::ArrayRef<int64_t> shape,
                         llvm::ArrayRef<double> values,
                         double tolerance = 1e-12) {
  ASSERT_EQ(llvm::ArrayRef<int64_t>(actual.shape), shape);
  ASSERT_EQ(actual.data.size(), values.size());
  for (size_t i = 0; i < values.size(); ++i)
    EXPECT_NEAR(actual.data[i], values[i], tolerance) << "element " << i;
}

/// A rank-1 tensor.
inline EvalTensor vec(std::vector<double> values) {
  int64_t size = values.size();
  return EvalTensor{{size}, std::move(values)};
}

} // namespace cavs::test

#endif // CAVS_TEST_EVALUATOR_EVALUATORTESTUTIL_H
