//===- GradientCheck.h - finite-difference checks of ∂F ---------*- C++ -*-===//
//
// Compares the gradients that a model's ∂F computes (through the reference
// evaluator) with finite differences of its forward pass, element by
// element, for every parameter and every f32 input.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_TEST_LIB_EVALUATOR_GRADIENTCHECK_H
#define CAVS_TEST_LIB_EVALUATOR_GRADIENTCHECK_H

#include "test/lib/Evaluator/ReferenceEvaluator.h"

#include <string>
#include <vector>

namespace cavs {

/// How checkGradients() differentiates and compares.
struct GradientCheckOptions {
  /// The step h of the five-point stencil
  ///   f'(x) ≈ (f(x-2h) - 8 f(x-h) + 8 f(x+h) - f(x+2h)) / 12h,
  /// whose O(h^4) truncation error lets h be large enough for rounding not
  /// to matter. A relu whose input lies within 2h of 0 is not differentiable
  /// at that scale and may fail the check.
  double step = 1e-3;
  /// The floor of the relative error's denominator (see
  /// GradientCheckEntry::error): gradients smaller than this are compared
  /// absolutely, at floor × the tolerance.
  double floor = 1e-3;
  /// A tensor with more elements is checked at this many evenly spaced ones.
  int64_t maxElementsPerTensor = 32;
};

/// One checked element.
struct GradientCheckEntry {
  /// The perturbed element: "@W[1, 2]" or "vertex 3 input 'x'[0]".
  std::string element;
  double analytic = 0;
  double numeric = 0;
  /// |analytic - numeric| / max(|analytic|, |numeric|, floor).
  double error = 0;
};

/// Every checked element and the worst error.
struct GradientCheckReport {
  std::vector<GradientCheckEntry> entries;
  /// The largest entry error (0 when nothing was checked).
  double maxError = 0;

  /// One line: the element count, the largest error and where it occurred.
  std::string summary() const;
};

/// Checks the gradients of the objective
///   loss + Σ_vertices Σ_pushes pushGrads[v][n] · pushes[v][n]
/// (the loss plus the linear functional of the pushes that the graph's push
/// gradients define: what cavs.push_grad reads as the push adjoint). The
/// analytic gradients come from evaluate() with the backward pass; a
/// gradient that ∂F never writes counts as zero. Fails, with the
/// evaluator's diagnostic, when the model cannot be evaluated on `graph`.
mlir::FailureOr<GradientCheckReport>
checkGradients(ModelOp model, const EvalGraph &graph,
               const llvm::StringMap<EvalTensor> &params,
               const GradientCheckOptions &options = {});

} // namespace cavs

#endif // CAVS_TEST_LIB_EVALUATOR_GRADIENTCHECK_H
