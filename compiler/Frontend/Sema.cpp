//===- Sema.cpp - semantic checks of a .cavs model ------------------------===//
//
// Module-level checks in dependency order: names, dims (forward references
// allowed, cycles reported), -D overrides, the state, parameters, then each
// vertex function, and finally the agreement of pull and push types across
// vertex functions.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/Sema.h"

#include "compiler/Frontend/ConstEval.h"
#include "compiler/Frontend/Symbols.h"
#include "compiler/Frontend/VertexElaborator.h"

#include "cavs/graph.h"
#include "cavs/model.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <limits>

using namespace cavs;
using namespace cavs::checked;
using llvm::cast;
using llvm::dyn_cast;

namespace {

/// A dim during evaluation.
struct DimNode {
  DimNode(const DimDecl *decl, ModuleSymbol *symbol)
      : decl(decl), symbol(symbol) {}

  const DimDecl *decl;
  ModuleSymbol *symbol;
  /// The -D value replacing the declared expression, if any.
  std::optional<int64_t> override;
  /// The dims the expression refers to, with where.
  llvm::SmallVector<std::pair<unsigned, llvm::SMLoc>, 2> deps;
  /// Already reported as the head of a cycle.
  bool reportedCycle = false;
};

class ModuleChecker {
public:
  ModuleChecker(const ModuleAST &module, llvm::ArrayRef<DimOverride> overrides,
                DiagEngine &diag)
      : module(module), overrides(overrides), diag(diag) {}

  std::optional<checked::Model> run();

private:
  void checkModelName();
  void declareNames();
  void applyOverrides();
  void evaluateDims();
  void reportCycle(llvm::ArrayRef<std::pair<unsigned, llvm::SMLoc>> path);
  void checkState();
  void checkParams();
  std::optional<Initializer> checkInitializer(const ParamDecl &decl,
                                              const Type &type);
  void checkVertexFunctions();
  void checkExternalValues();

  /// Evaluates a compile-time integer or type outside vertex functions,
  /// where only dims are integers.
  std::optional<int64_t> evaluate(const Expr &expr) {
    return evaluateInt(
        expr,
        [&](const NameExpr &name) { return symbols.resolveInt(name, diag); },
        diag);
  }
  std::optional<Type> evaluate(const TypeSpec &spec) {
    return evaluateType(
        spec,
        [&](const NameExpr &name) { return symbols.resolveInt(name, diag); },
        diag);
  }

  const ModuleAST &module;
  llvm::ArrayRef<DimOverride> overrides;
  DiagEngine &diag;
  checked::Model model;
  ModuleSymbols symbols;
  std::vector<DimNode> dims;
  llvm::StringMap<unsigned> dimIndex;
  std::vector<std::pair<const ParamDecl *, ModuleSymbol *>> params;
  std::vector<const VertexDecl *> vertices;
  const StateDecl *stateDecl = nullptr;
};

} // namespace

std::optional<checked::Model> ModuleChecker::run() {
  model.modelName = module.name.str();
  model.loc = module.nameLoc;
  checkModelName();
  declareNames();
  applyOverrides();
  evaluateDims();
  checkState();
  checkParams();
  checkVertexFunctions();
  checkExternalValues();
  if (diag.hadError())
    return std::nullopt;
  return std::move(model);
}

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

/// Whether `name` is a keyword of C (C23) or C++ (C++23), alternative
/// tokens included: the generated header names a C++ class after the model.
static bool isCOrCppKeyword(llvm::StringRef name) {
  static const llvm::StringSet<> keywords = {
      "alignas", "alignof", "and", "and_eq", "asm", "atomic_cancel",
      "atomic_commit", "atomic_noexcept", "auto", "bitand", "bitor", "bool",
      "break", "case", "catch", "char", "char8_t", "char16_t", "char32_t",
      "class", "compl", "concept", "const", "consteval", "constexpr",
      "constinit", "const_cast", "continue", "co_await", "co_return",
      "co_yield", "decltype", "default", "delete", "do", "double",
      "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false",
      "float", "for", "friend", "goto", "if", "inline", "int", "long",
      "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr",
      "operator", "or", "or_eq", "private", "protected", "public", "reflexpr",
      "register", "reinterpret_cast", "requires", "restrict", "return",
      "short", "signed", "sizeof", "static", "static_assert", "static_cast",
      "struct", "switch", "synchronized", "template", "this", "thread_local",
      "throw", "true", "try", "typedef", "typeid", "typename", "typeof",
      "typeof_unqual", "union", "unsigned", "using", "virtual", "void",
      "volatile", "wchar_t", "while", "xor", "xor_eq", "_Alignas",
      "_Alignof", "_Atomic", "_BitInt", "_Bool", "_Complex", "_Decimal32",
      "_Decimal64", "_Decimal128", "_Generic", "_Imaginary", "_Noreturn",
      "_Static_assert", "_Thread_local"};
  return keywords.contains(name);
}

