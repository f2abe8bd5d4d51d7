//===- AST.h - syntax tree of a .cavs model ---------------------*- C++ -*-===//
//
// The parser's output: a faithful tree of what was written, with a source
// location on every node. Nothing is resolved here; names are the source
// spellings (StringRefs into the source buffer, which must outlive the AST).
// Compile-time integer positions (dims, shapes, indices, loop bounds) hold
// ordinary expressions; sema decides whether they are integer-valued.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_COMPILER_FRONTEND_AST_H
#define CAVS_COMPILER_FRONTEND_AST_H

#include "compiler/Frontend/CheckedModel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <algorithm>
#include <memory>
#include <vector>

namespace llvm {
class SourceMgr;
class raw_ostream;
} // namespace llvm

namespace cavs {

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

/// Base of all expressions (LLVM-style RTTI through getKind()).
class Expr {
public:
  enum class Kind { Number, Name, Neg, Binary, Index, Call, Pull, Gather };

  virtual ~Expr() = default;
  Kind getKind() const { return kind; }
  /// Where diagnostics about this expression point: the operator of a
  /// binary expression, the callee of a call, the first character otherwise.
  llvm::SMLoc getLoc() const { return loc; }
  /// Nodes on the longest path to a leaf; the parser bounds it so that
  /// recursive walks over the tree cannot exhaust the stack.
  unsigned getHeight() const { return height; }

protected:
  Expr(Kind kind, llvm::SMLoc loc, unsigned height)
      : kind(kind), loc(loc), height(height) {}

private:
  Kind kind;
  llvm::SMLoc loc;
  unsigned height;
};

using ExprPtr = std::unique_ptr<Expr>;

/// An integer (`150`) or floating-point (`0.05`, `1e-3`) literal.
class NumberExpr : public Expr {
public:
  /// Integer literals carry their exact value in `intValue`; both kinds carry
  /// the nearest f32 in `floatValue`.
  NumberExpr(llvm::SMLoc loc, llvm::StringRef spelling, bool isInteger,
             int64_t intValue, float floatValue)
      : Expr(Kind::Number, loc, 1), spelling(spelling), integer(isInteger),
        intValue(intValue), floatValue(floatValue) {}

  llvm::StringRef getSpelling() const { return spelling; }
  bool isInteger() const { return integer; }
  int64_t getIntValue() const { return intValue; }
  float getFloatValue() const { return floatValue; }

  static bool classof(const Expr *e) { return e->getKind() == Kind::Number; }

private:
  llvm::StringRef spelling;
  bool integer;
  int64_t intValue;
  float floatValue;
};

/// A use of a name. The keyword `arity` is represented as the name "arity",
/// which no identifier can spell.
class NameExpr : public Expr {
public:
  NameExpr(llvm::SMLoc loc, llvm::StringRef name)
      : Expr(Kind::Name, loc, 1), name(name) {}

  llvm::StringRef getName() const { return name; }

  static bool classof(const Expr *e) { return e->getKind() == Kind::Name; }

private:
  llvm::StringRef name;
};

/// Unary minus.
class NegExpr : public Expr {
public:
  NegExpr(llvm::SMLoc loc, ExprPtr operand)
      : Expr(Kind::Neg, loc, operand->getHeight() + 1),
        operand(std::move(operand)) {}

  const Expr &getOperand() const { return *operand; }

  static bool classof(const Expr *e) { return e->getKind() == Kind::Neg; }

private:
  ExprPtr operand;
};

/// The binary operators; `@` is matrix times vector.
enum class BinaryOp { Add, Sub, Mul, Div, MatMul };

/// The operator as written (`+`, `@`, ...).
llvm::StringRef getBinaryOpSpelling(BinaryOp op);

/// `lhs op rhs`; the location is the operator's.
class BinaryExpr : public Expr {
public:
  BinaryExpr(llvm::SMLoc loc, BinaryOp op, ExprPtr lhs, ExprPtr rhs)
      : Expr(Kind::Binary, loc,
             std::max(lhs->getHeight(), rhs->getHeight()) + 1),
        op(op), lhs(std::move(lhs)), rhs(std::move(rhs)) {}

  BinaryOp getOp() const { return op; }
  const Expr &getLHS() const { return *lhs; }
  const Expr &getRHS() const { return *rhs; }

  static bool classof(const Expr *e) { return e->getKind() == Kind::Binary; }

private:
  BinaryOp op;
  ExprPtr lhs, rhs;
};

/// `base[index]`: an element of an array; the location is the '['.
class IndexExpr : public Expr {
public:
  IndexExpr(llvm::SMLoc loc, ExprPtr base, ExprPtr index)
      : Expr(Kind::Index, loc,
             std::max(base->getHeight(), index->getHeight()) + 1),
        base(std::move(base)), index(std::move(index)) {}

  const Expr &getBase() const { return *base; }
  const Expr &getIndex() const { return *index; }

