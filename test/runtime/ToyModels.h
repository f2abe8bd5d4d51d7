//===- ToyModels.h - hand-written model definitions for the executor ------===//
//
// The compiler that generates phase functions is tested elsewhere; the
// executor is tested with these small models, whose phase functions are
// written by hand and call the cavs_op_* kernels as generated code would:
//
//   sumtree   one function "node" (arity 2): h = w·x + Σ children's h;
//             push y = h, loss Σ h. Param w [1].
//   leafsum   type 0 "leaf" (arity 0): h = w·x + b, all in the eager
//             phase; type 1 "node" as in sumtree. Params w [1], b [1].
//   embedchain  one function "cell" (arity 1, state width 2):
//             h = embed[word] + child's h; push h, loss Σ h. Param
//             embed [6, 2], sparse; "word" is an i32 pull.
//
// Every backward phase computes the exact gradient of the loss plus
// Σ dy·y for the output gradients dy. The infer programs run the same
// forward with narrower arenas.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_TEST_RUNTIME_TOYMODELS_H
#define CAVS_TEST_RUNTIME_TOYMODELS_H

#include "ModelFixtures.h"
#include "cavs/runtime.hpp"

#include <memory>
#include <vector>

namespace cavs::test {

/// A model definition over owned, mutable arrays. Not movable: `def`
/// points into it. Tests break a field and call link() only when they
/// change the size of an array.
struct ToyModel {
  ToyModel() = default;
  ToyModel(const ToyModel &) = delete;
  ToyModel &operator=(const ToyModel &) = delete;

  /// Points the descriptors at the arrays below and sets their counts.
  void link();

  ModelSpec spec;
  cavs_model_desc desc{};
  /// trainPulls[f], trainPushes[f]: the pulls and pushes of function f in
  /// the train program; likewise for infer.
  std::vector<std::vector<cavs_io_desc>> trainPulls, trainPushes;
  std::vector<std::vector<cavs_io_desc>> inferPulls, inferPushes;
  std::vector<cavs_function_desc> train, infer;
  std::vector<int32_t> sparseParams;
  cavs_model_def def{};
};

std::unique_ptr<ToyModel> sumTreeModel();
std::unique_ptr<ToyModel> leafSumModel();
std::unique_ptr<ToyModel> embedChainModel();

/// Rows of the embedchain table.
constexpr int32_t kEmbedRows = 6;

} // namespace cavs::test

#endif // CAVS_TEST_RUNTIME_TOYMODELS_H