void ModuleChecker::checkModelName() {
  llvm::StringRef name = module.name;
  // The names the header itself uses (cavs/instance.h, cavs/runtime.hpp)
  // and those C and C++ reserve to the implementation.
  static const llvm::StringSet<> headerNames = {
      "cavs", "cavs_models", "std", "uint64_t", "int64_t", "int32_t", "size_t",
      // Macros of the C library that a translation unit may include first,
      // and those GCC and Clang predefine outside strict ISO modes.
      "errno", "assert", "stdin", "stdout", "stderr", "offsetof", "unix",
      "linux",
      // Lower-case macros that the header's own C++ includes bring in
      // (glibc and libstdc++: `g++ -dM -E` of cavs/runtime.hpp), and those
      // of <cstdarg>, <csetjmp> and <cmath>: the class's constructors
      // `NAME(...)` would expand them.
      "alloca", "strdupa", "strndupa", "htobe16", "htole16", "be16toh",
      "le16toh", "htobe32", "htole32", "be32toh", "le32toh", "htobe64",
      "htole64", "be64toh", "le64toh", "pthread_cleanup_push",
      "pthread_cleanup_pop", "pthread_cleanup_push_defer_np",
      "pthread_cleanup_pop_restore_np", "sched_priority", "va_start", "va_arg",
      "va_end", "va_copy", "setjmp", "sigsetjmp", "math_errhandling",
      "issubnormal",
      // glibc's <sys/time.h>, <sys/param.h> and <sys/sysmacros.h>, which
      // C++ programs commonly include before the header.
      "timeradd", "timersub", "timerclear", "timerisset", "timercmp", "setbit",
      "clrbit", "isset", "isclr", "howmany", "roundup", "powerof2", "major",
      "minor", "makedev"};
  // Names without a lower-case letter are the C library's macros' style,
  // and too many of them (INT32_MAX, EXIT_SUCCESS, SEEK_SET, INFINITY,
  // CHAR_BIT) reach a translation unit through the headers to list.
  const bool macroStyle = llvm::none_of(name, llvm::isLower);
  bool taken = headerNames.contains(name) ||
               name.lower().rfind("cavs_", 0) == 0 || name.contains("__") ||
               (name.size() > 1 && name[0] == '_' && llvm::isUpper(name[1])) ||
               name.ends_with("_t") || macroStyle;
  if (isCOrCppKeyword(name))
    diag.error(module.nameLoc, "model name '" + name +
                                   "' is a C or C++ keyword; the generated "
                                   "header names a class and functions after "
                                   "the model");
  else if (taken)
    diag.error(module.nameLoc,
               "model name '" + name +
                   "' is taken by the runtime's or the C++ library's names "
                   "(cavs, cavs_* and CAVS_* in any case, cavs_models, std, "
                   "errno, assert, unix, ...), in the style of macros (no "
                   "lower-case letter: NULL, SEEK_SET) or reserved (__, _ and "
                   "a capital, _t at the end); the generated header names a "
                   "class and functions after the model");
}