  static bool classof(const Expr *e) { return e->getKind() == Kind::Index; }

private:
  ExprPtr base, index;
};

/// Returns one more than the largest height among `exprs` (1 if empty).
unsigned heightAbove(llvm::ArrayRef<ExprPtr> exprs);

/// A call of a builtin function, `callee(args)`.
class CallExpr : public Expr {
public:
  CallExpr(llvm::SMLoc loc, llvm::StringRef callee,
           llvm::SmallVector<ExprPtr, 3> args)
      : Expr(Kind::Call, loc, heightAbove(args)), callee(callee),
        args(std::move(args)) {}

  llvm::StringRef getCallee() const { return callee; }
  llvm::ArrayRef<ExprPtr> getArgs() const { return args; }

  static bool classof(const Expr *e) { return e->getKind() == Kind::Call; }

private:
  llvm::StringRef callee;
  llvm::SmallVector<ExprPtr, 3> args;
};

/// A written type: `i32`, or `f32[d0, d1, ...]` with zero or more extents.
struct TypeSpec {
  llvm::SMLoc loc;
  bool isI32 = false;
  llvm::SmallVector<ExprPtr, 2> dims;
};

/// `pull TYPE`: the vertex's external input of that type.
class PullExpr : public Expr {
public:
  PullExpr(llvm::SMLoc loc, TypeSpec type)
      : Expr(Kind::Pull, loc, heightAbove(type.dims)), type(std::move(type)) {}

  const TypeSpec &getType() const { return type; }

  static bool classof(const Expr *e) { return e->getKind() == Kind::Pull; }

private:
  TypeSpec type;
};

/// `gather(k)`: the state scattered by child k.
class GatherExpr : public Expr {
public:
  GatherExpr(llvm::SMLoc loc, ExprPtr index)
      : Expr(Kind::Gather, loc, index->getHeight() + 1),
        index(std::move(index)) {}

  const Expr &getIndex() const { return *index; }

  static bool classof(const Expr *e) { return e->getKind() == Kind::Gather; }

private:
  ExprPtr index;
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

/// Base of the statements of a vertex function body.
class Stmt {
public:
  enum class Kind { Assign, For, Scatter, Push, Loss };

  virtual ~Stmt() = default;
  Kind getKind() const { return kind; }
  llvm::SMLoc getLoc() const { return loc; }

protected:
  Stmt(Kind kind, llvm::SMLoc loc) : kind(kind), loc(loc) {}

private:
  Kind kind;
  llvm::SMLoc loc;
};

using StmtPtr = std::unique_ptr<Stmt>;

/// One name on the left of '=': `x`, or the array element `h[k]`.
struct AssignTarget {
  llvm::StringRef name;
  llvm::SMLoc loc;
  /// The element index; null for a plain name.
  ExprPtr index;
};

/// `a, b[k], ... = value;` located at the first target.
class AssignStmt : public Stmt {
public:
  AssignStmt(llvm::SMLoc loc, llvm::SmallVector<AssignTarget, 1> targets,
             ExprPtr value)
      : Stmt(Kind::Assign, loc), targets(std::move(targets)),
        value(std::move(value)) {}

  llvm::ArrayRef<AssignTarget> getTargets() const { return targets; }
  const Expr &getValue() const { return *value; }

  static bool classof(const Stmt *s) { return s->getKind() == Kind::Assign; }

private:
  llvm::SmallVector<AssignTarget, 1> targets;
  ExprPtr value;
};

/// `for var in begin..end { body }`, unrolled by sema.
class ForStmt : public Stmt {
public:
  ForStmt(llvm::SMLoc loc, llvm::StringRef var, llvm::SMLoc varLoc,
          ExprPtr begin, ExprPtr end, std::vector<StmtPtr> body)
      : Stmt(Kind::For, loc), var(var), varLoc(varLoc), begin(std::move(begin)),
        end(std::move(end)), body(std::move(body)) {}

  llvm::StringRef getVar() const { return var; }
  llvm::SMLoc getVarLoc() const { return varLoc; }
  const Expr &getBegin() const { return *begin; }
  const Expr &getEnd() const { return *end; }
  llvm::ArrayRef<StmtPtr> getBody() const { return body; }

  static bool classof(const Stmt *s) { return s->getKind() == Kind::For; }

private:
  llvm::StringRef var;
  llvm::SMLoc varLoc;
  ExprPtr begin, end;
  std::vector<StmtPtr> body;
};

/// `scatter(value);`
class ScatterStmt : public Stmt {
public:
  ScatterStmt(llvm::SMLoc loc, ExprPtr value)
      : Stmt(Kind::Scatter, loc), value(std::move(value)) {}

  const Expr &getValue() const { return *value; }

  static bool classof(const Stmt *s) { return s->getKind() == Kind::Scatter; }

private:
  ExprPtr value;
};

/// `push(name);` or `push(name = value);`
class PushStmt : public Stmt {
public:
  PushStmt(llvm::SMLoc loc, llvm::StringRef name, llvm::SMLoc nameLoc,
           ExprPtr value)
      : Stmt(Kind::Push, loc), name(name), nameLoc(nameLoc),
        value(std::move(value)) {}

  llvm::StringRef getName() const { return name; }
  llvm::SMLoc getNameLoc() const { return nameLoc; }
  /// The pushed expression; null for `push(name)`, which pushes the value
  /// of `name`.
  const Expr *getValue() const { return value.get(); }

