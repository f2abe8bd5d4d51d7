//===- ReferenceEvaluator.cpp - an unbatched interpreter of cavs ----------===//
//
// Validates the input graph, sorts it topologically, then walks the ops of
// each vertex function recursively: every op computes its results from the
// operand values in a per-vertex frame. Frames outlive the forward pass
// because ∂F reads forward values of its vertex.
//
//===----------------------------------------------------------------------===//

#include "test/lib/Evaluator/ReferenceEvaluator.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <unordered_map>

using namespace mlir;
using namespace cavs;

namespace {

struct ValueHash {
  size_t operator()(Value value) const { return hash_value(value); }
};

/// The values of one vertex: those of F, which ∂F reads too, then those of
/// ∂F. An i32 value (a pulled id or label) is held as a rank-0 tensor, which
/// represents every i32 exactly.
struct Frame {
  int64_t vertex = -1;
  /// Node-based, so references returned by get() survive later insertions.
  std::unordered_map<Value, EvalTensor, ValueHash> values;
  /// Batched order: this vertex's arena row (see EvalOptions::batchedOrder)
  /// and its row of the state (values with a state slot).
  std::vector<double> arena, state;
};

ArrayRef<int64_t> shapeOf(Type type) {
  return cast<RankedTensorType>(type).getShape();
}

/// Adds `value` elementwise to `sum`; both have the same shape.
void accumulate(EvalTensor &sum, const EvalTensor &value) {
  for (size_t i = 0; i < sum.data.size(); ++i)
    sum.data[i] += value.data[i];
}

/// log(sum(exp(x))), shifted by max(x) so that exp cannot overflow.
double logSumExp(ArrayRef<double> x) {
  if (x.empty())
    return -std::numeric_limits<double>::infinity();
  double max = *std::max_element(x.begin(), x.end());
  double sum = 0;
  for (double v : x)
    sum += std::exp(v - max);
  return max + std::log(sum);
}

/// softmax(x), computed as exp(x - logsumexp(x)).
std::vector<double> softmax(ArrayRef<double> x) {
  double lse = logSumExp(x);
  std::vector<double> p;
  for (double v : x)
    p.push_back(std::exp(v - lse));
  return p;
}

class Evaluator {
public:
  Evaluator(ModelOp model, const EvalGraph &graph,
            const llvm::StringMap<EvalTensor> &params,
            const EvalOptions &options)
      : model(model), graph(graph), params(params), options(options) {}

  FailureOr<EvalResult> run();

private:
  // Validation of the inputs, before anything runs.
  LogicalResult checkParams();
  LogicalResult checkVertex(int64_t v, bool runBackward);
  LogicalResult checkTensor(int64_t v, const EvalTensor &tensor,
                            ArrayRef<int64_t> shape, const Twine &what);
  LogicalResult sortTopologically();
  /// An error about graph vertex `v`, located at the model.
  InFlightDiagnostic vertexError(int64_t v);

  // The interpreter.
  LogicalResult execBlock(Block &block, Frame &frame);
  LogicalResult exec(Operation &op, Frame &frame);
  template <typename OpT, typename Fn>
  LogicalResult unary(OpT op, Frame &frame, Fn fn);
  template <typename OpT, typename Fn>
  LogicalResult binary(OpT op, Frame &frame, Fn fn);
  /// Checks a lookup index or label against its bound (negative is fine).
  LogicalResult checkIndex(Operation *op, Frame &frame, int64_t index,
                           int64_t bound, StringRef what);

  const EvalTensor &get(Frame &frame, Value value);
  int64_t getIndex(Frame &frame, Value value);
  void set(Frame &frame, Value value, EvalTensor tensor);
  const EvalVertex &vertexOf(Frame &frame) {
    return graph.vertices[frame.vertex];
  }

