//===- RandomGraph.h - random input graphs for gradient checks --*- C++ -*-===//
//
// Small random input graphs (chains, binary trees, DAGs) with valid random
// inputs for a given model, and random parameter values. Everything is a
// deterministic function of the seed, on every platform, so a failing
// check can be replayed.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_TEST_LIB_EVALUATOR_RANDOMGRAPH_H
#define CAVS_TEST_LIB_EVALUATOR_RANDOMGRAPH_H

#include "test/lib/Evaluator/ReferenceEvaluator.h"

namespace cavs {

/// The structure randomGraph() builds. Leaf positions use vertex functions
/// of arity 0 and inner positions the others, when the model has both kinds;
/// otherwise every position draws from the functions there are.
enum class GraphShape {
  /// Child 0 of each vertex is the previous vertex; other slots are absent.
  Chain,
  /// One binary tree, split at random: a vertex with an empty side has an
  /// absent child there. Every vertex but the root has one parent.
  Tree,
  /// Each child slot is absent or any earlier vertex, so vertices may have
  /// several parents (and the graph several roots).
  Dag,
};

/// What randomGraph() builds.
struct RandomGraphOptions {
  GraphShape shape = GraphShape::Tree;
  unsigned numVertices = 7;
  uint64_t seed = 1;
  /// Give every vertex a random gradient for each of its pushes, so that a
  /// gradient check also covers what flows from cavs.push_grad.
  bool pushGrads = true;
};

/// Builds a random graph for `model`, with the vertices listed in a random
/// order (not topologically). Inputs: f32 elements uniform in [-1, 1]; i32
/// values -1 (no index/label) with probability 0.2, else uniform in [0, n)
/// where n is the smallest bound of the lookups and cross entropies that use
/// the input (8 when none does). Fails with a diagnostic when the model has
/// no vertex function.
mlir::FailureOr<EvalGraph> randomGraph(ModelOp model,
                                       const RandomGraphOptions &options);

/// Values for every parameter of `model`, uniform in [-0.5, 0.5].
llvm::StringMap<EvalTensor> randomParams(ModelOp model, uint64_t seed);

} // namespace cavs

#endif // CAVS_TEST_LIB_EVALUATOR_RANDOMGRAPH_H
