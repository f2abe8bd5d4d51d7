//===- ASTPrinter.cpp - the --emit=ast tree dump --------------------------===//
//
// Prints the AST one node per line, indented by depth, each line ending in
// the node's `<line:col>`. Compile-time integer positions (dims, types,
// indices, loop bounds, arity) are printed inline in source syntax so the
// dump stays short; value expressions are printed as subtrees.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/AST.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace cavs;
using namespace cavs::checked;
using llvm::cast;

namespace {

/// Binding strength of an expression, for minimal parenthesization.
enum Precedence { Additive = 1, Multiplicative, Unary, Postfix, Primary };

Precedence getPrecedence(const Expr &expr) {
  switch (expr.getKind()) {
  case Expr::Kind::Binary: {
    BinaryOp op = cast<BinaryExpr>(expr).getOp();
    return op == BinaryOp::Add || op == BinaryOp::Sub ? Additive
                                                      : Multiplicative;
  }
  case Expr::Kind::Neg:
    return Unary;
  case Expr::Kind::Index:
    return Postfix;
  default:
    return Primary;
  }
}

class ASTPrinter {
public:
  ASTPrinter(const llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os)
      : sourceMgr(sourceMgr), os(os) {}

  void print(const ModuleAST &module);

private:
  /// Starts a node's line at the current depth.
  llvm::raw_ostream &line() { return os.indent(2 * depth); }
  /// Ends a node's line with its location.
  void endLine(llvm::SMLoc loc);

  void printInline(const Expr &expr, int minPrecedence = Additive);
  void printInline(const TypeSpec &type);
  void printInlineList(llvm::ArrayRef<ExprPtr> exprs);

  void print(const Decl &decl);
  void print(const Stmt &stmt);
  void print(const Expr &expr);
  void printChildren(llvm::ArrayRef<StmtPtr> body);

  const llvm::SourceMgr &sourceMgr;
  llvm::raw_ostream &os;
  unsigned depth = 0;
};

} // namespace

void ASTPrinter::endLine(llvm::SMLoc loc) {
  auto [lineNo, column] = sourceMgr.getLineAndColumn(loc);
  os << " <" << lineNo << ':' << column << ">\n";
}

void ASTPrinter::printInline(const Expr &expr, int minPrecedence) {
  bool parens = getPrecedence(expr) < minPrecedence;
  if (parens)
    os << '(';
  switch (expr.getKind()) {
  case Expr::Kind::Number:
    os << cast<NumberExpr>(expr).getSpelling();
    break;
  case Expr::Kind::Name:
    os << cast<NameExpr>(expr).getName();
    break;
  case Expr::Kind::Neg:
    os << '-';
    printInline(cast<NegExpr>(expr).getOperand(), Unary);
    break;
  case Expr::Kind::Binary: {
    const auto &binary = cast<BinaryExpr>(expr);
    int precedence = getPrecedence(binary);
    printInline(binary.getLHS(), precedence);
    os << ' ' << getBinaryOpSpelling(binary.getOp()) << ' ';
    printInline(binary.getRHS(), precedence + 1);
    break;
  }
  case Expr::Kind::Index: {
    const auto &index = cast<IndexExpr>(expr);
    printInline(index.getBase(), Postfix);
    os << '[';
    printInline(index.getIndex());
    os << ']';
    break;
  }
  case Expr::Kind::Call: {
    const auto &call = cast<CallExpr>(expr);
    os << call.getCallee() << '(';
    printInlineList(call.getArgs());
    os << ')';
    break;
  }
  case Expr::Kind::Pull:
    os << "pull ";
    printInline(cast<PullExpr>(expr).getType());
    break;
  case Expr::Kind::Gather:
    os << "gather(";
    printInline(cast<GatherExpr>(expr).getIndex());
    os << ')';
    break;
  }
  if (parens)
    os << ')';
}

void ASTPrinter::printInline(const TypeSpec &type) {
  if (type.isI32) {
    os << "i32";
    return;
  }
  os << "f32[";
  printInlineList(type.dims);
  os << ']';
}

void ASTPrinter::printInlineList(llvm::ArrayRef<ExprPtr> exprs) {
  for (size_t i = 0; i < exprs.size(); ++i) {
    if (i)
      os << ", ";
    printInline(*exprs[i]);
  }
}

void ASTPrinter::print(const ModuleAST &module) {
  os << "Module " << module.name;
  endLine(module.loc);
  ++depth;
  for (const DeclPtr &decl : module.decls)
    print(*decl);
  --depth;
}

