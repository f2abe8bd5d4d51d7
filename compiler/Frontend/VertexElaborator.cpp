//===- VertexElaborator.cpp - statements, names and emission --------------===//
//
// The statement half of VertexElaborator: scopes and assignment rules, loop
// unrolling, the vertex primitives (pull, scatter, push, loss) and the
// instruction emitter. Expressions are in VertexElaboratorExpr.cpp.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/VertexElaborator.h"

#include "compiler/Frontend/ConstEval.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/Casting.h"

using namespace cavs;
using namespace cavs::checked;
using llvm::cast;
using llvm::dyn_cast;

VertexElaborator::VertexElaborator(const VertexDecl &decl, int64_t arity,
                                   const ModuleSymbols &symbols,
                                   const checked::Model &model,
                                   bool stateDeclared, DiagEngine &diag)
    : decl(decl), arity(arity), symbols(symbols), model(model),
      stateDeclared(stateDeclared), diag(diag) {}

VertexFunction VertexElaborator::run() {
  function.name = decl.getName().str();
  function.arity = arity;
  function.loc = decl.getNameLoc();
  scopes.emplace_back();
  elaborateBlock(decl.getBody());
  if (stateDeclared && !firstScatterLoc.isValid() && !aborted)
    diag.error(decl.getNameLoc(), "vertex function '" + decl.getName() +
                                      "' does not scatter the state");
  return std::move(function);
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

void VertexElaborator::elaborateBlock(llvm::ArrayRef<StmtPtr> body) {
  for (const StmtPtr &stmt : body) {
    if (aborted || diag.shouldStop())
      return;
    elaborateStmt(*stmt);
  }
}

void VertexElaborator::elaborateStmt(const Stmt &stmt) {
  switch (stmt.getKind()) {
  case Stmt::Kind::Assign:
    return elaborateAssign(cast<AssignStmt>(stmt));
  case Stmt::Kind::For:
    return elaborateFor(cast<ForStmt>(stmt));
  case Stmt::Kind::Scatter:
    return elaborateScatter(cast<ScatterStmt>(stmt));
  case Stmt::Kind::Push:
    return elaboratePush(cast<PushStmt>(stmt));
  case Stmt::Kind::Loss:
    return elaborateLoss(cast<LossStmt>(stmt));
  }
}

void VertexElaborator::elaborateAssign(const AssignStmt &stmt) {
  const Expr &value = stmt.getValue();
  if (const auto *pull = dyn_cast<PullExpr>(&value))
    return elaboratePullAssign(stmt, *pull);
  if (const auto *call = dyn_cast<CallExpr>(&value))
    if (call->getCallee() == "split")
      return elaborateSplitAssign(stmt, *call);

  llvm::ArrayRef<AssignTarget> targets = stmt.getTargets();
  if (targets.size() != 1) {
    diag.error(targets[1].loc, "only 'split' can be assigned to several names");
    for (const AssignTarget &target : targets)
      assign(target, Operand());
    return;
  }
  assign(targets.front(), elaborate(value));
}

/// `name = pull TYPE;` declares the external input `name`.
void VertexElaborator::elaboratePullAssign(const AssignStmt &stmt,
                                           const PullExpr &pull) {
  llvm::ArrayRef<AssignTarget> targets = stmt.getTargets();
  if (targets.size() != 1 || targets.front().index) {
    reportMisplacedPull(pull.getLoc());
    for (const AssignTarget &target : targets)
      assign(target, Operand());
    return;
  }
  const AssignTarget &target = targets.front();
  // A loop body's temporaries are new in every iteration, but the input
  // they would pull is the same tensor.
  auto [it, inserted] = pulls.try_emplace(target.name, pull.getLoc());
  if (!inserted) {
    if (it->second == pull.getLoc()) {
      diag.error(pull.getLoc(), "'pull' in a loop would pull '" + target.name +
                                    "' once per iteration; pull it before "
                                    "the loop");
    } else {
      // The name keeps the first pull: assigning it again would also say
      // "redefinition of 'x'" for this one mistake.
      diag.error(pull.getLoc(), "duplicate pull '" + target.name + "'");
      diag.note(it->second, "previous pull of '" + target.name + "' is here");
      return;
    }
    return assign(target, Operand());
  }
  std::optional<Type> type = evaluateType(
      pull.getType(), [&](const NameExpr &name) { return resolveInt(name); },
      diag);
  if (type && type->getRank() > 1) {
    diag.error(pull.getType().loc,
               "'pull' expects i32, f32[] or f32[n], got " + type->str());
    type = std::nullopt;
  }
  if (!type)
    return assign(target, Operand());
  Instruction &inst = emit(OpKind::Pull, pull.getLoc(), {}, *type);
  inst.name = target.name.str();
  assign(target, Operand::single(inst.results.front()));
}

/// `a, b, c = split(x, 3);` binds the equal parts of x to the names.
void VertexElaborator::elaborateSplitAssign(const AssignStmt &stmt,
                                            const CallExpr &split) {
  llvm::ArrayRef<AssignTarget> targets = stmt.getTargets();
  auto fail = [&] {
    for (const AssignTarget &target : targets)
      assign(target, Operand());
  };
  if (!checkArgCount(split, 2, 2))
    return fail();
  llvm::ArrayRef<ExprPtr> args = split.getArgs();
  Operand input = elaborate(*args[0]);
  std::optional<int64_t> parts = evaluateInt(*args[1]);
  std::optional<ValueId> vector =
      expectValue(input, args[0]->getLoc(), "'split' expects an f32 vector",
                  [](const Type &type) { return type.isF32Vector(); });
  if (!vector || !parts)
    return fail();
  if (*parts <= 0) {
    diag.error(args[1]->getLoc(),
               "'split' needs a positive number of parts, got " +
                   llvm::Twine(*parts));
    return fail();
  }
  if (static_cast<uint64_t>(*parts) != targets.size()) {
    diag.error(split.getLoc(), "'split' into " + llvm::Twine(*parts) +
                                   " parts is assigned to " +
                                   llvm::Twine(targets.size()) +
                                   (targets.size() == 1 ? " name" : " names"));
    return fail();
  }
  int64_t size = typeOf(*vector).shape.front();
  if (size % *parts != 0) {
    diag.error(split.getLoc(), "'split' cannot divide " +
                                   typeOf(*vector).str() + " into " +
                                   llvm::Twine(*parts) + " equal parts");
    return fail();
  }
  llvm::SmallVector<Type, 4> resultTypes(targets.size(),
                                         Type::f32({size / *parts}));
  llvm::SmallVector<ValueId, 1> results =
      emit(OpKind::Split, split.getLoc(), *vector, resultTypes).results;
  for (size_t i = 0; i < targets.size(); ++i)
    assign(targets[i], Operand::single(results[i]));
}

void VertexElaborator::elaborateFor(const ForStmt &stmt) {
  std::optional<int64_t> begin = evaluateInt(stmt.getBegin());
  std::optional<int64_t> end = evaluateInt(stmt.getEnd());
  llvm::StringRef var = stmt.getVar();
  bool badVariable = reportShadowing(var, stmt.getVarLoc(), "loop variable");
  if (!badVariable)
    if (const Local *previous = lookupLocal(var)) {
      diag.error(stmt.getVarLoc(), "redefinition of '" + var + "'");
      diag.note(previous->loc, "previous definition is here");
      badVariable = true;
    }
  if (!begin || !end)
    return;
  if (*begin >= *end)
    noteArraysOfEmptyLoop(stmt.getBody(), stmt.getLoc());
  loopsWithBadVariable += badVariable;
  auto restore =
      llvm::make_scope_exit([&] { loopsWithBadVariable -= badVariable; });
  for (int64_t i = *begin; i < *end && !aborted && !diag.shouldStop(); ++i) {
    if (!charge(stmt.getLoc()))
      return;
    Local loopVar(Local::Kind::LoopVar, stmt.getVarLoc());
    loopVar.loopValue = i;
    scopes.emplace_back();
    scopes.back().try_emplace(var, std::move(loopVar));
    elaborateBlock(stmt.getBody());
    scopes.pop_back();
  }
}

void VertexElaborator::noteArraysOfEmptyLoop(llvm::ArrayRef<StmtPtr> body,
                                             llvm::SMLoc loopLoc) {
  for (const StmtPtr &stmt : body) {
    if (const auto *assign = llvm::dyn_cast<AssignStmt>(stmt.get()))
      for (const AssignTarget &target : assign->getTargets())
        if (target.index)
          arraysOfEmptyLoops.try_emplace(target.name, loopLoc);
    if (const auto *loop = llvm::dyn_cast<ForStmt>(stmt.get()))
      noteArraysOfEmptyLoop(loop->getBody(), loopLoc);
  }
}

void VertexElaborator::elaborateScatter(const ScatterStmt &stmt) {
  if (firstScatterLoc == stmt.getLoc()) {
    diag.error(stmt.getLoc(), "'scatter' in a loop would scatter once per "
                              "iteration; a vertex function scatters once");
    return;
  }
  if (firstScatterLoc.isValid()) {
    diag.error(stmt.getLoc(), "'scatter' used twice in vertex function '" +
                                  decl.getName() + "'");
    diag.note(firstScatterLoc, "first 'scatter' is here");
    return;
  }
  firstScatterLoc = stmt.getLoc();
  if (!model.state) {
    // A state declaration with an error was reported already.
    if (!stateDeclared)
      diag.error(stmt.getLoc(), "'scatter' needs a 'state' declaration");
    return;
  }
  const Type &state = *model.state;
  std::optional<ValueId> value =
      expectValue(elaborate(stmt.getValue()), stmt.getValue().getLoc(),
                  "'scatter' expects the state type " + state.str(),
                  [&](const Type &type) { return type == state; });
  if (value)
    emit(OpKind::Scatter, stmt.getLoc(), *value, {});
}

void VertexElaborator::elaboratePush(const PushStmt &stmt) {
  llvm::StringRef name = stmt.getName();
  auto [it, inserted] = pushes.try_emplace(name, stmt.getNameLoc());
  if (!inserted) {
    if (it->second == stmt.getNameLoc()) {
      diag.error(stmt.getNameLoc(), "'push' in a loop would push '" + name +
                                        "' once per iteration; push it "
                                        "after the loop");
    } else {
      diag.error(stmt.getNameLoc(), "duplicate push '" + name + "'");
      diag.note(it->second, "previous push of '" + name + "' is here");
    }
    return;
  }
  const Expr *valueExpr = stmt.getValue();
  Operand operand = valueExpr ? elaborate(*valueExpr)
                              : elaborateName(name, stmt.getNameLoc());
  llvm::SMLoc where = valueExpr ? valueExpr->getLoc() : stmt.getNameLoc();
  std::optional<ValueId> value =
      expectValue(operand, where, "'push' expects an f32 value",
                  [](const Type &type) { return type.isF32(); });
  if (!value)
    return;
  nameValue(*value, name);
  emit(OpKind::Push, stmt.getLoc(), *value, {}).name = name.str();
}

void VertexElaborator::elaborateLoss(const LossStmt &stmt) {
  std::optional<ValueId> value =
      expectValue(elaborate(stmt.getValue()), stmt.getValue().getLoc(),
                  "loss expects a scalar f32",
                  [](const Type &type) { return type.isF32Scalar(); });
  if (value)
    emit(OpKind::Loss, stmt.getLoc(), *value, {});
}

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

VertexElaborator::Local *VertexElaborator::lookupLocal(llvm::StringRef name) {
  for (auto scope = scopes.rbegin(); scope != scopes.rend(); ++scope) {
    auto it = scope->find(name);
    if (it != scope->end())
      return &it->second;
  }
  return nullptr;
}

bool VertexElaborator::reportShadowing(llvm::StringRef name, llvm::SMLoc loc,
                                       llvm::StringRef what) {
  const ModuleSymbol *symbol = symbols.lookup(name);
  if (!symbol)
    return false;
  diag.error(loc, what + " '" + name + "' shadows a " + symbol->describeKind());
  diag.note(symbol->loc, "'" + name + "' is declared here");
  return true;
}

void VertexElaborator::assign(const AssignTarget &target,
                              const Operand &value) {
  if (!target.index)
    return assignName(target.name, target.loc, value);
  assignElement(target.name, target.loc, evaluateInt(*target.index), value);
}

/// Plain names are defined in the innermost scope, so a loop body may define
/// the same temporary in every iteration; a name never changes its value.
void VertexElaborator::assignName(llvm::StringRef name, llvm::SMLoc loc,
                                  const Operand &value) {
  if (const Local *previous = lookupLocal(name)) {
    diag.error(loc, "redefinition of '" + name + "'");
    diag.note(previous->loc, "previous definition is here");
    return;
  }
  if (reportShadowing(name, loc, "local")) {
    // Poisoned, so neither reading it nor the global it hides produces
    // follow-on errors.
    scopes.back().try_emplace(name, Local(Local::Kind::Poison, loc));
    return;
  }
  Local local(Local::Kind::Poison, loc);
  if (value.kind == Operand::Kind::Value) {
    local.kind = Local::Kind::Value;
    local.value = value.value;
    nameValue(value.value, name);
  } else if (value.isArray()) {
    // A whole array bound to a name is complete from the start.
    local.kind = Local::Kind::Array;
    local.wholeUseLoc = loc;
    for (size_t i = 0; i < value.elements.size(); ++i) {
      local.elements[i] = {value.elements[i], loc};
      nameValue(value.elements[i], name + "[" + llvm::Twine(i) + "]");
    }
  }
  scopes.back().try_emplace(name, std::move(local));
}

/// Arrays always live in the function scope, so elements assigned inside a
/// loop are visible after it.
void VertexElaborator::assignElement(llvm::StringRef name, llvm::SMLoc loc,
                                     std::optional<int64_t> index,
                                     const Operand &value) {
  Local *array = lookupLocal(name);
  if (array && array->kind != Local::Kind::Array) {
    if (array->kind != Local::Kind::Poison) {
      diag.error(loc, "'" + name + "' is not an array");
      diag.note(array->loc, "'" + name + "' is defined here");
    }
    return;
  }
  if (!array) {
    bool shadows = reportShadowing(name, loc, "local");
    Local::Kind kind = shadows ? Local::Kind::Poison : Local::Kind::Array;
    array = &scopes.front().try_emplace(name, Local(kind, loc)).first->second;
    if (shadows)
      return;
  }
  if (index && *index < 0) {
    diag.error(loc, "array index " + llvm::Twine(*index) + " is negative");
    index = std::nullopt;
  }
  if (!index) {
    array->incomplete = true;
    return;
  }
  std::string element = (name + "[" + llvm::Twine(*index) + "]").str();
  if (array->wholeUseLoc.isValid()) {
    diag.error(loc, "cannot assign '" + element + "' after array '" + name +
                        "' was used as a whole");
    diag.note(array->wholeUseLoc, "'" + name + "' is used as a whole here");
    return;
  }
  auto [it, inserted] = array->elements.try_emplace(*index);
  if (!inserted && loopsWithBadVariable > 0)
    return;
  if (!inserted) {
    diag.error(loc, "redefinition of '" + element + "'");
    diag.note(it->second.loc, "previous definition is here");
    return;
  }
  it->second.loc = loc;
  if (value.isArray()) {
    diag.error(loc, "cannot assign an array to the element '" + element + "'");
  } else if (!value.isError()) {
    it->second.value = value.value;
    nameValue(value.value, element);
  }
}

std::optional<int64_t> VertexElaborator::evaluateInt(const Expr &expr) {
  return cavs::evaluateInt(
      expr, [&](const NameExpr &name) { return resolveInt(name); }, diag);
}

std::optional<int64_t> VertexElaborator::resolveInt(const NameExpr &name) {
  llvm::StringRef spelling = name.getName();
  if (spelling == "arity")
    return arity;
  if (const Local *local = lookupLocal(spelling)) {
    if (local->kind == Local::Kind::LoopVar)
      return local->loopValue;
    if (local->kind != Local::Kind::Poison)
      diag.error(name.getLoc(),
                 "'" + spelling + "' is not a compile-time integer");
    return std::nullopt;
  }
  return symbols.resolveInt(name, diag);
}

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//

bool VertexElaborator::charge(llvm::SMLoc loc, size_t units) {
  if (aborted)
    return false;
  unrolledSize += units;
  if (unrolledSize <= kMaxUnrolledSize)
    return true;
  // Counted in instructions, operands and loop iterations, so a long
  // expression without loops reaches it too.
  diag.error(loc, "vertex function '" + decl.getName() +
                      "' is too large: it unrolls to more than " +
                      llvm::Twine(kMaxUnrolledSize) +
                      " operations (instructions, their operands and loop "
                      "iterations)");
  aborted = true;
  return false;
}

Instruction &VertexElaborator::emit(OpKind kind, llvm::SMLoc loc,
                                    llvm::ArrayRef<ValueId> operands,
                                    llvm::ArrayRef<Type> resultTypes) {
  // Past the limit the instruction is still emitted, keeping the function
  // well-formed; the statement loop stops right after.
  charge(loc, 1 + operands.size());
  Instruction inst;
  inst.kind = kind;
  inst.loc = loc;
  inst.operands.assign(operands.begin(), operands.end());
  for (const Type &type : resultTypes) {
    inst.results.push_back(function.values.size());
    function.values.push_back({type, ""});
  }
  function.instructions.push_back(std::move(inst));
  return function.instructions.back();
}

ValueId VertexElaborator::emitValue(OpKind kind, llvm::SMLoc loc,
                                    llvm::ArrayRef<ValueId> operands,
                                    Type resultType) {
  return emit(kind, loc, operands, resultType).results.front();
}

void VertexElaborator::nameValue(ValueId value, const llvm::Twine &name) {
  std::string &current = function.values[value].name;
  if (current.empty())
    current = name.str();
}