  /// Runs the ops of `block` whose batching class is `kind` for every vertex
  /// in `vertices` (batched order).
  LogicalResult runPhase(ArrayRef<int64_t> vertices, bool backward,
                         BatchingKind kind, std::vector<Frame> &frames);
  /// The slot a batched-order run keeps `value` in, if any.
  SlotAttr slotOf(Value value);
  /// The row that holds `slot`'s columns for `frame`'s vertex.
  std::vector<double> &rowOf(Frame &frame, SlotAttr slot) {
    switch (slot.getSpace()) {
    case SlotSpace::arena:
      return frame.arena;
    case SlotSpace::scratch:
      return scratch;
    case SlotSpace::state:
      return frame.state;
    }
    llvm_unreachable("unknown slot space");
  }

  /// Builds the value of every cavs.param_pack from its members.
  void buildPacks();
  /// Adds each pack's gradient to its members' and drops the pack's.
  void unpackGradients();

  ModelOp model;
  const EvalGraph &graph;
  const llvm::StringMap<EvalTensor> &params;
  const EvalOptions &options;
  /// Batched order: the scratch row all vertices share.
  std::vector<double> scratch;
  /// Values of the parameter packs: their members stacked by rows.
  llvm::StringMap<EvalTensor> packs;
  /// The vertex function of each graph vertex.
  std::vector<VertexOp> functions;
  /// The graph vertices, children before parents.
  std::vector<int64_t> order;
  EvalResult result;
};

} // namespace

//===----------------------------------------------------------------------===//
// Validation
//===----------------------------------------------------------------------===//

InFlightDiagnostic Evaluator::vertexError(int64_t v) {
  InFlightDiagnostic diag = model.emitError() << "graph vertex " << v;
  if (static_cast<size_t>(v) < functions.size() && functions[v])
    diag << " (@" << functions[v].getSymName() << ")";
  return std::move(diag << ": ");
}

LogicalResult Evaluator::checkTensor(int64_t v, const EvalTensor &tensor,
                                     ArrayRef<int64_t> shape,
                                     const Twine &what) {
  auto error = [&]() { return v < 0 ? model.emitError() : vertexError(v); };
  if (ArrayRef<int64_t>(tensor.shape) != shape)
    return error() << what << " has shape " << formatShape(tensor.shape)
                   << ", expected " << formatShape(shape);
  if (static_cast<int64_t>(tensor.data.size()) !=
      EvalTensor::numElements(shape))
    return error() << what << " has " << tensor.data.size()
                   << " elements, but its shape " << formatShape(shape)
                   << " holds " << EvalTensor::numElements(shape);
  return success();
}

LogicalResult Evaluator::checkParams() {
  llvm::StringMap<ParamOp> declared;
  for (auto param : model.getBody().front().getOps<ParamOp>()) {
    declared[param.getSymName()] = param;
    auto it = params.find(param.getSymName());
    if (it == params.end())
      return model.emitError()
             << "no value given for parameter @" << param.getSymName()
             << " of type " << param.getType();
    if (failed(checkTensor(-1, it->second, param.getTensorType().getShape(),
                           "parameter @" + param.getSymName())))
      return failure();
  }
  for (const auto &entry : params)
    if (!declared.count(entry.getKey()))
      return model.emitError()
             << "value given for unknown parameter @" << entry.getKey();
  return success();
}