void ModuleChecker::declareNames() {
  llvm::StringMap<llvm::SMLoc> vertexNames;
  for (const DeclPtr &decl : module.decls) {
    if (const auto *dim = dyn_cast<DimDecl>(decl.get())) {
      ModuleSymbol *symbol = symbols.declare(
          dim->getName(), ModuleSymbol::Kind::Dim, dim->getNameLoc(), diag);
      if (symbol) {
        dimIndex[dim->getName()] = dims.size();
        dims.emplace_back(dim, symbol);
      }
    } else if (const auto *param = dyn_cast<ParamDecl>(decl.get())) {
      ModuleSymbol *symbol =
          symbols.declare(param->getName(), ModuleSymbol::Kind::Param,
                          param->getNameLoc(), diag);
      if (symbol)
        params.push_back({param, symbol});
    } else if (const auto *vertex = dyn_cast<VertexDecl>(decl.get())) {
      auto [it, inserted] =
          vertexNames.try_emplace(vertex->getName(), vertex->getNameLoc());
      if (inserted) {
        vertices.push_back(vertex);
        continue;
      }
      diag.error(vertex->getNameLoc(),
                 "redefinition of vertex function '" + vertex->getName() + "'");
      diag.note(it->second, "previous definition is here");
    } else {
      const auto *state = cast<StateDecl>(decl.get());
      if (!stateDecl) {
        stateDecl = state;
        continue;
      }
      diag.error(state->getLoc(), "duplicate 'state' declaration");
      diag.note(stateDecl->getLoc(), "previous declaration is here");
    }
  }
  // Parameters and vertex functions are both symbols of the model's IR.
  for (const VertexDecl *vertex : vertices) {
    const ModuleSymbol *symbol = symbols.lookup(vertex->getName());
    if (!symbol || symbol->kind != ModuleSymbol::Kind::Param)
      continue;
    diag.error(vertex->getNameLoc(), "vertex function '" + vertex->getName() +
                                         "' has the name of a parameter");
    diag.note(symbol->loc, "parameter '" + vertex->getName() +
                               "' is declared here");
  }
  if (vertices.empty())
    diag.error(module.nameLoc.isValid() ? module.nameLoc : module.loc,
               "model '" + module.name + "' has no vertex function");
}

/// -D errors have no source location: they print as `cavsc: error: ...`.
void ModuleChecker::applyOverrides() {
  for (const DimOverride &override : overrides) {
    auto it = dimIndex.find(override.name);
    if (it == dimIndex.end()) {
      diag.error(llvm::SMLoc(), "bad -D '" + override.spelling +
                                    "': the model has no dim '" +
                                    override.name + "'");
      continue;
    }
    dims[it->second].override = override.value;
  }
}

//===----------------------------------------------------------------------===//
// Dims
//===----------------------------------------------------------------------===//

/// Appends every name used in `expr`.
static void collectNames(const Expr &expr,
                         llvm::SmallVectorImpl<const NameExpr *> &names) {
  switch (expr.getKind()) {
  case Expr::Kind::Number:
  case Expr::Kind::Pull:
    return;
  case Expr::Kind::Name:
    names.push_back(cast<NameExpr>(&expr));
    return;
  case Expr::Kind::Neg:
    return collectNames(cast<NegExpr>(expr).getOperand(), names);
  case Expr::Kind::Binary:
    collectNames(cast<BinaryExpr>(expr).getLHS(), names);
    return collectNames(cast<BinaryExpr>(expr).getRHS(), names);
  case Expr::Kind::Index:
    collectNames(cast<IndexExpr>(expr).getBase(), names);
    return collectNames(cast<IndexExpr>(expr).getIndex(), names);
  case Expr::Kind::Call:
    for (const ExprPtr &arg : cast<CallExpr>(expr).getArgs())
      collectNames(*arg, names);
    return;
  case Expr::Kind::Gather:
    return collectNames(cast<GatherExpr>(expr).getIndex(), names);
  }
}

/// Orders the dims so each comes after those it uses (an iterative
/// depth-first search, so long chains of dims cannot overflow the stack),
/// reports cycles, then evaluates them in that order. Dims on a cycle find
/// their dependencies unevaluated and silently stay without a value.
void ModuleChecker::evaluateDims() {
  for (DimNode &node : dims) {
    if (node.override)
      continue;
    llvm::SmallVector<const NameExpr *, 4> names;
    collectNames(node.decl->getValue(), names);
    for (const NameExpr *name : names) {
      auto it = dimIndex.find(name->getName());
      if (it != dimIndex.end())
        node.deps.push_back({it->second, name->getLoc()});
    }
  }

  enum class Mark { None, Active, Done };
  std::vector<Mark> marks(dims.size(), Mark::None);
  std::vector<unsigned> order;
  // The active path: each dim with the index of its next dependency.
  std::vector<std::pair<unsigned, unsigned>> path;
  for (unsigned root = 0; root < dims.size(); ++root) {
    if (marks[root] != Mark::None)
      continue;
    marks[root] = Mark::Active;
    path.push_back({root, 0});
    while (!path.empty()) {
      auto &[dim, next] = path.back();
      if (next == dims[dim].deps.size()) {
        marks[dim] = Mark::Done;
        order.push_back(dim);
        path.pop_back();
        continue;
      }
      unsigned dep = dims[dim].deps[next++].first;
      if (marks[dep] == Mark::None) {
        marks[dep] = Mark::Active;
        path.push_back({dep, 0});
      } else if (marks[dep] == Mark::Active && !dims[dep].reportedCycle &&
                 !diag.shouldStop()) {
        // The cycle is the part of the path from `dep` on.
        auto start = llvm::find_if(
            path, [&](const auto &entry) { return entry.first == dep; });
        llvm::SmallVector<std::pair<unsigned, llvm::SMLoc>, 8> cycle;
        for (auto it = start; it != path.end(); ++it)
          cycle.push_back(
              {it->first, dims[it->first].deps[it->second - 1].second});
        reportCycle(cycle);
      }
    }
  }

  for (unsigned index : order) {
    DimNode &node = dims[index];
    std::optional<int64_t> value = node.override;
    if (!value) {
      value = evaluate(node.decl->getValue());
      if (value && *value <= 0) {
        diag.error(node.decl->getNameLoc(), "dim '" + node.decl->getName() +
                                                "' must be positive, got " +
                                                llvm::Twine(*value));
        value = std::nullopt;
      }
    }
    node.symbol->dimValue = value;
  }
  for (const DimNode &node : dims)
    if (node.symbol->dimValue)
      model.dims.push_back({node.decl->getName().str(), *node.symbol->dimValue,
                            node.decl->getNameLoc()});
}

