//===- RandomGraph.cpp - random input graphs for gradient checks ----------===//
//
// Builds the graph in topological order (children first), fills in the
// inputs, then lists the vertices in a random order so that consumers must
// not rely on the order.
//
//===----------------------------------------------------------------------===//

#include "test/lib/Evaluator/RandomGraph.h"

#include "mlir/IR/SymbolTable.h"

#include <algorithm>

using namespace mlir;
using namespace cavs;

namespace {

/// SplitMix64: tiny, and unlike the std:: distributions it gives the same
/// numbers with every standard library.
class Random {
public:
  explicit Random(uint64_t seed) : state(seed) {}

  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [lo, hi).
  double uniform(double lo, double hi) {
    return lo + (hi - lo) * static_cast<double>(next() >> 11) * 0x1.0p-53;
  }
  /// Uniform in [0, n), n > 0.
  int64_t below(int64_t n) { return static_cast<int64_t>(next() % n); }
  bool chance(double p) { return uniform(0, 1) < p; }

private:
  uint64_t state;
};

/// How often a DAG slot is left absent, a DAG vertex is a leaf, and an i32
/// input is -1.
constexpr double kAbsentChild = 0.2;
constexpr double kDagLeaf = 0.25;
constexpr double kNegativeIndex = 0.2;
/// The range of an i32 input that no op bounds.
constexpr int64_t kUnboundedIndexRange = 8;

class GraphBuilder {
public:
  GraphBuilder(ModelOp model, uint64_t seed) : model(model), random(seed) {
    for (auto function : model.getBody().front().getOps<VertexOp>())
      (function.getArity() == 0 ? leaves : inner).push_back(function);
    if (leaves.empty())
      leaves = inner;
    if (inner.empty())
      inner = leaves;
  }

  bool hasFunctions() const { return !leaves.empty(); }
  void chain(unsigned size);
  int64_t tree(unsigned size);
  void dag(unsigned size);
  /// Draws the inputs (and push gradients) of every vertex, then lists the
  /// vertices in a random order.
  EvalGraph finish(bool pushGrads);

private:
  /// A random function for a leaf or an inner position.
  VertexOp pick(bool leaf) {
    SmallVector<VertexOp> &pool = leaf ? leaves : inner;
    return pool[random.below(pool.size())];
  }
  /// Appends a vertex with all children absent and returns its index.
  int64_t append(VertexOp function);
  int64_t indexBound(VertexOp function, StringRef pull);
  EvalTensor randomTensor(ArrayRef<int64_t> shape) {
    EvalTensor tensor = EvalTensor::zeros(shape);
    for (double &x : tensor.data)
      x = random.uniform(-1, 1);
    return tensor;
  }

  ModelOp model;
  Random random;
  SmallVector<VertexOp> leaves, inner;
  std::vector<VertexOp> functions;
  EvalGraph graph;
};

} // namespace

int64_t GraphBuilder::append(VertexOp function) {
  functions.push_back(function);
  EvalVertex vertex;
  vertex.function = function.getSymName().str();
  vertex.children.assign(function.getArity(), -1);
  graph.vertices.push_back(std::move(vertex));
  return graph.vertices.size() - 1;
}

void GraphBuilder::chain(unsigned size) {
  for (unsigned i = 0; i < size; ++i) {
    int64_t v = append(pick(/*leaf=*/i == 0));
    if (i > 0 && !graph.vertices[v].children.empty())
      graph.vertices[v].children[0] = v - 1;
  }
}

int64_t GraphBuilder::tree(unsigned size) {
  if (size == 0)
    return -1;
  if (size == 1)
    return append(pick(/*leaf=*/true));
  // Pick the root's function first: its arity decides how the other
  // vertices can hang below it.
  VertexOp function = pick(/*leaf=*/false);
  int64_t slots = std::min<int64_t>(function.getArity(), 2);
  SmallVector<int64_t, 2> children;
  if (slots == 2) {
    unsigned left = random.below(size);
    children.push_back(tree(left));
    children.push_back(tree(size - 1 - left));
  } else if (slots == 1) {
    children.push_back(tree(size - 1));
  } else {
    // Only leaf functions: the rest becomes a separate tree.
    tree(size - 1);
  }
  int64_t v = append(function);
  llvm::copy(children, graph.vertices[v].children.begin());
  return v;
}