LogicalResult Evaluator::checkVertex(int64_t v, bool runBackward) {
  const EvalVertex &vertex = graph.vertices[v];
  VertexOp function = functions[v];
  if (!function)
    return vertexError(v) << "unknown vertex function @" << vertex.function;

  int64_t arity = function.getArity();
  int64_t numVertices = graph.vertices.size();
  if (static_cast<int64_t>(vertex.children.size()) != arity)
    return vertexError(v) << "has " << vertex.children.size()
                          << " child slots, but @" << function.getSymName()
                          << " has arity " << arity;
  for (auto [slot, child] : llvm::enumerate(vertex.children))
    if (child < -1 || child >= numVertices)
      return vertexError(v) << "child " << slot << " is vertex " << child
                            << ", out of range for a graph of " << numVertices
                            << " vertices (use -1 for an absent child)";

  // Inputs: exactly the declared pulls, each with its declared type.
  for (NamedAttribute entry : function.getPulls()) {
    StringRef name = entry.getName();
    Type type = cast<TypeAttr>(entry.getValue()).getValue();
    if (type.isInteger(32)) {
      if (!vertex.i32Inputs.count(name))
        return vertexError(v) << "missing i32 input '" << name << "'";
      continue;
    }
    auto it = vertex.f32Inputs.find(name);
    if (it == vertex.f32Inputs.end())
      return vertexError(v)
             << "missing input '" << name << "' of type " << type;
    if (failed(
            checkTensor(v, it->second, shapeOf(type), "input '" + name + "'")))
      return failure();
  }
  for (const auto &entry : vertex.f32Inputs) {
    Type type = function.getPullType(entry.getKey());
    if (!type || !isa<RankedTensorType>(type))
      return vertexError(v)
             << "input '" << entry.getKey() << "' is not an f32 pull of @"
             << function.getSymName();
  }
  for (const auto &entry : vertex.i32Inputs) {
    Type type = function.getPullType(entry.getKey());
    if (!type || !type.isInteger(32))
      return vertexError(v)
             << "input '" << entry.getKey() << "' is not an i32 pull of @"
             << function.getSymName();
  }
  for (const auto &entry : vertex.pushGrads) {
    Type type = function.getPushType(entry.getKey());
    if (!type)
      return vertexError(v) << "push gradient '" << entry.getKey()
                            << "' is not a push of @" << function.getSymName();
    if (failed(checkTensor(v, entry.getValue(), shapeOf(type),
                           "push gradient '" + entry.getKey() + "'")))
      return failure();
  }

  if (runBackward && !function.getBackward())
    return function.emitOpError("has no cavs.backward region, which the "
                                "backward pass runs (apply cavs-autodiff)");
  return success();
}

LogicalResult Evaluator::sortTopologically() {
  // Kahn's algorithm over child edges: a vertex is ready once all its
  // present children are done.
  int64_t numVertices = graph.vertices.size();
  std::vector<int64_t> pending(numVertices, 0);
  std::vector<std::vector<int64_t>> parents(numVertices);
  for (int64_t v = 0; v < numVertices; ++v)
    for (int64_t child : graph.vertices[v].children)
      if (child >= 0) {
        ++pending[v];
        parents[child].push_back(v);
      }
  std::deque<int64_t> ready;
  for (int64_t v = 0; v < numVertices; ++v)
    if (pending[v] == 0)
      ready.push_back(v);
  while (!ready.empty()) {
    int64_t v = ready.front();
    ready.pop_front();
    order.push_back(v);
    for (int64_t parent : parents[v])
      if (--pending[parent] == 0)
        ready.push_back(parent);
  }
  if (static_cast<int64_t>(order.size()) == numVertices)
    return success();

  // Every vertex left over waits on a child that is left over too, so
  // following such children from any of them must come back to a vertex
  // already seen: that one lies on a cycle.
  int64_t v = 0;
  while (pending[v] == 0)
    ++v;
  std::vector<bool> seen(numVertices, false);
  while (!seen[v]) {
    seen[v] = true;
    for (int64_t child : graph.vertices[v].children)
      if (child >= 0 && pending[child] > 0) {
        v = child;
        break;
      }
  }
  return model.emitError() << "the graph has a cycle through vertex " << v;
}