  static bool classof(const Stmt *s) { return s->getKind() == Kind::Push; }

private:
  llvm::StringRef name;
  llvm::SMLoc nameLoc;
  ExprPtr value;
};

/// `loss value;`
class LossStmt : public Stmt {
public:
  LossStmt(llvm::SMLoc loc, ExprPtr value)
      : Stmt(Kind::Loss, loc), value(std::move(value)) {}

  const Expr &getValue() const { return *value; }

  static bool classof(const Stmt *s) { return s->getKind() == Kind::Loss; }

private:
  ExprPtr value;
};

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

/// Base of the top-level declarations; located at their keyword.
class Decl {
public:
  enum class Kind { Dim, State, Param, Vertex };

  virtual ~Decl() = default;
  Kind getKind() const { return kind; }
  llvm::SMLoc getLoc() const { return loc; }

protected:
  Decl(Kind kind, llvm::SMLoc loc) : kind(kind), loc(loc) {}

private:
  Kind kind;
  llvm::SMLoc loc;
};

using DeclPtr = std::unique_ptr<Decl>;

/// `dim NAME = value;`
class DimDecl : public Decl {
public:
  DimDecl(llvm::SMLoc loc, llvm::StringRef name, llvm::SMLoc nameLoc,
          ExprPtr value)
      : Decl(Kind::Dim, loc), name(name), nameLoc(nameLoc),
        value(std::move(value)) {}

  llvm::StringRef getName() const { return name; }
  llvm::SMLoc getNameLoc() const { return nameLoc; }
  const Expr &getValue() const { return *value; }

  static bool classof(const Decl *d) { return d->getKind() == Kind::Dim; }

private:
  llvm::StringRef name;
  llvm::SMLoc nameLoc;
  ExprPtr value;
};

/// `state TYPE;`
class StateDecl : public Decl {
public:
  StateDecl(llvm::SMLoc loc, TypeSpec type)
      : Decl(Kind::State, loc), type(std::move(type)) {}

  const TypeSpec &getType() const { return type; }

  static bool classof(const Decl *d) { return d->getKind() == Kind::State; }

private:
  TypeSpec type;
};

/// `param NAME : TYPE = init;` where init is an initializer keyword with
/// optional literal arguments (`uniform(-0.05, 0.05)`).
class ParamDecl : public Decl {
public:
  ParamDecl(llvm::SMLoc loc, llvm::StringRef name, llvm::SMLoc nameLoc,
            TypeSpec type, checked::InitKind init, llvm::SMLoc initLoc,
            llvm::SmallVector<ExprPtr, 2> initArgs)
      : Decl(Kind::Param, loc), name(name), nameLoc(nameLoc),
        type(std::move(type)), init(init), initLoc(initLoc),
        initArgs(std::move(initArgs)) {}

  llvm::StringRef getName() const { return name; }
  llvm::SMLoc getNameLoc() const { return nameLoc; }
  const TypeSpec &getType() const { return type; }
  checked::InitKind getInit() const { return init; }
  llvm::SMLoc getInitLoc() const { return initLoc; }
  /// Each argument is a NumberExpr, possibly under one NegExpr.
  llvm::ArrayRef<ExprPtr> getInitArgs() const { return initArgs; }

  static bool classof(const Decl *d) { return d->getKind() == Kind::Param; }

private:
  llvm::StringRef name;
  llvm::SMLoc nameLoc;
  TypeSpec type;
  checked::InitKind init;
  llvm::SMLoc initLoc;
  llvm::SmallVector<ExprPtr, 2> initArgs;
};

/// `vertex NAME(arity = N) { body }`
class VertexDecl : public Decl {
public:
  VertexDecl(llvm::SMLoc loc, llvm::StringRef name, llvm::SMLoc nameLoc,
             ExprPtr arity, std::vector<StmtPtr> body)
      : Decl(Kind::Vertex, loc), name(name), nameLoc(nameLoc),
        arity(std::move(arity)), body(std::move(body)) {}

  llvm::StringRef getName() const { return name; }
  llvm::SMLoc getNameLoc() const { return nameLoc; }
  const Expr &getArity() const { return *arity; }
  llvm::ArrayRef<StmtPtr> getBody() const { return body; }

  static bool classof(const Decl *d) { return d->getKind() == Kind::Vertex; }

private:
  llvm::StringRef name;
  llvm::SMLoc nameLoc;
  ExprPtr arity;
  std::vector<StmtPtr> body;
};

/// A whole source file: `model NAME;` and the declarations in order.
struct ModuleAST {
  llvm::StringRef name;
  llvm::SMLoc loc;
  llvm::SMLoc nameLoc;
  std::vector<DeclPtr> decls;
};

/// Prints `module` as an indented tree, one node per line with its
/// `<line:col>` (what `cavsc --emit=ast` shows).
void dumpAST(const ModuleAST &module, const llvm::SourceMgr &sourceMgr,
             llvm::raw_ostream &os);

} // namespace cavs

#endif // CAVS_COMPILER_FRONTEND_AST_H