void GraphBuilder::dag(unsigned size) {
  for (unsigned i = 0; i < size; ++i) {
    int64_t v = append(pick(/*leaf=*/i == 0 || random.chance(kDagLeaf)));
    std::vector<int64_t> &children = graph.vertices[v].children;
    for (int64_t &child : children) {
      if (random.chance(kAbsentChild))
        continue;
      // Distinct children per vertex; any earlier vertex may be shared
      // with other parents.
      SmallVector<int64_t> candidates;
      for (int64_t c = 0; c < v; ++c)
        if (!llvm::is_contained(children, c))
          candidates.push_back(c);
      if (!candidates.empty())
        child = candidates[random.below(candidates.size())];
    }
  }
}

int64_t GraphBuilder::indexBound(VertexOp function, StringRef name) {
  int64_t bound = kUnboundedIndexRange;
  bool bounded = false;
  auto limit = [&](int64_t n) {
    bound = bounded ? std::min(bound, n) : n;
    bounded = true;
  };
  function.walk([&](PullOp pull) {
    if (pull.getName() != name)
      return;
    for (Operation *user : pull.getResult().getUsers()) {
      if (auto lookup = dyn_cast<LookupOp>(user))
        limit(lookup.getTable().getType().getDimSize(0));
      else if (auto sce = dyn_cast<SoftmaxCrossEntropyOp>(user))
        limit(sce.getLogits().getType().getDimSize(0));
      else if (auto grad = dyn_cast<SoftmaxCrossEntropyGradOp>(user))
        limit(grad.getLogits().getType().getDimSize(0));
      else if (auto grad = dyn_cast<LookupGradOp>(user))
        if (auto table =
                SymbolTable::lookupSymbolIn(model, grad.getParamAttr()))
          limit(cast<ParamOp>(table).getTensorType().getDimSize(0));
    }
  });
  return bound;
}

EvalGraph GraphBuilder::finish(bool pushGrads) {
  for (auto [vertex, function] : llvm::zip(graph.vertices, functions)) {
    for (NamedAttribute entry : function.getPulls()) {
      Type type = cast<TypeAttr>(entry.getValue()).getValue();
      if (!type.isInteger(32))
        vertex.f32Inputs[entry.getName()] =
            randomTensor(cast<RankedTensorType>(type).getShape());
      else if (random.chance(kNegativeIndex))
        vertex.i32Inputs[entry.getName()] = -1;
      else
        vertex.i32Inputs[entry.getName()] =
            random.below(indexBound(function, entry.getName()));
    }
    if (pushGrads)
      for (NamedAttribute entry : function.getPushes())
        vertex.pushGrads[entry.getName()] = randomTensor(
            cast<RankedTensorType>(cast<TypeAttr>(entry.getValue()).getValue())
                .getShape());
  }

  // Fisher-Yates: position[v] is where vertex v ends up.
  int64_t n = graph.vertices.size();
  std::vector<int64_t> position(n);
  for (int64_t i = 0; i < n; ++i)
    position[i] = i;
  for (int64_t i = n - 1; i > 0; --i)
    std::swap(position[i], position[random.below(i + 1)]);
  EvalGraph shuffled;
  shuffled.vertices.resize(n);
  for (int64_t v = 0; v < n; ++v) {
    EvalVertex &moved = shuffled.vertices[position[v]];
    moved = std::move(graph.vertices[v]);
    for (int64_t &child : moved.children)
      if (child >= 0)
        child = position[child];
  }
  return shuffled;
}

FailureOr<EvalGraph> cavs::randomGraph(ModelOp model,
                                       const RandomGraphOptions &options) {
  GraphBuilder builder(model, options.seed);
  if (!builder.hasFunctions())
    return model.emitError("cannot build a graph for a model without vertex "
                           "functions");
  switch (options.shape) {
  case GraphShape::Chain:
    builder.chain(options.numVertices);
    break;
  case GraphShape::Tree:
    builder.tree(options.numVertices);
    break;
  case GraphShape::Dag:
    builder.dag(options.numVertices);
    break;
  }
  return builder.finish(options.pushGrads);
}

llvm::StringMap<EvalTensor> cavs::randomParams(ModelOp model, uint64_t seed) {
  Random random(seed);
  llvm::StringMap<EvalTensor> params;
  for (auto param : model.getBody().front().getOps<ParamOp>()) {
    EvalTensor value = EvalTensor::zeros(param.getTensorType().getShape());
    for (double &x : value.data)
      x = random.uniform(-0.5, 0.5);
    params[param.getSymName()] = std::move(value);
  }
  return params;
}
