//===- CavsOps.cpp - verifiers and custom syntax of cavs ops --------------===//
//
// Verifiers state what was expected and what was found; structural rules
// that span several ops (a pull name declared once, one scatter per vertex)
// live on the enclosing vertex or model op.
//
//===----------------------------------------------------------------------===//

#include "dialects/CavsOps.h"

#include "cavs/graph.h"
#include "cavs/model.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace cavs;

bool cavs::isFusible(Operation *op) {
  return op->hasTrait<OpTrait::ElementwiseMath>() ||
         op->hasTrait<OpTrait::Reduction>();
}

std::string cavs::formatShape(ArrayRef<int64_t> shape) {
  std::string text = "[";
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(shape, os);
  os << "]";
  return text;
}

int64_t cavs::valueWidth(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor ? tensor.getNumElements() : 1;
}

SlotAttr cavs::slotOf(Value value) {
  auto result = dyn_cast<OpResult>(value);
  if (!result)
    return nullptr;
  // The verifier checks one slot per result.
  auto slots =
      result.getOwner()->getAttrOfType<ArrayAttr>(CavsDialect::kSlotsAttrName);
  return slots ? cast<SlotAttr>(slots[result.getResultNumber()]) : nullptr;
}

bool cavs::isBatchedOp(Operation *op) {
  return !isa<ParamRefOp, ConstantOp, BackwardOp, PhaseOp>(op);
}

LogicalResult cavs::requireNotOutlined(VertexOp vertex) {
  SmallVector<Block *, 2> blocks = {&vertex.getBody().front()};
  if (BackwardOp backward = vertex.getBackward())
    blocks.push_back(&backward.getBody().front());
  for (Block *block : blocks)
    for (auto phase : block->getOps<PhaseOp>())
      return phase.emitOpError("outlines its vertex function already; "
                               "cavs-outline-phases runs after "
                               "cavs-plan-memory");
  return success();
}

/// The shape of a tensor type as the language prints it.
static std::string shapeString(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor ? formatShape(tensor.getShape()) : "scalar";
}

static int64_t vectorSize(Value value) {
  return cast<RankedTensorType>(value.getType()).getDimSize(0);
}

//===----------------------------------------------------------------------===//
// Custom syntax: `%a, %b : T` when both operands and the result agree,
// `%a, %b : A, B -> R` when one side is a broadcast scalar.
//===----------------------------------------------------------------------===//

static ParseResult parseBroadcastTypes(OpAsmParser &parser, Type &lhs,
                                       Type &rhs, Type &result) {
  if (parser.parseType(lhs))
    return failure();
  if (failed(parser.parseOptionalComma())) {
    rhs = result = lhs;
    return success();
  }
  return failure(parser.parseType(rhs) || parser.parseArrow() ||
                 parser.parseType(result));
}

static void printBroadcastTypes(OpAsmPrinter &printer, Operation *, Type lhs,
                                Type rhs, Type result) {
  if (lhs == rhs && rhs == result) {
    printer << lhs;
    return;
  }
  printer << lhs << ", " << rhs << " -> " << result;
}

//===----------------------------------------------------------------------===//
// Custom syntax: the initializer as `xavier` or `uniform(lo, hi)`.
//===----------------------------------------------------------------------===//