FailureOr<EvalResult> Evaluator::run() {
  bool runBackward = options.runBackward;
  llvm::StringMap<VertexOp> byName;
  for (auto function : model.getBody().front().getOps<VertexOp>())
    byName[function.getSymName()] = function;
  int64_t numVertices = graph.vertices.size();
  for (const EvalVertex &vertex : graph.vertices)
    functions.push_back(byName.lookup(vertex.function));
  if (failed(checkParams()))
    return failure();
  for (int64_t v = 0; v < numVertices; ++v)
    if (failed(checkVertex(v, runBackward)))
      return failure();
  if (failed(sortTopologically()))
    return failure();

  buildPacks();
  result.states.resize(numVertices);
  result.pushes.resize(numVertices);
  std::vector<Frame> frames(numVertices);
  for (int64_t v = 0; v < numVertices; ++v)
    frames[v].vertex = v;
  constexpr BatchingKind kPhases[] = {BatchingKind::eager, BatchingKind::body,
                                      BatchingKind::lazy};
  if (options.batchedOrder) {
    int64_t scratchWidth = 0;
    for (int64_t v = 0; v < numVertices; ++v) {
      auto width = [&](StringRef name) {
        auto attr = functions[v]->getAttrOfType<IntegerAttr>(name);
        return attr ? attr.getInt() : 0;
      };
      frames[v].arena.assign(width(CavsDialect::kArenaWidthAttrName), 0.0);
      if (RankedTensorType state = model.getStateType())
        frames[v].state.assign(state.getNumElements(), 0.0);
      scratchWidth =
          std::max(scratchWidth, width(CavsDialect::kScratchWidthAttrName));
    }
    scratch.assign(scratchWidth, 0.0);
    for (BatchingKind kind : kPhases)
      if (failed(runPhase(order, /*backward=*/false, kind, frames)))
        return failure();
  } else {
    for (int64_t v : order)
      if (failed(execBlock(functions[v].getBody().front(), frames[v])))
        return failure();
  }
  if (!options.runBackward)
    return std::move(result);

  for (auto param : model.getBody().front().getOps<ParamOp>())
    result.paramGrads[param.getSymName()] =
        EvalTensor::zeros(param.getTensorType().getShape());
  for (auto pack : model.getBody().front().getOps<ParamPackOp>())
    result.paramGrads[pack.getSymName()] =
        EvalTensor::zeros(pack.getTensorType().getShape());
  result.pullGrads.resize(numVertices);
  if (RankedTensorType state = model.getStateType())
    result.stateGrads.assign(numVertices, EvalTensor::zeros(state.getShape()));
  else
    result.stateGrads.resize(numVertices);
  // Reverse topological order: every parent has sent its child_grad before
  // the child's ∂F reads cavs.state_grad.
  std::vector<int64_t> reversed(order.rbegin(), order.rend());
  if (options.batchedOrder) {
    for (BatchingKind kind : kPhases)
      if (failed(runPhase(reversed, /*backward=*/true, kind, frames)))
        return failure();
  } else {
    for (int64_t v : reversed) {
      Block &backward = functions[v].getBackward().getBody().front();
      if (failed(execBlock(backward, frames[v])))
        return failure();
    }
  }
  unpackGradients();
  return std::move(result);
}

LogicalResult Evaluator::runPhase(ArrayRef<int64_t> vertices, bool backward,
                                  BatchingKind kind,
                                  std::vector<Frame> &frames) {
  for (int64_t v : vertices) {
    Block *block = backward ? &functions[v].getBackward().getBody().front()
                            : &functions[v].getBody().front();
    for (Operation &op : *block) {
      if (isa<BackwardOp>(op))
        continue;
      auto attr =
          op.getAttrOfType<BatchingKindAttr>(CavsDialect::kBatchingAttrName);
      if (!attr)
        return op.emitOpError("has no batching class, which the batched "
                              "order needs (run cavs-classify)");
      if (attr.getValue() == kind && failed(exec(op, frames[v])))
        return failure();
    }
  }
  return success();
}

SlotAttr Evaluator::slotOf(Value value) {
  return options.batchedOrder ? cavs::slotOf(value) : nullptr;
}

void Evaluator::buildPacks() {
  for (auto pack : model.getBody().front().getOps<ParamPackOp>()) {
    EvalTensor value{SmallVector<int64_t, 2>(pack.getTensorType().getShape()),
                     {}};
    for (auto member : pack.getMembers().getAsRange<FlatSymbolRefAttr>()) {
      const EvalTensor &part = params.find(member.getValue())->second;
      value.data.insert(value.data.end(), part.data.begin(), part.data.end());
    }
    packs[pack.getSymName()] = std::move(value);
  }
}

void Evaluator::unpackGradients() {
  for (auto pack : model.getBody().front().getOps<ParamPackOp>()) {
    auto packGrad = result.paramGrads.find(pack.getSymName());
    auto next = packGrad->second.data.begin();
    for (auto member : pack.getMembers().getAsRange<FlatSymbolRefAttr>())
      for (double &element : result.paramGrads[member.getValue()].data)
        element += *next++;
    result.paramGrads.erase(packGrad);
  }
}

