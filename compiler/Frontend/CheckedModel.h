//===- CheckedModel.h - the checked form of a .cavs model -------*- C++ -*-===//
//
// What the frontend hands to MLIRGen: a model whose dims are resolved to
// numbers, whose parameters have concrete shapes, and whose vertex functions
// are flat SSA instruction lists with loops unrolled and arrays resolved.
// Every instruction maps to exactly one op of the cavs dialect, so MLIRGen is
// a 1:1 translation that never re-checks anything.
//
// These are plain structs on purpose: no invariants beyond the documented
// ones, which sema establishes and later stages rely on.
//
// They live in cavs::checked, apart from the cavs dialect's classes
// (cavs::ParamOp, ...) and the runtime's train/infer program (cavs/program.h),
// so that `checked::Param` or `checked::Model` says which one is meant.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_COMPILER_FRONTEND_CHECKEDMODEL_H
#define CAVS_COMPILER_FRONTEND_CHECKEDMODEL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cavs::checked {

/// Element type of a value.
enum class ElementType { F32, I32 };

/// The static type of a per-vertex value. The batch dimension (the vertices
/// evaluated together) is implicit and never part of `shape`.
struct Type {
  ElementType element = ElementType::F32;
  /// F32: rank 0 (scalar), 1 (vector) or 2 (only parameters). I32: empty, an
  /// i32 is always a scalar.
  llvm::SmallVector<int64_t, 2> shape;

  static Type f32(llvm::ArrayRef<int64_t> shape) {
    return Type{ElementType::F32, llvm::SmallVector<int64_t, 2>(shape)};
  }
  static Type i32() { return Type{ElementType::I32, {}}; }

  bool isF32() const { return element == ElementType::F32; }
  bool isI32() const { return element == ElementType::I32; }
  unsigned getRank() const { return shape.size(); }
  bool isF32Scalar() const { return isF32() && shape.empty(); }
  bool isF32Vector() const { return isF32() && shape.size() == 1; }

  bool operator==(const Type &other) const {
    return element == other.element && shape == other.shape;
  }
  bool operator!=(const Type &other) const { return !(*this == other); }

  /// The source spelling: `f32[]`, `f32[150]`, `f32[450, 300]` or `i32`.
  std::string str() const;
};

/// Prints a shape as `[150]`, `[450, 300]` or `[]`.
std::string shapeToString(llvm::ArrayRef<int64_t> shape);

/// How a parameter is initialized: the kinds of cavs/init_kinds.def, with
/// their ABI values.
enum class InitKind {
#define CAVS_INIT_KIND(keyword, NAME, value, args) keyword = value,
#include "cavs/init_kinds.def"
};

/// The keyword of an initializer (`xavier`, ...).
llvm::StringRef getInitKindName(InitKind kind);

/// How many numbers an initializer takes (`uniform(lo, hi)`: 2).
unsigned getInitKindArgs(InitKind kind);

/// A parameter initializer with its arguments: constant {value}, uniform
/// {low, high} with low < high, normal {mean, stddev} with stddev > 0, none
/// for the others. xavier is only used on rank-2 parameters.
struct Initializer {
  InitKind kind = InitKind::zeros;
  llvm::SmallVector<float, 2> args;
};

/// A compile-time dimension after `-D` overrides; always positive.
struct Dim {
  std::string name;
  int64_t value = 0;
  llvm::SMLoc loc;
};

/// A trainable parameter: f32 of rank 1 or 2, every extent positive.
struct Param {
  std::string name;
  llvm::SmallVector<int64_t, 2> shape;
  Initializer init;
  llvm::SMLoc loc;
};

/// Index of a value in VertexFunction::values.
using ValueId = unsigned;

/// A value of a vertex function: its type and, for values the user named,
/// the name (`h_new`, `c[1]` for an array element), else empty.
struct ValueInfo {
  Type type;
  std::string name;
};