// The model descriptor stores an InitializerKind as the C ABI's
// cavs_init_kind: both come from the same list.
#define CAVS_INIT_KIND(keyword, NAME, value, args)                             \
  static_assert(static_cast<int>(InitializerKind::keyword) == value,           \
                "InitializerKind::" #keyword " is not as in init_kinds.def");
#include "cavs/init_kinds.def"

static ParseResult parseInitializer(OpAsmParser &parser,
                                    InitializerKindAttr &kind,
                                    DenseF64ArrayAttr &args) {
  StringRef keyword;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<InitializerKind> parsed = symbolizeInitializerKind(keyword);
  if (!parsed)
    return parser.emitError(loc, "unknown initializer '") << keyword << "'";
  kind = InitializerKindAttr::get(parser.getContext(), *parsed);
  SmallVector<double> values;
  if (succeeded(parser.parseOptionalLParen()) &&
      (parser.parseCommaSeparatedList(
           [&] { return parser.parseFloat(values.emplace_back()); }) ||
       parser.parseRParen()))
    return failure();
  args = DenseF64ArrayAttr::get(parser.getContext(), values);
  return success();
}

static void printInitializer(OpAsmPrinter &printer, Operation *,
                             InitializerKindAttr kind, DenseF64ArrayAttr args) {
  printer << stringifyInitializerKind(kind.getValue());
  if (args.empty())
    return;
  printer << "(";
  llvm::interleaveComma(args.asArrayRef(), printer);
  printer << ")";
}

#define GET_OP_CLASSES
#include "dialects/CavsOps.cpp.inc"

//===----------------------------------------------------------------------===//
// ModelOp
//===----------------------------------------------------------------------===//

LogicalResult ModelOp::verify() {
  std::optional<Type> state = getState();
  if (state && !isa<RankedTensorType>(*state))
    return emitOpError("expects the state to be a tensor type, got ") << *state;
  if (state) {
    auto tensor = cast<RankedTensorType>(*state);
    if (!tensor.hasStaticShape() || tensor.getRank() != 1 ||
        !tensor.getElementType().isF32())
      return emitOpError("expects the state to be a static f32 vector, got ")
             << tensor;
    if (tensor.getNumElements() < 1)
      return emitOpError("expects a state of at least one element, got ")
             << tensor;
  }
  return success();
}

LogicalResult ModelOp::verifyRegions() {
  // A pull or push name is one column of the model's external interface, so
  // every vertex function that uses it must agree on its type.
  struct FirstUse {
    VertexOp vertex;
    Type type;
  };
  llvm::StringMap<FirstUse> pulls, pushes;
  auto check = [&](VertexOp vertex, DictionaryAttr declared,
                   llvm::StringMap<FirstUse> &seen,
                   StringRef what) -> LogicalResult {
    for (NamedAttribute entry : declared) {
      Type type = cast<TypeAttr>(entry.getValue()).getValue();
      auto [it, inserted] =
          seen.try_emplace(entry.getName(), FirstUse{vertex, type});
      if (inserted || it->second.type == type)
        continue;
      InFlightDiagnostic diag = vertex.emitOpError()
                                << what << " '" << entry.getName().getValue()
                                << "' has type " << type << " but vertex @"
                                << it->second.vertex.getSymName()
                                << " declares it as " << it->second.type;
      diag.attachNote(it->second.vertex.getLoc()) << "first declared here";
      return diag;
    }
    return success();
  };
  llvm::StringMap<ParamPackOp> packOf;
  bool hasVertex = false;
  for (Operation &op : getBody().front()) {
    if (!isa<ParamOp, ParamPackOp, VertexOp>(op))
      return op.emitOpError("is not allowed directly in a cavs.model; expected "
                            "cavs.param, cavs.param_pack or cavs.vertex");
    if (auto pack = dyn_cast<ParamPackOp>(op))
      for (auto member : pack.getMembers().getAsRange<FlatSymbolRefAttr>()) {
        auto [it, inserted] = packOf.try_emplace(member.getValue(), pack);
        if (inserted)
          continue;
        InFlightDiagnostic diag = pack.emitOpError("member ")
                                  << member << " is already packed in @"
                                  << it->second.getSymName();
        diag.attachNote(it->second.getLoc()) << "first pack here";
        return diag;
      }
    auto vertex = dyn_cast<VertexOp>(op);
    hasVertex |= bool(vertex);
    if (vertex && (failed(check(vertex, vertex.getPulls(), pulls, "pull")) ||
                   failed(check(vertex, vertex.getPushes(), pushes, "push"))))
      return failure();
  }
  // As the frontend requires: a model evaluates its vertex functions.
  if (!hasVertex)
    return emitOpError("has no cavs.vertex function");
  return success();
}

//===----------------------------------------------------------------------===//
// ParamOp
//===----------------------------------------------------------------------===//

LogicalResult ParamOp::verify() {
  RankedTensorType type = getTensorType();
  if (type.getRank() == 0)
    return emitOpError("expects a vector or matrix parameter, got a scalar");
  // What the runtime can create (cavs/model.h), as the frontend checks.
  for (int64_t extent : type.getShape())
    if (extent < 1 || extent > CAVS_MAX_DIMENSION)
      return emitOpError("expects extents in [1, ")
             << CAVS_MAX_DIMENSION << "], got " << type;
  if (type.getNumElements() > CAVS_MAX_PARAM_ELEMENTS)
    return emitOpError("expects at most ")
           << CAVS_MAX_PARAM_ELEMENTS << " elements, got " << type;
  ArrayRef<double> args = getInitArgs();
  for (double arg : args)
    if (!(std::fabs(arg) <= std::numeric_limits<float>::max()))
      return emitOpError("expects finite f32 initializer arguments, got ")
             << arg;
  size_t expected = 0;
  switch (getInit()) {
#define CAVS_INIT_KIND(keyword, NAME, value, args)                             \
  case InitializerKind::keyword:                                               \
    expected = args;                                                           \
    break;
#include "cavs/init_kinds.def"
  }
  if (args.size() != expected)
    return emitOpError("initializer '")
           << stringifyInitializerKind(getInit()) << "' expects " << expected
           << " arguments, got " << args.size();
  if (getInit() == InitializerKind::uniform && !(args[0] < args[1]))
    return emitOpError("uniform initializer expects lo < hi, got [")
           << args[0] << ", " << args[1] << "]";
  if (getInit() == InitializerKind::normal && !(args[1] > 0))
    return emitOpError("normal initializer expects a positive standard "
                       "deviation, got ")
           << args[1];
  if (getInit() == InitializerKind::normal &&
      !(std::fabs(args[0]) + CAVS_NORMAL_INIT_DEVIATIONS * args[1] <=
        std::numeric_limits<float>::max()))
    return emitOpError("normal initializer draws past f32: |mean| + 9 * "
                       "deviation exceeds 3.4e38, got mean ")
           << args[0] << " and deviation " << args[1];
  return success();
}

//===----------------------------------------------------------------------===//
// VertexOp
//===----------------------------------------------------------------------===//

Type VertexOp::getPullType(StringRef name) {
  auto type = getPulls().getAs<TypeAttr>(name);
  return type ? type.getValue() : Type();
}

BackwardOp VertexOp::getBackward() {
  Block &body = getBody().front();
  return body.empty() ? nullptr : dyn_cast<BackwardOp>(body.back());
}

Type VertexOp::getPushType(StringRef name) {
  auto type = getPushes().getAs<TypeAttr>(name);
  return type ? type.getValue() : Type();
}

/// Checks that every entry of a pulls/pushes dictionary is a type that the
/// primitive may carry.
static LogicalResult verifyInterface(VertexOp vertex, DictionaryAttr entries,
                                     StringRef what, bool allowI32) {
  for (NamedAttribute entry : entries) {
    auto typeAttr = dyn_cast<TypeAttr>(entry.getValue());
    Type type = typeAttr ? typeAttr.getValue() : Type();
    auto tensor = dyn_cast_or_null<RankedTensorType>(type);
    bool ok = (tensor && tensor.hasStaticShape() && tensor.getRank() <= 2 &&
               tensor.getElementType().isF32()) ||
              (allowI32 && type && type.isInteger(32));
    if (!ok)
      return vertex.emitOpError()
             << what << " '" << entry.getName().getValue() << "' expects "
             << (allowI32 ? "an f32 tensor or i32" : "an f32 tensor")
             << " type, got " << entry.getValue();
    // (Larger-than-runtime sizes are the memory plan's to report, with
    // the limit per vertex.)
    if (tensor && tensor.getNumElements() < 1)
      return vertex.emitOpError()
             << what << " '" << entry.getName().getValue()
             << "' expects at least one element, got " << tensor;
  }
  return success();
}

LogicalResult VertexOp::verify() {
  if (getArity() < 0 || getArity() > CAVS_MAX_ARITY)
    return emitOpError("expects an arity in [0, ")
           << CAVS_MAX_ARITY << "], got " << getArity();
  if (failed(verifyInterface(*this, getPulls(), "pull", /*allowI32=*/true)) ||
      failed(verifyInterface(*this, getPushes(), "push", /*allowI32=*/false)))
    return failure();
  return success();
}

/// The ops of F: those of the vertex body, inside its phases once
/// cavs-outline-phases has run.
static SmallVector<Operation *> forwardOps(VertexOp vertex) {
  SmallVector<Operation *> ops;
  for (Operation &op : vertex.getBody().front()) {
    if (auto phase = dyn_cast<PhaseOp>(op))
      for (Operation &inner : phase.getBody().front())
        ops.push_back(&inner);
    else
      ops.push_back(&op);
  }
  return ops;
}

LogicalResult VertexOp::verifyRegions() {
  // Each declared input is read at most once, each declared output written
  // once and the state scattered once: the runtime sizes its buffers from
  // that. A pull is pure, so CSE and the canonicalizer erase an unused one;
  // its input stays declared (and is still passed in by the runtime).
  llvm::StringMap<Operation *> pulled, pushed;
  Operation *scatter = nullptr;
  for (Operation *forwardOp : forwardOps(*this)) {
    Operation &op = *forwardOp;
    auto once = [&](llvm::StringMap<Operation *> &seen, StringRef name,
                    StringRef what) -> LogicalResult {
      auto [it, inserted] = seen.try_emplace(name, &op);
      if (inserted)
        return success();
      InFlightDiagnostic diag = op.emitOpError()
                                << what << " '" << name << "' more than once";
      diag.attachNote(it->second->getLoc()) << "first " << what << " here";
      return diag;
    };
    if (auto pull = dyn_cast<PullOp>(op)) {
      if (failed(once(pulled, pull.getName(), "pulls")))
        return failure();
    } else if (auto push = dyn_cast<PushOp>(op)) {
      if (failed(once(pushed, push.getName(), "pushes")))
        return failure();
    } else if (isa<ScatterOp>(op)) {
      if (scatter) {
        InFlightDiagnostic diag = op.emitOpError("scatters more than once");
        diag.attachNote(scatter->getLoc()) << "first scatter here";
        return diag;
      }
      scatter = &op;
    }
  }
  for (NamedAttribute entry : getPushes())
    if (!pushed.count(entry.getName()))
      return emitOpError("declares push '")
             << entry.getName().getValue() << "' but never pushes it";
  if (getModel().getState() && !scatter)
    return emitOpError("never scatters the model state ")
           << getModel().getStateType();
  return success();
}

//===----------------------------------------------------------------------===//
// ParamRefOp
//===----------------------------------------------------------------------===//

/// The type of the parameter or parameter pack an op refers to.
static FailureOr<RankedTensorType>
lookupParamType(Operation *op, FlatSymbolRefAttr name,
                SymbolTableCollection &symbols) {
  auto model = op->getParentOfType<ModelOp>();
  Operation *symbol = model ? symbols.lookupSymbolIn(model, name) : nullptr;
  if (auto param = dyn_cast_or_null<ParamOp>(symbol))
    return param.getTensorType();
  if (auto pack = dyn_cast_or_null<ParamPackOp>(symbol))
    return pack.getTensorType();
  return op->emitOpError("refers to unknown parameter ") << name;
}

LogicalResult ParamRefOp::verifySymbolUses(SymbolTableCollection &symbols) {
  FailureOr<RankedTensorType> type =
      lookupParamType(*this, getParamAttr(), symbols);
  if (failed(type))
    return failure();
  if (*type != getType())
    return emitOpError("expects the type of parameter ")
           << getParamAttr() << ", " << *type << ", got " << getType();
  return success();
}

//===----------------------------------------------------------------------===//
// ParamPackOp
//===----------------------------------------------------------------------===//

LogicalResult ParamPackOp::verifySymbolUses(SymbolTableCollection &symbols) {
  RankedTensorType type = getTensorType();
  if (getMembers().empty())
    return emitOpError("expects at least one member");
  int64_t leading = 0;
  for (auto member : getMembers().getAsRange<FlatSymbolRefAttr>()) {
    auto param =
        symbols.lookupSymbolIn<ParamOp>((*this)->getParentOp(), member);
    if (!param)
      return emitOpError("member ") << member << " is not a cavs.param";
    RankedTensorType memberType = param.getTensorType();
    if (memberType.getRank() != type.getRank() ||
        memberType.getShape().drop_front() != type.getShape().drop_front())
      return emitOpError("member ") << member << " of type " << memberType
                                    << " does not stack into " << type;
    leading += memberType.getDimSize(0);
  }
  if (leading != type.getDimSize(0))
    return emitOpError("expects its members to add up to ")
           << type.getDimSize(0) << " rows, got " << leading;
  return success();
}

//===----------------------------------------------------------------------===//
// Primitives
//===----------------------------------------------------------------------===//

/// The vertex function a primitive sits in. Forward primitives (pull, push,
/// gather, scatter, loss) belong to F, their adjoints to the cavs.backward
/// region (∂F).
static FailureOr<VertexOp> enclosingVertex(Operation *op, bool backward) {
  auto vertex = op->getParentOfType<VertexOp>();
  if (!vertex)
    return op->emitOpError("must be inside a cavs.vertex");
  bool inBackward = op->getParentOfType<BackwardOp>() != nullptr;
  if (inBackward && !backward)
    return op->emitOpError("must not be inside cavs.backward");
  if (!inBackward && backward)
    return op->emitOpError("must be inside cavs.backward");
  return vertex;
}

/// Checks a pull/push name against the declaration in the vertex signature.
static LogicalResult verifyDeclared(Operation *op, StringRef what,
                                    StringRef name, Type declared,
                                    Type actual) {
  if (!declared)
    return op->emitOpError() << what << " '" << name
                             << "' is not declared by the vertex function";
  if (declared != actual)
    return op->emitOpError()
           << "expects " << what << " '" << name
           << "' to have the declared type " << declared << ", got " << actual;
  return success();
}

LogicalResult PullOp::verify() {
  FailureOr<VertexOp> vertex = enclosingVertex(*this, /*backward=*/false);
  if (failed(vertex))
    return failure();
  return verifyDeclared(*this, "pull", getName(),
                        vertex->getPullType(getName()), getType());
}

LogicalResult PushOp::verify() {
  FailureOr<VertexOp> vertex = enclosingVertex(*this, /*backward=*/false);
  if (failed(vertex))
    return failure();
  return verifyDeclared(*this, "push", getName(),
                        vertex->getPushType(getName()), getValue().getType());
}

/// Checks that a gathered or scattered value has the model's state type.
static LogicalResult verifyStateType(Operation *op, VertexOp vertex,
                                     Type actual) {
  RankedTensorType state = vertex.getModel().getStateType();
  if (!state)
    return op->emitOpError("needs a model state, but cavs.model @")
           << vertex.getModel().getSymName() << " declares none";
  if (state != actual)
    return op->emitOpError("expects the model state type ")
           << state << ", got " << actual;
  return success();
}

LogicalResult GatherOp::verify() {
  FailureOr<VertexOp> vertex = enclosingVertex(*this, /*backward=*/false);
  if (failed(vertex))
    return failure();
  if (getIndex() >= vertex->getArity())
    return emitOpError("child index ")
           << getIndex() << " is out of range for arity " << vertex->getArity();
  return verifyStateType(*this, *vertex, getType());
}

LogicalResult ScatterOp::verify() {
  FailureOr<VertexOp> vertex = enclosingVertex(*this, /*backward=*/false);
  if (failed(vertex))
    return failure();
  return verifyStateType(*this, *vertex, getValue().getType());
}

LogicalResult LossOp::verify() {
  // In ∂F the loss went unnoticed: the forward programs lost it.
  return enclosingVertex(*this, /*backward=*/false);
}

//===----------------------------------------------------------------------===//
// Math
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::verify() {
  if (!isa<DenseElementsAttr>(getValue()))
    return emitOpError("expects a dense elements value, got ") << getValue();
  return success();
}

/// Elementwise binary ops: equal shapes, or one side a scalar broadcast to
/// the other; the result has the larger shape.
static LogicalResult verifyBroadcast(Operation *op, Type lhs, Type rhs,
                                     Type result) {
  Type expected = lhs;
  if (lhs != rhs) {
    auto lhsRank = cast<RankedTensorType>(lhs).getRank();
    auto rhsRank = cast<RankedTensorType>(rhs).getRank();
    if (lhsRank != 0 && rhsRank != 0)
      return op->emitOpError("expects operands of the same shape or a scalar "
                             "operand, got ")
             << shapeString(lhs) << " and " << shapeString(rhs);
    expected = lhsRank == 0 ? rhs : lhs;
  }
  if (result != expected)
    return op->emitOpError("expects result type ")
           << expected << ", got " << result;
  return success();
}

#define CAVS_VERIFY_BINARY(Op)                                                 \
  LogicalResult Op::verify() {                                                 \
    return verifyBroadcast(*this, getLhs().getType(), getRhs().getType(),      \
                           getType());                                         \
  }
CAVS_VERIFY_BINARY(AddOp)
CAVS_VERIFY_BINARY(SubOp)
CAVS_VERIFY_BINARY(MulOp)
CAVS_VERIFY_BINARY(DivOp)
CAVS_VERIFY_BINARY(EqualOp)
#undef CAVS_VERIFY_BINARY

LogicalResult MatmulOp::verify() {
  ArrayRef<int64_t> matrix = getLhs().getType().getShape();
  int64_t rows = getTransposeLhs() ? matrix[1] : matrix[0];
  int64_t cols = getTransposeLhs() ? matrix[0] : matrix[1];
  int64_t k = vectorSize(getRhs());
  if (k != cols)
    return emitOpError("expects [")
           << cols << "] on the right of a " << shapeString(getLhs().getType())
           << (getTransposeLhs() ? " transposed" : "") << " matrix, got [" << k
           << "]";
  if (vectorSize(getResult()) != rows)
    return emitOpError("expects result [")
           << rows << "], got " << shapeString(getType());
  return success();
}

bool cavs::rangeFits(int64_t offset, int64_t width, int64_t size) {
  return offset >= 0 && width >= 0 && width <= size && offset <= size - width;
}

/// The end of [offset, offset + width), saturated, for messages.
static int64_t rangeEnd(int64_t offset, int64_t width) {
  int64_t end;
  return llvm::AddOverflow(offset, width, end)
             ? std::numeric_limits<int64_t>::max()
             : end;
}

/// The sum of the element counts of `values`; failure when it overflows.
template <typename Range>
static FailureOr<int64_t> totalWidth(Range values) {
  int64_t total = 0;
  for (Value value : values)
    if (llvm::AddOverflow(total, valueWidth(value.getType()), total))
      return failure();
  return total;
}

LogicalResult ConcatOp::verify() {
  if (getInputs().empty())
    return emitOpError("expects at least one input");
  FailureOr<int64_t> sum = totalWidth(getInputs());
  if (failed(sum))
    return emitOpError("expects inputs whose sizes sum to an int64");
  int64_t total = *sum;
  if (vectorSize(getResult()) != total)
    return emitOpError("expects result [")
           << total << "] (the sum of the input sizes), got "
           << shapeString(getType());
  return success();
}

LogicalResult SplitOp::verify() {
  if (getResults().empty())
    return emitOpError("expects at least one result");
  FailureOr<int64_t> sum = totalWidth(getResults());
  if (failed(sum))
    return emitOpError("expects parts whose sizes sum to an int64");
  int64_t total = *sum;
  if (total != vectorSize(getInput()))
    return emitOpError("expects its parts to cover the input ")
           << shapeString(getInput().getType()) << ", got " << total
           << " elements";
  return success();
}

LogicalResult SliceOp::verify() {
  int64_t offset = static_cast<int64_t>(getOffset());
  int64_t width = valueWidth(getType());
  if (!rangeFits(offset, width, vectorSize(getInput())))
    return emitOpError("slice [")
           << offset << ", " << rangeEnd(offset, width)
           << ") is out of range for " << shapeString(getInput().getType());
  return success();
}

LogicalResult LookupOp::verify() {
  int64_t width = getTable().getType().getDimSize(1);
  if (vectorSize(getResult()) != width)
    return emitOpError("expects result [")
           << width << "] (a row of " << shapeString(getTable().getType())
           << "), got " << shapeString(getType());
  return success();
}

LogicalResult PadOp::verify() {
  int64_t offset = static_cast<int64_t>(getOffset());
  int64_t width = valueWidth(getInput().getType());
  if (!rangeFits(offset, width, vectorSize(getResult())))
    return emitOpError("pad [")
           << offset << ", " << rangeEnd(offset, width)
           << ") is out of range for " << shapeString(getType());
  return success();
}

//===----------------------------------------------------------------------===//
// Backward functions
//===----------------------------------------------------------------------===//

LogicalResult BackwardOp::verify() {
  if (&(*this)->getBlock()->back() != getOperation())
    return emitOpError("must be the last op of its vertex function");
  return success();
}

LogicalResult StateGradOp::verify() {
  FailureOr<VertexOp> vertex = enclosingVertex(*this, /*backward=*/true);
  if (failed(vertex))
    return failure();
  return verifyStateType(*this, *vertex, getType());
}

LogicalResult ChildGradOp::verify() {
  FailureOr<VertexOp> vertex = enclosingVertex(*this, /*backward=*/true);
  if (failed(vertex))
    return failure();
  if (getIndex() >= vertex->getArity())
    return emitOpError("child index ")
           << getIndex() << " is out of range for arity " << vertex->getArity();
  return verifyStateType(*this, *vertex, getValue().getType());
}

LogicalResult PushGradOp::verify() {
  FailureOr<VertexOp> vertex = enclosingVertex(*this, /*backward=*/true);
  if (failed(vertex))
    return failure();
  return verifyDeclared(*this, "push", getName(),
                        vertex->getPushType(getName()), getType());
}

LogicalResult PullGradOp::verify() {
  FailureOr<VertexOp> vertex = enclosingVertex(*this, /*backward=*/true);
  if (failed(vertex))
    return failure();
  return verifyDeclared(*this, "pull", getName(),
                        vertex->getPullType(getName()), getValue().getType());
}

LogicalResult ParamGradOp::verifySymbolUses(SymbolTableCollection &symbols) {
  if (failed(enclosingVertex(*this, /*backward=*/true)))
    return failure();
  FailureOr<RankedTensorType> type =
      lookupParamType(*this, getParamAttr(), symbols);
  if (failed(type))
    return failure();
  if (*type != getValue().getType())
    return emitOpError("expects a gradient of type ")
           << *type << " for parameter " << getParamAttr() << ", got "
           << getValue().getType();
  return success();
}

LogicalResult
ParamGradOuterOp::verifySymbolUses(SymbolTableCollection &symbols) {
  if (failed(enclosingVertex(*this, /*backward=*/true)))
    return failure();
  FailureOr<RankedTensorType> param =
      lookupParamType(*this, getParamAttr(), symbols);
  if (failed(param))
    return failure();
  RankedTensorType type = *param;
  if (type.getRank() != 2 || type.getDimSize(0) != vectorSize(getDy()) ||
      type.getDimSize(1) != vectorSize(getX()))
    return emitOpError("expects parameter ")
           << getParamAttr() << " of shape [" << vectorSize(getDy()) << ", "
           << vectorSize(getX()) << "], got " << shapeString(type);
  return success();
}

LogicalResult LookupGradOp::verifySymbolUses(SymbolTableCollection &symbols) {
  if (failed(enclosingVertex(*this, /*backward=*/true)))
    return failure();
  FailureOr<RankedTensorType> param =
      lookupParamType(*this, getParamAttr(), symbols);
  if (failed(param))
    return failure();
  RankedTensorType type = *param;
  if (type.getRank() != 2 || type.getDimSize(1) != vectorSize(getValue()))
    return emitOpError("expects a table with rows of [")
           << vectorSize(getValue()) << "], got " << shapeString(type);
  return success();
}

//===----------------------------------------------------------------------===//
// FusedOp
//===----------------------------------------------------------------------===//

RankedTensorType FusedOp::getIterationType() {
  Value first = getBody().front().getTerminator()->getOperand(0);
  Operation *definer = first.getDefiningOp();
  if (definer && definer->hasTrait<cavs::OpTrait::Reduction>())
    first = definer->getOperand(0);
  return cast<RankedTensorType>(first.getType());
}

bool FusedOp::hasReductions() {
  return llvm::any_of(getBody().front(), [](Operation &op) {
    return op.hasTrait<cavs::OpTrait::Reduction>();
  });
}

LogicalResult FusedOp::verifyRegions() {
  Block &body = getBody().front();
  if (body.getArgumentTypes() != getInputs().getTypes())
    return emitOpError("expects region arguments of the input types");
  auto yield = cast<YieldOp>(body.getTerminator());
  if (yield.getValues().getTypes() != getResultTypes())
    return emitOpError("expects cavs.yield of the result types");
  if (getNumResults() == 0)
    return emitOpError("expects at least one result");
  RankedTensorType iteration = getIterationType();
  auto scalar = RankedTensorType::get({}, Float32Type::get(getContext()));
  for (Value yielded : yield.getValues()) {
    Operation *definer = yielded.getDefiningOp();
    if (yielded.getType() != iteration &&
        !(definer && definer->hasTrait<cavs::OpTrait::Reduction>()))
      return emitOpError("expects every result to have the iteration type ")
             << iteration << " or to be a reduction's, got "
             << yielded.getType();
  }
  for (Type type : getInputs().getTypes())
    if (type != iteration && type != scalar)
      return emitOpError("expects inputs of type ")
             << iteration << " or scalars, got " << type;
  for (Operation &op : body.without_terminator()) {
    if (isa<ConstantOp>(op))
      continue;
    if (op.hasTrait<cavs::OpTrait::Reduction>()) {
      if (op.getOperand(0).getType() != iteration)
        return op.emitOpError("expects to reduce the kernel's iteration type ")
               << iteration << ", got " << op.getOperand(0).getType();
      if (llvm::any_of(op.getUsers(),
                       [](Operation *user) { return !isa<YieldOp>(user); }))
        return op.emitOpError("ends its kernel: only cavs.yield may use its "
                              "result");
      continue;
    }
    if (!op.hasTrait<cavs::OpTrait::ElementwiseMath>())
      return op.emitOpError("is not elementwise and cannot be in cavs.fused");
    if (op.getResult(0).getType() != iteration)
      return op.emitOpError("expects the kernel's iteration type ")
             << iteration << ", got " << op.getResult(0).getType();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Folders: identities that autodiff and the frontend produce
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

std::optional<float> ConstantOp::getSplatFloat() {
  auto dense = dyn_cast<DenseElementsAttr>(getValue());
  if (!dense || !dense.isSplat())
    return std::nullopt;
  return dense.getSplatValue<APFloat>().convertToFloat();
}

/// True when `attr` is a constant whose every element is `value`.
static bool isSplatOf(Attribute attr, float value) {
  auto dense = dyn_cast_or_null<DenseElementsAttr>(attr);
  return dense && dense.isSplat() &&
         dense.getSplatValue<APFloat>().convertToFloat() == value;
}

/// `x op c` folds to x when c is the identity and x already has the result
/// type (otherwise the op still broadcasts x).
static OpFoldResult foldRightIdentity(Value lhs, Attribute rhs, Type result,
                                      float identity) {
  return lhs.getType() == result && isSplatOf(rhs, identity) ? lhs : nullptr;
}

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult folded =
          foldRightIdentity(getLhs(), adaptor.getRhs(), getType(), 0.0f))
    return folded;
  return foldRightIdentity(getRhs(), adaptor.getLhs(), getType(), 0.0f);
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  return foldRightIdentity(getLhs(), adaptor.getRhs(), getType(), 0.0f);
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult folded =
          foldRightIdentity(getLhs(), adaptor.getRhs(), getType(), 1.0f))
    return folded;
  return foldRightIdentity(getRhs(), adaptor.getLhs(), getType(), 1.0f);
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  return foldRightIdentity(getLhs(), adaptor.getRhs(), getType(), 1.0f);
}