//===----------------------------------------------------------------------===//
// The interpreter
//===----------------------------------------------------------------------===//

const EvalTensor &Evaluator::get(Frame &frame, Value value) {
  // Parameters are read in place rather than copied into every frame: an
  // embedding table can be large.
  if (auto ref = value.getDefiningOp<ParamRefOp>()) {
    auto it = params.find(ref.getParam());
    return it != params.end() ? it->second : packs.find(ref.getParam())->second;
  }
  // Batched order: read the value back from its columns every time, so an
  // unsound memory plan shows as a wrong result.
  if (SlotAttr slot = slotOf(value)) {
    const std::vector<double> &row = rowOf(frame, slot);
    EvalTensor &copy = frame.values[value];
    // An i32 (a pulled id or label) is held as a scalar.
    auto tensor = dyn_cast<RankedTensorType>(value.getType());
    ArrayRef<int64_t> shape = tensor ? tensor.getShape() : ArrayRef<int64_t>();
    copy.shape.assign(shape.begin(), shape.end());
    copy.data.assign(row.begin() + slot.getOffset(),
                     row.begin() + slot.getOffset() + slot.getSize());
    return copy;
  }
  // The verifier's dominance rules guarantee that the value was computed.
  return frame.values.find(value)->second;
}

int64_t Evaluator::getIndex(Frame &frame, Value value) {
  return static_cast<int64_t>(get(frame, value).data[0]);
}

void Evaluator::set(Frame &frame, Value value, EvalTensor tensor) {
  if (SlotAttr slot = slotOf(value)) {
    std::vector<double> &row = rowOf(frame, slot);
    std::copy(tensor.data.begin(), tensor.data.end(),
              row.begin() + slot.getOffset());
    return;
  }
  // Callers compute `tensor` completely first: inserting may move the
  // values that references from get() point to.
  frame.values[value] = std::move(tensor);
}

LogicalResult Evaluator::checkIndex(Operation *op, Frame &frame, int64_t index,
                                    int64_t bound, StringRef what) {
  if (index < bound)
    return success();
  return op->emitOpError() << what << " " << index << " is out of range [0, "
                           << bound << ") at graph vertex " << frame.vertex;
}

template <typename OpT, typename Fn>
LogicalResult Evaluator::unary(OpT op, Frame &frame, Fn fn) {
  EvalTensor out = get(frame, op.getOperand());
  for (double &x : out.data)
    x = fn(x);
  set(frame, op.getResult(), std::move(out));
  return success();
}

template <typename OpT, typename Fn>
LogicalResult Evaluator::binary(OpT op, Frame &frame, Fn fn) {
  const EvalTensor &lhs = get(frame, op.getLhs());
  const EvalTensor &rhs = get(frame, op.getRhs());
  EvalTensor out = EvalTensor::zeros(op.getType().getShape());
  // A rank-0 operand is broadcast: it always contributes its one element.
  for (size_t i = 0; i < out.data.size(); ++i)
    out.data[i] = fn(lhs.data[lhs.shape.empty() ? 0 : i],
                     rhs.data[rhs.shape.empty() ? 0 : i]);
  set(frame, op.getResult(), std::move(out));
  return success();
}

LogicalResult Evaluator::execBlock(Block &block, Frame &frame) {
  for (Operation &op : block)
    if (failed(exec(op, frame)))
      return failure();
  return success();
}