/// `path` lists the dims on the cycle, each with where it uses the next one
/// (the last uses the first).
void ModuleChecker::reportCycle(
    llvm::ArrayRef<std::pair<unsigned, llvm::SMLoc>> path) {
  DimNode &head = dims[path.front().first];
  head.reportedCycle = true;
  diag.error(head.decl->getNameLoc(),
             "cyclic dim '" + head.decl->getName() + "'");
  for (size_t i = 0; i < path.size(); ++i) {
    const DimDecl *user = dims[path[i].first].decl;
    const DimDecl *used = dims[path[(i + 1) % path.size()].first].decl;
    diag.note(path[i].second,
              "'" + user->getName() + "' uses '" + used->getName() + "' here");
  }
}

//===----------------------------------------------------------------------===//
// State and parameters
//===----------------------------------------------------------------------===//

void ModuleChecker::checkState() {
  if (!stateDecl)
    return;
  const TypeSpec &spec = stateDecl->getType();
  std::optional<Type> type = evaluate(spec);
  if (type && !type->isF32Vector()) {
    diag.error(spec.loc, "state must be an f32 vector, got " + type->str());
    return;
  }
  model.state = type;
}

void ModuleChecker::checkParams() {
  // As the runtime lays them out: each tensor with one alignment of padding.
  int64_t layoutElements = 0;
  bool pastLimit = false;
  for (auto [decl, symbol] : params) {
    const TypeSpec &spec = decl->getType();
    std::optional<Type> type = evaluate(spec);
    if (!type)
      continue;
    if (type->isI32() || type->getRank() < 1 || type->getRank() > 2) {
      diag.error(spec.loc, "parameter '" + decl->getName() +
                               "' must be an f32 of rank 1 or 2, got " +
                               type->str());
      continue;
    }
    std::optional<int64_t> elements = 1;
    for (int64_t extent : type->shape)
      if (elements)
        elements = llvm::checkedMul(*elements, extent);
    std::optional<int64_t> total =
        elements ? llvm::checkedAdd(layoutElements,
                                    *elements + CAVS_PARAM_ALIGNMENT)
                 : std::nullopt;
    if (!total || *total > CAVS_MAX_PARAM_ELEMENTS) {
      if (!pastLimit)
        diag.error(spec.loc,
                   "parameter '" + decl->getName() + "' brings the model's "
                   "parameters past the runtime's limit of 2^56 elements");
      pastLimit = true;
      continue;
    }
    layoutElements = *total;
    std::optional<Initializer> init = checkInitializer(*decl, *type);
    if (!init)
      continue;
    symbol->param = model.params.size();
    model.params.push_back(
        {decl->getName().str(), type->shape, *init, decl->getNameLoc()});
  }
}

static std::string formatFloat(float value) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%g", value);
  return text;
}

