//===- VertexElaborator.h - check and unroll a vertex function --*- C++ -*-===//
//
// Sema for a vertex function body, fused with its elaboration into the
// checked model (CheckedModel.h): statements are executed symbolically in
// order, `for` loops are unrolled, arrays live only at compile time (a map
// from index to SSA value), and each operation is type-checked as it is
// emitted. Checking while unrolling means every check sees concrete indices
// and shapes; the price is that a loop body is only checked for the
// iterations that actually run.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_COMPILER_FRONTEND_VERTEXELABORATOR_H
#define CAVS_COMPILER_FRONTEND_VERTEXELABORATOR_H

#include "compiler/Frontend/AST.h"
#include "compiler/Frontend/CheckedModel.h"
#include "compiler/Frontend/Diagnostics.h"
#include "compiler/Frontend/Symbols.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"

#include <map>

namespace cavs {

/// How much work one vertex function may unroll to, counting instructions,
/// their operands, loop iterations and elements of whole-array uses; bounds
/// compile time and memory for any input.
constexpr unsigned kMaxUnrolledSize = 1 << 16;

/// Checks and elaborates the body of `decl`. Diagnostics go to `diag`; the
/// result is only meaningful if none were reported.
class VertexElaborator {
public:
  /// `model` provides the parameters and the state; `stateDeclared` tells
  /// a missing state declaration from one that had an error.
  VertexElaborator(const VertexDecl &decl, int64_t arity,
                   const ModuleSymbols &symbols, const checked::Model &model,
                   bool stateDeclared, DiagEngine &diag);

  checked::VertexFunction run();

private:
  /// What an expression evaluates to: one SSA value, a compile-time array
  /// of values, or nothing after a reported error.
  struct Operand {
    enum class Kind { Error, Value, Array };
    Kind kind = Kind::Error;
    checked::ValueId value = 0;
    llvm::SmallVector<checked::ValueId, 4> elements;

    static Operand single(checked::ValueId id) { return {Kind::Value, id, {}}; }
    static Operand array(llvm::ArrayRef<checked::ValueId> ids) {
      return {Kind::Array, 0, llvm::SmallVector<checked::ValueId, 4>(ids)};
    }
    bool isError() const { return kind == Kind::Error; }
    bool isArray() const { return kind == Kind::Array; }
  };

  /// A name defined in the function body.
  struct Local {
    enum class Kind { Value, Array, LoopVar, Poison };
    /// An array element; `value` is empty when its definition had an error.
    struct Element {
      std::optional<checked::ValueId> value;
      llvm::SMLoc loc;
    };

    Local(Kind kind, llvm::SMLoc loc) : kind(kind), loc(loc) {}

    Kind kind;
    /// Where the name was defined (its first element, for arrays).
    llvm::SMLoc loc;
    /// Kind::Value: the value.
    checked::ValueId value = 0;
    /// Kind::LoopVar: the current iteration's value.
    int64_t loopValue = 0;
    /// Kind::Array: the assigned elements by index.
    std::map<int64_t, Element> elements;
    /// Kind::Array: an element index failed to evaluate, so uses of the
    /// array are not reported again.
    bool incomplete = false;
    /// Kind::Array: the first use of the whole array; its length is fixed
    /// from then on.
    llvm::SMLoc wholeUseLoc;
  };

  //===--- Statements (VertexElaborator.cpp) ------------------------------===//
  void elaborateBlock(llvm::ArrayRef<StmtPtr> body);
  void elaborateStmt(const Stmt &stmt);
  void elaborateAssign(const AssignStmt &stmt);
  void elaboratePullAssign(const AssignStmt &stmt, const PullExpr &pull);
  void elaborateSplitAssign(const AssignStmt &stmt, const CallExpr &split);
  void elaborateFor(const ForStmt &stmt);
  /// Records the arrays whose elements `body`, of the loop at `loopLoc`
  /// that runs no iteration, would assign.
  void noteArraysOfEmptyLoop(llvm::ArrayRef<StmtPtr> body, llvm::SMLoc loopLoc);
  void elaborateScatter(const ScatterStmt &stmt);
  void elaboratePush(const PushStmt &stmt);
  void elaborateLoss(const LossStmt &stmt);

