//===- ReferenceEvaluator.h - an unbatched interpreter of cavs --*- C++ -*-===//
//
// The test oracle of the compiler: evaluates a cavs.model over one input
// graph, one vertex at a time in topological order and in double precision,
// running F and then, in reverse topological order, ∂F (the cavs.backward
// regions). It favours obvious correctness over speed; the batched
// generated code and the finite-difference checks are compared against it.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_TEST_LIB_EVALUATOR_REFERENCEEVALUATOR_H
#define CAVS_TEST_LIB_EVALUATOR_REFERENCEEVALUATOR_H

#include "dialects/CavsOps.h"
#include "test/lib/Evaluator/Tensor.h"

#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace cavs {

/// One vertex of an input graph.
struct EvalVertex {
  /// The symbol name of the cavs.vertex function evaluated here.
  std::string function;
  /// One entry per child slot (exactly the function's arity): the index of
  /// the child vertex in EvalGraph::vertices, or -1 for an absent child.
  std::vector<int64_t> children;
  /// The values of the function's declared pulls: f32 ones here, with the
  /// declared shape...
  llvm::StringMap<EvalTensor> f32Inputs;
  /// ...and i32 ones (token ids, labels) here.
  llvm::StringMap<int32_t> i32Inputs;
  /// Optional gradients for the function's pushes, read by cavs.push_grad
  /// (zeros for a push not listed).
  llvm::StringMap<EvalTensor> pushGrads;
};

/// An input graph: a batch of trees, chains or DAGs. Vertices may be listed
/// in any order; the evaluator sorts them topologically (children first).
struct EvalGraph {
  std::vector<EvalVertex> vertices;
};

/// What one evaluation produced. Vectors are indexed like EvalGraph::vertices.
struct EvalResult {
  /// The sum of every cavs.loss operand over all vertices.
  double loss = 0;
  /// The state each vertex scattered (empty when the model has no state).
  std::vector<EvalTensor> states;
  /// The outputs each vertex pushed.
  std::vector<llvm::StringMap<EvalTensor>> pushes;

  // Filled only when the backward pass ran.
  /// The gradient of every parameter (zeros where ∂F added nothing).
  llvm::StringMap<EvalTensor> paramGrads;
  /// The gradients each vertex's ∂F sent with cavs.pull_grad (summed when
  /// an input is given several).
  std::vector<llvm::StringMap<EvalTensor>> pullGrads;
  /// The gradient of each vertex's state: what cavs.state_grad read.
  std::vector<EvalTensor> stateGrads;
};

/// How evaluate() runs.
struct EvalOptions {
  /// Also run ∂F (every vertex function must then end in cavs.backward).
  bool runBackward = false;
  /// Follow the batched execution order instead of going vertex by vertex:
  /// the eager ops of every vertex, then the body ops vertex by vertex,
  /// then the lazy ops (the cavs.batching classes), and the same for ∂F
  /// with the body in reverse order; keep every value that has a
  /// cavs.slots entry in those columns (one arena row per vertex, one
  /// scratch row shared by all vertices) and nowhere else. Results then
  /// match the plain order only if the classification and the memory plan
  /// (cavs-classify, cavs-plan-memory) are sound.
  bool batchedOrder = false;
};

/// Evaluates `model` over `graph` with parameter values `params` (one per
/// cavs.param, with its shape): F at every vertex, children before parents,
/// then, with `options.runBackward`, ∂F at every vertex, parents before
/// children. The model must have been verified. Invalid input (a cycle, a
/// bad child index or arity, an unknown function, missing or ill-shaped
/// inputs or parameters, an out-of-range lookup index or label, an op
/// without batching class or slot in batched order) is reported as an MLIR
/// diagnostic at the model or at the offending op, and yields failure.
mlir::FailureOr<EvalResult> evaluate(ModelOp model, const EvalGraph &graph,
                                     const llvm::StringMap<EvalTensor> &params,
                                     const EvalOptions &options);

} // namespace cavs

#endif // CAVS_TEST_LIB_EVALUATOR_REFERENCEEVALUATOR_H