std::optional<Initializer>
ModuleChecker::checkInitializer(const ParamDecl &decl, const Type &type) {
  Initializer init;
  init.kind = decl.getInit();
  llvm::StringRef name = getInitKindName(init.kind);
  llvm::SMLoc loc = decl.getInitLoc();
  for (const ExprPtr &arg : decl.getInitArgs()) {
    // The parser only builds a literal or a negated literal here.
    if (const auto *neg = dyn_cast<NegExpr>(arg.get()))
      init.args.push_back(-cast<NumberExpr>(neg->getOperand()).getFloatValue());
    else
      init.args.push_back(cast<NumberExpr>(*arg).getFloatValue());
  }

  size_t expected = getInitKindArgs(init.kind);
  if (init.args.size() != expected) {
    diag.error(loc, "'" + name + "' expects " +
                        (expected == 0 ? std::string("no")
                                       : std::to_string(expected)) +
                        (expected == 1 ? " argument" : " arguments") +
                        ", got " + llvm::Twine(init.args.size()));
    return std::nullopt;
  }
  if (init.kind == InitKind::xavier && type.getRank() != 2) {
    diag.error(loc, "'xavier' needs a rank-2 parameter, got " + type.str());
    return std::nullopt;
  }
  if (init.kind == InitKind::uniform && !(init.args[0] < init.args[1])) {
    diag.error(loc, "'uniform' needs low < high, got " +
                        formatFloat(init.args[0]) + " and " +
                        formatFloat(init.args[1]));
    return std::nullopt;
  }
  if (init.kind == InitKind::normal && !(init.args[1] > 0)) {
    diag.error(loc, "'normal' needs a positive standard deviation, got " +
                        formatFloat(init.args[1]));
    return std::nullopt;
  }
  if (init.kind == InitKind::normal &&
      !(std::fabs(init.args[0]) + CAVS_NORMAL_INIT_DEVIATIONS * init.args[1] <=
        std::numeric_limits<float>::max())) {
    diag.error(loc, "'normal' draws up to 9 standard deviations from the "
                    "mean, past f32 here: |" +
                        formatFloat(init.args[0]) + "| + 9 * " +
                        formatFloat(init.args[1]) +
                        " exceeds 3.4e38 (values would be inf)");
    return std::nullopt;
  }
  return init;
}

//===----------------------------------------------------------------------===//
// Vertex functions
//===----------------------------------------------------------------------===//

void ModuleChecker::checkVertexFunctions() {
  for (const VertexDecl *decl : vertices) {
    if (diag.shouldStop())
      return;
    std::optional<int64_t> arity = evaluate(decl->getArity());
    if (arity && *arity < 0) {
      diag.error(decl->getArity().getLoc(),
                 "arity must be non-negative, got " + llvm::Twine(*arity));
      continue;
    }
    if (arity && *arity > CAVS_MAX_ARITY) {
      diag.error(decl->getArity().getLoc(),
                 "arity " + llvm::Twine(*arity) +
                     " exceeds the runtime's limit of " +
                     llvm::Twine(CAVS_MAX_ARITY));
      continue;
    }
    if (!arity)
      continue;
    VertexElaborator elaborator(*decl, *arity, symbols, model,
                                stateDecl != nullptr, diag);
    model.vertexFunctions.push_back(elaborator.run());
  }
}

/// A pull or push name means one external tensor, so every vertex function
/// using it must agree on its type.
void ModuleChecker::checkExternalValues() {
  struct FirstUse {
    Type type;
    llvm::SMLoc loc;
    llvm::StringRef function;
  };
  llvm::StringMap<FirstUse> pulls, pushes;
  for (const VertexFunction &function : model.vertexFunctions) {
    for (const Instruction &inst : function.instructions) {
      bool isPull = inst.kind == OpKind::Pull;
      if (!isPull && inst.kind != OpKind::Push)
        continue;
      ValueId value = isPull ? inst.results.front() : inst.operands.front();
      const Type &type = function.values[value].type;
      auto [it, inserted] =
          (isPull ? pulls : pushes)
              .try_emplace(inst.name, FirstUse{type, inst.loc, function.name});
      llvm::StringRef what = isPull ? "pull" : "push";
      if (inserted) {
        (isPull ? model.pulls : model.pushes).push_back({inst.name, type});
        continue;
      }
      if (it->second.type == type)
        continue;
      diag.error(inst.loc, what + " '" + inst.name + "' is " + type.str() +
                               " here but " + it->second.type.str() +
                               " in vertex function '" + it->second.function +
                               "'");
      diag.note(it->second.loc,
                "previous " + what + " of '" + inst.name + "' is here");
    }
  }
}

std::optional<checked::Model>
cavs::checkModule(const ModuleAST &module,
                  llvm::ArrayRef<DimOverride> overrides, DiagEngine &diag) {
  return ModuleChecker(module, overrides, diag).run();
}