OpFoldResult NegOp::fold(FoldAdaptor) {
  if (auto inner = getOperand().getDefiningOp<NegOp>())
    return inner.getOperand();
  return nullptr;
}

OpFoldResult SumOp::fold(FoldAdaptor) {
  return getInputs().size() == 1 ? getInputs().front() : nullptr;
}

OpFoldResult ConcatOp::fold(FoldAdaptor) {
  // Not for one scalar: that concat makes a vector of it.
  if (getInputs().size() == 1 && getInputs().front().getType() == getType())
    return getInputs().front();
  return nullptr;
}

LogicalResult SplitOp::fold(FoldAdaptor,
                            SmallVectorImpl<OpFoldResult> &results) {
  // split(concat(a, b, ...)) with matching parts is (a, b, ...).
  auto concat = getInput().getDefiningOp<ConcatOp>();
  if (!concat || concat.getInputs().getTypes() != getResultTypes())
    return failure();
  results.append(concat.getInputs().begin(), concat.getInputs().end());
  return success();
}

OpFoldResult SliceOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  // A slice that is exactly one input of a concat is that input.
  auto concat = getInput().getDefiningOp<ConcatOp>();
  if (!concat)
    return nullptr;
  int64_t offset = 0;
  for (Value input : concat.getInputs()) {
    if (offset == static_cast<int64_t>(getOffset()))
      return input.getType() == getType() ? input : nullptr;
    offset += valueWidth(input.getType());
  }
  return nullptr;
}

