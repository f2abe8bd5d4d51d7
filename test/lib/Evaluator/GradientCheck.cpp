//===- GradientCheck.cpp - finite-difference checks of ∂F -----------------===//
//
// Perturbs one element at a time in private copies of the parameters and
// the graph, re-evaluates the forward pass, and compares the stencil's
// derivative with the analytic one.
//
//===----------------------------------------------------------------------===//

#include "test/lib/Evaluator/GradientCheck.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace cavs;

/// The objective: the loss plus the push functional (see checkGradients).
static FailureOr<double> objective(ModelOp model, const EvalGraph &graph,
                                   const llvm::StringMap<EvalTensor> &params) {
  FailureOr<EvalResult> result = evaluate(model, graph, params, EvalOptions{});
  if (failed(result))
    return failure();
  double value = result->loss;
  for (auto [vertex, pushes] : llvm::zip(graph.vertices, result->pushes))
    for (const auto &grad : vertex.pushGrads) {
      const EvalTensor &pushed = pushes.find(grad.getKey())->second;
      for (auto [g, x] : llvm::zip(grad.getValue().data, pushed.data))
        value += g * x;
    }
  return value;
}

/// The flat indices to check in a tensor of `size` elements.
static std::vector<int64_t> sampleIndices(int64_t size, int64_t max) {
  std::vector<int64_t> indices;
  int64_t count = std::min(size, max);
  for (int64_t i = 0; i < count; ++i)
    indices.push_back(i * size / count);
  return indices;
}

/// "[i]" or "[r, c]" for flat index `flat` of `shape`; "" for a scalar.
static std::string indexString(ArrayRef<int64_t> shape, int64_t flat) {
  if (shape.empty())
    return "";
  if (shape.size() == 1)
    return "[" + std::to_string(flat) + "]";
  return "[" + std::to_string(flat / shape[1]) + ", " +
         std::to_string(flat % shape[1]) + "]";
}

std::string GradientCheckReport::summary() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "max relative error " << llvm::format("%.3g", maxError) << " over "
     << entries.size() << " elements";
  auto worst = std::max_element(
      entries.begin(), entries.end(),
      [](const auto &a, const auto &b) { return a.error < b.error; });
  if (worst != entries.end())
    os << ", worst at " << worst->element << ": analytic "
       << llvm::format("%.10g", worst->analytic) << " vs numeric "
       << llvm::format("%.10g", worst->numeric);
  return text;
}

FailureOr<GradientCheckReport>
cavs::checkGradients(ModelOp model, const EvalGraph &graph,
                     const llvm::StringMap<EvalTensor> &params,
                     const GradientCheckOptions &options) {
  FailureOr<EvalResult> analytic =
      evaluate(model, graph, params, EvalOptions{/*runBackward=*/true});
  if (failed(analytic))
    return failure();

  // The stencil perturbs elements of these copies in place.
  llvm::StringMap<EvalTensor> perturbedParams = params;
  EvalGraph perturbedGraph = graph;
  auto derivative = [&](double &x) -> FailureOr<double> {
    double saved = x, h = options.step;
    double f[4];
    const double offsets[4] = {-2, -1, 1, 2};
    for (int k = 0; k < 4; ++k) {
      x = saved + offsets[k] * h;
      FailureOr<double> value =
          objective(model, perturbedGraph, perturbedParams);
      x = saved;
      if (failed(value))
        return failure();
      f[k] = *value;
    }
    return (f[0] - 8 * f[1] + 8 * f[2] - f[3]) / (12 * h);
  };

  GradientCheckReport report;
  auto check = [&](double &x, double analyticValue,
                   std::string element) -> LogicalResult {
    FailureOr<double> numeric = derivative(x);
    if (failed(numeric))
      return failure();
    double scale =
        std::max({std::abs(analyticValue), std::abs(*numeric), options.floor});
    double error = std::abs(analyticValue - *numeric) / scale;
    report.maxError = std::max(report.maxError, error);
    report.entries.push_back(
        {std::move(element), analyticValue, *numeric, error});
    return success();
  };

  for (auto param : model.getBody().front().getOps<ParamOp>()) {
    StringRef name = param.getSymName();
    EvalTensor &value = perturbedParams.find(name)->second;
    const EvalTensor &grad = analytic->paramGrads.find(name)->second;
    for (int64_t i :
         sampleIndices(value.data.size(), options.maxElementsPerTensor))
      if (failed(check(value.data[i], grad.data[i],
                       ("@" + name).str() + indexString(value.shape, i))))
        return failure();
  }

  for (size_t v = 0; v < perturbedGraph.vertices.size(); ++v) {
    // Sorted, so that reports list inputs in a stable order.
    auto &inputs = perturbedGraph.vertices[v].f32Inputs;
    SmallVector<StringRef> names;
    for (const auto &entry : inputs)
      names.push_back(entry.getKey());
    llvm::sort(names);
    for (StringRef name : names) {
      EvalTensor &value = inputs.find(name)->second;
      auto grad = analytic->pullGrads[v].find(name);
      bool hasGrad = grad != analytic->pullGrads[v].end();
      for (int64_t i :
           sampleIndices(value.data.size(), options.maxElementsPerTensor))
        if (failed(check(value.data[i], hasGrad ? grad->second.data[i] : 0.0,
                         "vertex " + std::to_string(v) + " input '" +
                             name.str() + "'" + indexString(value.shape, i))))
          return failure();
    }
  }
  return report;
}