  /// Binds an assignment target to `value` (an Error operand poisons it).
  void assign(const AssignTarget &target, const Operand &value);
  void assignName(llvm::StringRef name, llvm::SMLoc loc, const Operand &value);
  void assignElement(llvm::StringRef name, llvm::SMLoc loc,
                     std::optional<int64_t> index, const Operand &value);
  /// Reports a new local (`what`: "local", "loop variable") that would
  /// shadow a dim or parameter; true if it does.
  bool reportShadowing(llvm::StringRef name, llvm::SMLoc loc,
                       llvm::StringRef what);
  Local *lookupLocal(llvm::StringRef name);

  std::optional<int64_t> evaluateInt(const Expr &expr);
  std::optional<int64_t> resolveInt(const NameExpr &name);

  //===--- Expressions (VertexElaboratorExpr.cpp) -------------------------===//
  Operand elaborate(const Expr &expr);
  Operand elaborateName(llvm::StringRef name, llvm::SMLoc loc);
  Operand elaborateWholeArray(llvm::StringRef name, Local &local,
                              llvm::SMLoc loc);
  Operand elaborateNeg(const NegExpr &neg);
  Operand elaborateBinary(const BinaryExpr &binary);
  Operand elaborateMatMul(const BinaryExpr &binary);
  Operand elaborateIndex(const IndexExpr &index);
  Operand elaborateGather(const GatherExpr &gather);
  Operand elaborateCall(const CallExpr &call);
  Operand elaborateConcat(const CallExpr &call);
  Operand elaborateSlice(const CallExpr &call);
  Operand elaborateSum(const CallExpr &call);
  /// `x[i]` of an f32 vector `x`: element i as a scalar.
  Operand extractElement(const IndexExpr &index, checked::ValueId vector,
                         int64_t position);
  Operand elaborateLookup(const CallExpr &call);
  Operand elaborateSoftmaxCrossEntropy(const CallExpr &call);

  //===--- Reductions and losses (VertexElaboratorReductions.cpp) ---------===//
  /// Elaborates a call of a builtin that expands to several instructions
  /// (reduce_mean, dot, log_softmax, mse, bce_with_logits, kl_div); empty
  /// when `call` names none.
  std::optional<Operand> elaborateCompositeCall(const CallExpr &call);
  /// Elaborates the one argument of `call`, requires f32 vectors and applies
  /// `fn` to it, per element for arrays.
  Operand mapVectors(const CallExpr &call,
                     llvm::function_ref<checked::ValueId(checked::ValueId)> fn);
  Operand elaborateDot(const CallExpr &call);
  /// mse, bce_with_logits and kl_div of (prediction, target).
  Operand elaborateLoss(const CallExpr &call);
  /// The instructions of the builtins, on checked operands.
  checked::ValueId emitMean(llvm::SMLoc loc, checked::ValueId vector);
  checked::ValueId emitLogSoftmax(llvm::SMLoc loc, checked::ValueId vector);