//===----------------------------------------------------------------------===//
// PhaseOp
//===----------------------------------------------------------------------===//

YieldOp PhaseOp::getYield() {
  return cast<YieldOp>(getBody().front().getTerminator());
}

bool PhaseOp::isBackward() { return isa<BackwardOp>((*this)->getParentOp()); }

unsigned PhaseOp::getPhaseNumber() {
  return (isBackward() ? 3 : 0) + static_cast<unsigned>(getKind());
}

LogicalResult PhaseOp::verify() {
  if (getYield().getValues().getTypes() != getResultTypes())
    return emitOpError("expects cavs.yield of the result types");
  // The phases of a block in the runtime's order, and nothing that runs per
  // vertex outside them.
  for (Operation &sibling : *(*this)->getBlock()) {
    if (&sibling == getOperation())
      break;
    auto earlier = dyn_cast<PhaseOp>(sibling);
    if (earlier && earlier.getKind() >= getKind())
      return emitOpError("expects the phases of a block in the order eager, "
                         "body, lazy, at most one of each");
  }
  for (Operation &sibling : *(*this)->getBlock())
    if (isBatchedOp(&sibling))
      return sibling.emitOpError("runs per vertex but is outside the phases ")
             << "of its block";
  for (Operation &op : getBody().front().without_terminator())
    if (!isBatchedOp(&op))
      return op.emitOpError("must be outside the phases, where every phase ")
             << "reads it";
  return success();
}