/// The instruction set; each is one op of the cavs dialect. Operand and
/// result types are in VertexFunction::values; the shapes are already
/// checked as documented here.
enum class OpKind {
  Pull,     ///< () -> i32 | f32[] | f32[n]; `name` is the external input.
  Gather,   ///< () -> state; child slot `index` in [0, arity).
  Scatter,  ///< (state) -> (); exactly once per function when a state exists.
  Push,     ///< (f32 value) -> (); `name` is the external output.
  Loss,     ///< (f32[]) -> (); all losses of a model are summed.
  ParamRef, ///< () -> the rank-1 parameter `param`.
  Constant, ///< () -> f32[] holding `constant`.
  Add,      ///< (a, b) -> elementwise; equal shapes, or one is f32[]
  Sub,      ///< and broadcasts to the other's shape.
  Mul,
  Div,
  Neg,     ///< (a) -> elementwise, same type.
  Sigmoid, ///< (a) -> elementwise, same type.
  Tanh,
  Relu,
  Exp,
  Log,
  Sqrt,
  Softplus,
  Softmax,             ///< (f32[n]) -> f32[n].
  MatMul,              ///< (f32[K]) -> f32[M] with `param` of shape [M, K].
  Concat,              ///< (f32[] or f32[n1], ...) -> f32[n1 + ...]; a
                       ///< scalar counts as one element.
  Split,               ///< (f32[n]) -> results.size() values of f32[n / parts].
  Slice,               ///< (f32[n]) -> f32[size] from offset `index`, or the
                       ///< element `index` as f32[] (then `size` is 1).
  Sum,                 ///< (v1, v2, ...) -> elementwise sum, all one type.
  ReduceSum,           ///< (f32[n]) -> f32[]: the sum of the elements.
  ReduceMax,           ///< (f32[n]) -> f32[]: the largest element.
  Lookup,              ///< (i32) -> f32[E]: row of `param` [V, E].
  SoftmaxCrossEntropy, ///< (f32[C] logits, i32 label) -> f32[].
};

/// The lowercase name of an instruction kind (`matmul`, ...).
llvm::StringRef getOpKindName(OpKind kind);

/// One SSA instruction. Which attribute fields are meaningful depends on the
/// kind (see OpKind); the others keep their defaults.
struct Instruction {
  OpKind kind;
  /// The source construct this instruction comes from.
  llvm::SMLoc loc;
  llvm::SmallVector<ValueId, 2> operands;
  /// Values defined here: none for Scatter, Push and Loss, `parts` for
  /// Split, one otherwise.
  llvm::SmallVector<ValueId, 1> results;
  /// Pull, Push: the external name.
  std::string name;
  /// ParamRef, MatMul, Lookup: index into Model::params.
  unsigned param = 0;
  /// Gather: the child slot. Slice: the start offset.
  int64_t index = 0;
  /// Slice: the number of elements.
  int64_t size = 0;
  /// Constant: the value.
  float constant = 0;
};

/// One vertex function with its loops unrolled. Instructions are in
/// execution order and every operand is defined by an earlier instruction.
struct VertexFunction {
  std::string name;
  /// Number of child slots (>= 0) that gather may read.
  int64_t arity = 0;
  llvm::SMLoc loc;
  std::vector<ValueInfo> values;
  std::vector<Instruction> instructions;
};

/// A named external input (pull) or output (push). A name used by several
/// vertex functions has one type everywhere.
struct ExternalValue {
  std::string name;
  Type type;
};

/// A checked model.
struct Model {
  std::string modelName;
  llvm::SMLoc loc;
  std::vector<Dim> dims;
  /// The type every vertex scatters and gather returns: an f32 vector.
  /// Absent when the model declares no state (then no gather or scatter).
  std::optional<Type> state;
  std::vector<Param> params;
  std::vector<VertexFunction> vertexFunctions;
  /// Every pull and push name in order of first appearance.
  std::vector<ExternalValue> pulls;
  std::vector<ExternalValue> pushes;
};

} // namespace cavs::checked

#endif // CAVS_COMPILER_FRONTEND_CHECKEDMODEL_H