LogicalResult Evaluator::exec(Operation &op, Frame &frame) {
  int64_t v = frame.vertex;
  return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
      //===------------------------------------------------------------===//
      // Structure, primitives and loss
      //===------------------------------------------------------------===//
      // ∂F is not part of F: run() executes its body in the backward pass.
      .Case([&](BackwardOp) { return success(); })
      // get() reads parameters directly from the definition of the value.
      .Case([&](ParamRefOp) { return success(); })
      .Case([&](PullOp pull) {
        const EvalVertex &vertex = vertexOf(frame);
        if (pull.getType().isInteger(32))
          set(frame, pull.getResult(),
              EvalTensor::scalar(vertex.i32Inputs.lookup(pull.getName())));
        else
          set(frame, pull.getResult(),
              vertex.f32Inputs.find(pull.getName())->second);
        return success();
      })
      .Case([&](PushOp push) {
        result.pushes[v][push.getName()] = get(frame, push.getValue());
        return success();
      })
      .Case([&](GatherOp gather) {
        int64_t child = vertexOf(frame).children[gather.getIndex()];
        set(frame, gather.getResult(),
            child < 0 ? EvalTensor::zeros(gather.getType().getShape())
                      : result.states[child]);
        return success();
      })
      .Case([&](ScatterOp scatter) {
        result.states[v] = get(frame, scatter.getValue());
        return success();
      })
      .Case([&](LossOp loss) {
        result.loss += get(frame, loss.getValue()).data[0];
        return success();
      })
      //===------------------------------------------------------------===//
      // Math
      //===------------------------------------------------------------===//
      .Case([&](ConstantOp constant) {
        auto value = cast<DenseElementsAttr>(constant.getValue());
        EvalTensor out = EvalTensor::zeros(constant.getType().getShape());
        // A splat yields its one value for every element.
        for (auto [i, element] : llvm::enumerate(value.getValues<float>()))
          out.data[i] = element;
        set(frame, constant.getResult(), std::move(out));
        return success();
      })
      .Case([&](AddOp op) {
        return binary(op, frame, [](double a, double b) { return a + b; });
      })
      .Case([&](SubOp op) {
        return binary(op, frame, [](double a, double b) { return a - b; });
      })
      .Case([&](MulOp op) {
        return binary(op, frame, [](double a, double b) { return a * b; });
      })
      .Case([&](DivOp op) {
        return binary(op, frame, [](double a, double b) { return a / b; });
      })
      .Case([&](NegOp op) {
        return unary(op, frame, [](double x) { return -x; });
      })
      .Case([&](SigmoidOp op) {
        return unary(op, frame,
                     [](double x) { return 1.0 / (1.0 + std::exp(-x)); });
      })
      .Case([&](TanhOp op) {
        return unary(op, frame, [](double x) { return std::tanh(x); });
      })
      .Case([&](ReluOp op) {
        return unary(op, frame, [](double x) { return x > 0 ? x : 0.0; });
      })
      .Case([&](ExpOp op) {
        return unary(op, frame, [](double x) { return std::exp(x); });
      })
      .Case([&](LogOp op) {
        return unary(op, frame, [](double x) { return std::log(x); });
      })
      .Case([&](SqrtOp op) {
        return unary(op, frame, [](double x) { return std::sqrt(x); });
      })
      .Case([&](SoftplusOp op) {
        return unary(op, frame, [](double x) {
          return std::max(x, 0.0) + std::log1p(std::exp(-std::abs(x)));
        });
      })
      .Case([&](SoftmaxOp op) {
        const EvalTensor &x = get(frame, op.getOperand());
        set(frame, op.getResult(), EvalTensor{x.shape, softmax(x.data)});
        return success();
      })
      .Case([&](MatmulOp op) {
        const EvalTensor &w = get(frame, op.getLhs());
        const EvalTensor &x = get(frame, op.getRhs());
        int64_t rows = w.shape[0], cols = w.shape[1];
        EvalTensor y = EvalTensor::zeros(op.getType().getShape());
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t c = 0; c < cols; ++c) {
            if (op.getTransposeLhs())
              y.data[c] += w.data[r * cols + c] * x.data[r];
            else
              y.data[r] += w.data[r * cols + c] * x.data[c];
          }
        set(frame, op.getResult(), std::move(y));
        return success();
      })
      .Case([&](ConcatOp op) {
        EvalTensor out{{op.getType().getDimSize(0)}, {}};
        for (Value input : op.getInputs()) {
          const EvalTensor &part = get(frame, input);
          out.data.insert(out.data.end(), part.data.begin(), part.data.end());
        }
        set(frame, op.getResult(), std::move(out));
        return success();
      })
      .Case([&](SplitOp op) {
        // All parts are copied out before the first is stored (see set()).
        // Parts may differ in size (cavs-merge-matmuls splits packs).
        const EvalTensor &input = get(frame, op.getInput());
        std::vector<EvalTensor> parts;
        int64_t offset = 0;
        for (Value result : op.getResults()) {
          int64_t size = shapeOf(result.getType())[0];
          parts.push_back(EvalTensor{
              {size},
              std::vector<double>(input.data.begin() + offset,
                                  input.data.begin() + offset + size)});
          offset += size;
        }
        for (auto [value, part] : llvm::zip(op.getResults(), parts))
          set(frame, value, std::move(part));
        return success();
      })
      .Case([&](SliceOp op) {
        const EvalTensor &input = get(frame, op.getInput());
        int64_t offset = op.getOffset(), size = op.getType().getNumElements();
        set(frame, op.getResult(),
            EvalTensor{
                SmallVector<int64_t, 2>(op.getType().getShape()),
                std::vector<double>(input.data.begin() + offset,
                                    input.data.begin() + offset + size)});
        return success();
      })
      .Case([&](SumOp op) {
        EvalTensor out = EvalTensor::zeros(op.getType().getShape());
        for (Value input : op.getInputs())
          accumulate(out, get(frame, input));
        set(frame, op.getResult(), std::move(out));
        return success();
      })
      .Case([&](LookupOp op) {
        const EvalTensor &table = get(frame, op.getTable());
        int64_t index = getIndex(frame, op.getIndex());
        if (failed(checkIndex(op, frame, index, table.shape[0], "index")))
          return failure();
        int64_t width = table.shape[1];
        EvalTensor row = EvalTensor::zeros({width});
        if (index >= 0)
          std::copy_n(table.data.begin() + index * width, width,
                      row.data.begin());
        set(frame, op.getResult(), std::move(row));
        return success();
      })
      .Case([&](SoftmaxCrossEntropyOp op) {
        const EvalTensor &logits = get(frame, op.getLogits());
        int64_t label = getIndex(frame, op.getLabel());
        if (failed(checkIndex(op, frame, label, logits.shape[0], "label")))
          return failure();
        // -log(softmax(x)[label]) = logsumexp(x) - x[label].
        double loss =
            label < 0 ? 0.0 : logSumExp(logits.data) - logits.data[label];
        set(frame, op.getResult(), EvalTensor::scalar(loss));
        return success();
      })
      //===------------------------------------------------------------===//
      // ∂F
      //===------------------------------------------------------------===//
      .Case([&](StateGradOp op) {
        set(frame, op.getResult(), result.stateGrads[v]);
        return success();
      })
      .Case([&](ChildGradOp op) {
        int64_t child = vertexOf(frame).children[op.getIndex()];
        if (child >= 0)
          accumulate(result.stateGrads[child], get(frame, op.getValue()));
        return success();
      })
      .Case([&](PushGradOp op) {
        const auto &given = vertexOf(frame).pushGrads;
        auto it = given.find(op.getName());
        set(frame, op.getResult(),
            it == given.end() ? EvalTensor::zeros(op.getType().getShape())
                              : it->second);
        return success();
      })
      .Case([&](PullGradOp op) {
        const EvalTensor &grad = get(frame, op.getValue());
        auto [it, inserted] = result.pullGrads[v].try_emplace(
            op.getName(), EvalTensor::zeros(grad.shape));
        accumulate(it->second, grad);
        return success();
      })
      .Case([&](ParamGradOp op) {
        accumulate(result.paramGrads[op.getParam()], get(frame, op.getValue()));
        return success();
      })
      .Case([&](ParamGradOuterOp op) {
        const EvalTensor &dy = get(frame, op.getDy());
        const EvalTensor &x = get(frame, op.getX());
        EvalTensor &grad = result.paramGrads[op.getParam()];
        int64_t cols = x.data.size();
        for (size_t r = 0; r < dy.data.size(); ++r)
          for (int64_t c = 0; c < cols; ++c)
            grad.data[r * cols + c] += dy.data[r] * x.data[c];
        return success();
      })
      .Case([&](LookupGradOp op) {
        EvalTensor &grad = result.paramGrads[op.getParam()];
        int64_t index = getIndex(frame, op.getIndex());
        if (failed(checkIndex(op, frame, index, grad.shape[0], "index")))
          return failure();
        if (index < 0)
          return success();
        const EvalTensor &value = get(frame, op.getValue());
        int64_t width = grad.shape[1];
        for (int64_t c = 0; c < width; ++c)
          grad.data[index * width + c] += value.data[c];
        return success();
      })
      .Case([&](ReluGradOp op) {
        const EvalTensor &y = get(frame, op.getOutput());
        EvalTensor out = get(frame, op.getGrad());
        for (size_t i = 0; i < out.data.size(); ++i)
          if (!(y.data[i] > 0))
            out.data[i] = 0;
        set(frame, op.getResult(), std::move(out));
        return success();
      })
      .Case([&](EqualOp op) {
        return binary(op, frame,
                      [](double a, double b) { return a == b ? 1.0 : 0.0; });
      })
      .Case([&](ReduceSumOp op) {
        const EvalTensor &x = get(frame, op.getOperand());
        double sum = 0;
        for (double e : x.data)
          sum += e;
        set(frame, op.getResult(), EvalTensor::scalar(sum));
        return success();
      })
      .Case([&](ReduceMaxOp op) {
        // A NaN element makes the maximum NaN, as in the kernels.
        const EvalTensor &x = get(frame, op.getOperand());
        double max = -std::numeric_limits<double>::infinity();
        for (double e : x.data) {
          if (std::isnan(e)) {
            max = e;
            break;
          }
          max = std::max(max, e);
        }
        set(frame, op.getResult(), EvalTensor::scalar(max));
        return success();
      })
      .Case([&](PadOp op) {
        const EvalTensor &input = get(frame, op.getInput());
        EvalTensor out = EvalTensor::zeros(op.getType().getShape());
        std::copy(input.data.begin(), input.data.end(),
                  out.data.begin() + op.getOffset());
        set(frame, op.getResult(), std::move(out));
        return success();
      })
      .Case([&](SoftmaxCrossEntropyGradOp op) {
        const EvalTensor &logits = get(frame, op.getLogits());
        int64_t label = getIndex(frame, op.getLabel());
        double grad = get(frame, op.getGrad()).data[0];
        if (failed(checkIndex(op, frame, label, logits.shape[0], "label")))
          return failure();
        EvalTensor out = EvalTensor::zeros(logits.shape);
        if (label >= 0) {
          out.data = softmax(logits.data);
          out.data[label] -= 1;
          for (double &x : out.data)
            x *= grad;
        }
        set(frame, op.getResult(), std::move(out));
        return success();
      })
      //===------------------------------------------------------------===//
      // Fused kernels: the region's ops, on the kernel's inputs
      //===------------------------------------------------------------===//
      .Case([&](FusedOp fused) -> LogicalResult {
        Block &body = fused.getBody().front();
        for (auto [argument, input] :
             llvm::zip_equal(body.getArguments(), fused.getInputs())) {
          EvalTensor copy = get(frame, input);
          set(frame, argument, std::move(copy));
        }
        if (failed(execBlock(body, frame)))
          return failure();
        for (auto [result, yielded] : llvm::zip_equal(
                 fused.getResults(), body.getTerminator()->getOperands())) {
          EvalTensor copy = get(frame, yielded);
          set(frame, result, std::move(copy));
        }
        return success();
      })
      .Case([&](YieldOp) { return success(); })
      .Default([&](Operation *other) {
        return other->emitOpError("is not supported by the reference "
                                  "evaluator");
      });
}

FailureOr<EvalResult> cavs::evaluate(ModelOp model, const EvalGraph &graph,
                                     const llvm::StringMap<EvalTensor> &params,
                                     const EvalOptions &options) {
  return Evaluator(model, graph, params, options).run();
}