void ASTPrinter::print(const Decl &decl) {
  switch (decl.getKind()) {
  case Decl::Kind::Dim: {
    const auto &dim = cast<DimDecl>(decl);
    line() << "DimDecl " << dim.getName() << " = ";
    printInline(dim.getValue());
    endLine(dim.getLoc());
    return;
  }
  case Decl::Kind::State:
    line() << "StateDecl ";
    printInline(cast<StateDecl>(decl).getType());
    endLine(decl.getLoc());
    return;
  case Decl::Kind::Param: {
    const auto &param = cast<ParamDecl>(decl);
    line() << "ParamDecl " << param.getName() << " : ";
    printInline(param.getType());
    os << " = " << getInitKindName(param.getInit());
    if (!param.getInitArgs().empty()) {
      os << '(';
      printInlineList(param.getInitArgs());
      os << ')';
    }
    endLine(param.getLoc());
    return;
  }
  case Decl::Kind::Vertex: {
    const auto &vertex = cast<VertexDecl>(decl);
    line() << "VertexDecl " << vertex.getName() << " arity=";
    printInline(vertex.getArity());
    endLine(vertex.getLoc());
    printChildren(vertex.getBody());
    return;
  }
  }
}

void ASTPrinter::printChildren(llvm::ArrayRef<StmtPtr> body) {
  ++depth;
  for (const StmtPtr &stmt : body)
    print(*stmt);
  --depth;
}

void ASTPrinter::print(const Stmt &stmt) {
  const Expr *child = nullptr;
  switch (stmt.getKind()) {
  case Stmt::Kind::Assign: {
    const auto &assign = cast<AssignStmt>(stmt);
    line() << "Assign [";
    llvm::ArrayRef<AssignTarget> targets = assign.getTargets();
    for (size_t i = 0; i < targets.size(); ++i) {
      os << (i ? ", " : "") << targets[i].name;
      if (targets[i].index) {
        os << '[';
        printInline(*targets[i].index);
        os << ']';
      }
    }
    os << ']';
    child = &assign.getValue();
    break;
  }
  case Stmt::Kind::For: {
    const auto &loop = cast<ForStmt>(stmt);
    line() << "For " << loop.getVar() << " in ";
    printInline(loop.getBegin());
    os << "..";
    printInline(loop.getEnd());
    endLine(loop.getLoc());
    printChildren(loop.getBody());
    return;
  }
  case Stmt::Kind::Scatter:
    line() << "Scatter";
    child = &cast<ScatterStmt>(stmt).getValue();
    break;
  case Stmt::Kind::Push: {
    const auto &push = cast<PushStmt>(stmt);
    line() << "Push " << push.getName();
    child = push.getValue();
    break;
  }
  case Stmt::Kind::Loss:
    line() << "Loss";
    child = &cast<LossStmt>(stmt).getValue();
    break;
  }
  endLine(stmt.getLoc());
  if (child) {
    ++depth;
    print(*child);
    --depth;
  }
}

void ASTPrinter::print(const Expr &expr) {
  llvm::SmallVector<const Expr *, 3> children;
  switch (expr.getKind()) {
  case Expr::Kind::Number:
    line() << "Number " << cast<NumberExpr>(expr).getSpelling();
    break;
  case Expr::Kind::Name:
    line() << "Name " << cast<NameExpr>(expr).getName();
    break;
  case Expr::Kind::Neg:
    line() << "Neg";
    children.push_back(&cast<NegExpr>(expr).getOperand());
    break;
  case Expr::Kind::Binary: {
    const auto &binary = cast<BinaryExpr>(expr);
    line() << "Binary " << getBinaryOpSpelling(binary.getOp());
    children.push_back(&binary.getLHS());
    children.push_back(&binary.getRHS());
    break;
  }
  case Expr::Kind::Index: {
    const auto &index = cast<IndexExpr>(expr);
    line() << "Index [";
    printInline(index.getIndex());
    os << ']';
    children.push_back(&index.getBase());
    break;
  }
  case Expr::Kind::Call: {
    const auto &call = cast<CallExpr>(expr);
    line() << "Call " << call.getCallee();
    for (const ExprPtr &arg : call.getArgs())
      children.push_back(arg.get());
    break;
  }
  case Expr::Kind::Pull:
    line() << "Pull ";
    printInline(cast<PullExpr>(expr).getType());
    break;
  case Expr::Kind::Gather:
    line() << "Gather ";
    printInline(cast<GatherExpr>(expr).getIndex());
    break;
  }
  endLine(expr.getLoc());
  ++depth;
  for (const Expr *child : children)
    print(*child);
  --depth;
}

void cavs::dumpAST(const ModuleAST &module, const llvm::SourceMgr &sourceMgr,
                   llvm::raw_ostream &os) {
  ASTPrinter(sourceMgr, os).print(module);
}