  /// Applies `fn` to a value, or to each element of an array; an Error
  /// operand or any failing element gives Error.
  Operand mapElements(
      const Operand &operand,
      llvm::function_ref<std::optional<checked::ValueId>(checked::ValueId)> fn);
  /// Applies an elementwise unary op, per element for arrays.
  Operand mapUnary(checked::OpKind kind, llvm::SMLoc loc,
                   const Operand &operand, const Expr &operandExpr);
  /// Applies + - * /, per element for arrays (an array with a single value
  /// broadcasts the value).
  Operand mapBinary(const BinaryExpr &binary, const Operand &lhs,
                    const Operand &rhs);
  std::optional<checked::ValueId> binaryValues(const BinaryExpr &binary,
                                               checked::ValueId lhs,
                                               checked::ValueId rhs);
  /// Applies `fn` to pairs of values: elementwise for two arrays of equal
  /// length (else reports "'`what`' expects arrays of the same length"),
  /// pairing a single value with every element of an array.
  Operand zipElements(const Operand &lhs, const Operand &rhs, llvm::SMLoc loc,
                      llvm::StringRef what,
                      llvm::function_ref<std::optional<checked::ValueId>(
                          checked::ValueId, checked::ValueId)>
                          fn);
  std::optional<checked::ValueId>
  matMulValue(const BinaryExpr &binary, unsigned param, checked::ValueId rhs);
  /// Resolves `expr` as a rank-2 parameter (the left of '@', the table of
  /// lookup); otherwise reports "`expectation`, got ..." and returns empty.
  std::optional<unsigned> resolveMatrix(const Expr &expr,
                                        llvm::StringRef expectation);
  /// Checks the argument count of a builtin call.
  bool checkArgCount(const CallExpr &call, unsigned min, unsigned max);

  /// Accepts a single value satisfying `pred`, else reports "`expectation`,
  /// got <what it is>" at `where` (silently rejects Error operands).
  std::optional<checked::ValueId>
  expectValue(const Operand &operand, llvm::SMLoc where,
              const llvm::Twine &expectation,
              llvm::function_ref<bool(const checked::Type &)> pred);
  /// Reports a `pull` that is not the whole right side of `x = pull T;`.
  void reportMisplacedPull(llvm::SMLoc loc);
  /// Rejects an i32 value used where f32 is needed, with the rule for i32.
  bool checkF32(checked::ValueId value, const Expr &where);
  /// The type of a value, or "an array of N values", for diagnostics.
  std::string describe(const Operand &operand) const;

  //===--- Emission -------------------------------------------------------===//
  const checked::Type &typeOf(checked::ValueId id) const {
    return function.values[id].type;
  }
  checked::ValueId emitConstant(llvm::SMLoc loc, float value);
  checked::ValueId emitValue(checked::OpKind kind, llvm::SMLoc loc,
                             llvm::ArrayRef<checked::ValueId> operands,
                             checked::Type resultType);
  /// Appends an instruction with one result per type. The reference is
  /// valid until the next emission.
  checked::Instruction &emit(checked::OpKind kind, llvm::SMLoc loc,
                             llvm::ArrayRef<checked::ValueId> operands,
                             llvm::ArrayRef<checked::Type> resultTypes);
  /// Counts `units` towards kMaxUnrolledSize; past it, reports once and
  /// stops the elaboration.
  bool charge(llvm::SMLoc loc, size_t units = 1);
  /// Gives `value` a user-visible name unless it already has one.
  void nameValue(checked::ValueId value, const llvm::Twine &name);

  const VertexDecl &decl;
  int64_t arity;
  const ModuleSymbols &symbols;
  const checked::Model &model;
  bool stateDeclared;
  DiagEngine &diag;

  checked::VertexFunction function;
  /// Innermost last; [0] is the function scope, which holds every array.
  std::vector<llvm::StringMap<Local>> scopes;
  /// One ParamRef per used rank-1 parameter.
  llvm::DenseMap<unsigned, checked::ValueId> paramRefs;
  /// Where each external input and output name was first used.
  llvm::StringMap<llvm::SMLoc> pulls, pushes;
  llvm::SMLoc firstScatterLoc;
  size_t unrolledSize = 0;
  bool aborted = false;
  /// Loops being elaborated whose variable was reported (a redefinition or
  /// a shadowed global): an element their body defines again follows from
  /// that error, as an enclosing loop runs the body once more.
  int32_t loopsWithBadVariable = 0;
  /// Arrays that only loops running no iteration assign, with the first
  /// such loop: reading one says so rather than "undeclared".
  llvm::StringMap<llvm::SMLoc> arraysOfEmptyLoops;
};

} // namespace cavs

#endif // CAVS_COMPILER_FRONTEND_VERTEXELABORATOR_H
