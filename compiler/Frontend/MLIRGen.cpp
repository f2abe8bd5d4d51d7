//===- MLIRGen.cpp - checked .cavs model to the cavs dialect --------------===//
//
// One builder per vertex function; every checked instruction becomes one op
// (a MatMul or Lookup also gets the cavs.param_ref of its parameter).
//
//===----------------------------------------------------------------------===//

#include "compiler/Frontend/MLIRGen.h"

#include "compiler/Frontend/CheckedModel.h"
#include "dialects/CavsOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/SourceMgr.h"

using namespace cavs;
using mlir::Value;

namespace {
class Generator {
public:
  Generator(mlir::MLIRContext &context, const llvm::SourceMgr &sourceMgr,
            const checked::Model &model)
      : builder(&context), sourceMgr(sourceMgr), model(model) {}

  mlir::OwningOpRef<mlir::ModuleOp> run() {
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::ModuleOp::create(location(model.loc));
    builder.setInsertionPointToEnd(module->getBody());
    mlir::TypeAttr state;
    if (model.state)
      state = mlir::TypeAttr::get(convert(*model.state));
    auto modelOp =
        builder.create<ModelOp>(location(model.loc), model.modelName, state);
    builder.setInsertionPointToEnd(&modelOp.getBody().emplaceBlock());
    for (const checked::Param &param : model.params)
      emitParam(param);
    for (const checked::VertexFunction &function : model.vertexFunctions)
      emitVertex(function);
    return module;
  }

private:
  mlir::Location location(llvm::SMLoc loc) {
    if (!loc.isValid())
      return builder.getUnknownLoc();
    unsigned buffer = sourceMgr.FindBufferContainingLoc(loc);
    auto [line, column] = sourceMgr.getLineAndColumn(loc, buffer);
    return mlir::FileLineColLoc::get(
        builder.getStringAttr(
            sourceMgr.getMemoryBuffer(buffer)->getBufferIdentifier()),
        line, column);
  }

  mlir::RankedTensorType tensorType(llvm::ArrayRef<int64_t> shape) {
    return mlir::RankedTensorType::get(shape, builder.getF32Type());
  }

  mlir::Type convert(const checked::Type &type) {
    if (type.isI32())
      return builder.getI32Type();
    return tensorType(type.shape);
  }

  void emitParam(const checked::Param &param) {
    llvm::SmallVector<double, 2> args(param.init.args.begin(),
                                      param.init.args.end());
    builder.create<ParamOp>(location(param.loc), param.name,
                            tensorType(param.shape), convert(param.init.kind),
                            args);
  }

  static InitializerKind convert(checked::InitKind kind) {
    switch (kind) {
#define CAVS_INIT_KIND(keyword, NAME, value, args)                             \
  case checked::InitKind::keyword:                                             \
    return InitializerKind::keyword;
#include "cavs/init_kinds.def"
    }
    llvm_unreachable("unknown initializer kind");
  }

  void emitVertex(const checked::VertexFunction &function);
  void emitInstruction(const checked::VertexFunction &function,
                       const checked::Instruction &instruction);
  Value paramRef(unsigned index, mlir::Location loc) {
    const checked::Param &param = model.params[index];
    return builder.create<ParamRefOp>(loc, tensorType(param.shape), param.name);
  }

  mlir::OpBuilder builder;
  const llvm::SourceMgr &sourceMgr;
  const checked::Model &model;
  /// The MLIR value of each ValueId of the function being emitted.
  std::vector<Value> values;
};
} // namespace

void Generator::emitVertex(const checked::VertexFunction &function) {
  // The vertex signature lists what the body pulls and pushes.
  llvm::SmallVector<mlir::NamedAttribute> pulls, pushes;
  for (const checked::Instruction &instruction : function.instructions) {
    if (instruction.kind == checked::OpKind::Pull)
      pulls.emplace_back(builder.getStringAttr(instruction.name),
                         mlir::TypeAttr::get(convert(
                             function.values[instruction.results[0]].type)));
    else if (instruction.kind == checked::OpKind::Push)
      pushes.emplace_back(builder.getStringAttr(instruction.name),
                          mlir::TypeAttr::get(convert(
                              function.values[instruction.operands[0]].type)));
  }
  mlir::OpBuilder::InsertionGuard guard(builder);
  auto vertex = builder.create<VertexOp>(
      location(function.loc), function.name, function.arity,
      builder.getDictionaryAttr(pulls), builder.getDictionaryAttr(pushes));
  builder.setInsertionPointToEnd(&vertex.getBody().emplaceBlock());
  values.assign(function.values.size(), Value());
  for (const checked::Instruction &instruction : function.instructions)
    emitInstruction(function, instruction);
}

void Generator::emitInstruction(const checked::VertexFunction &function,
                                const checked::Instruction &instruction) {
  mlir::Location loc = location(instruction.loc);
  // A value the user named carries its name, which shows in diagnostics and
  // in --mlir-print-debuginfo.
  if (instruction.results.size() == 1) {
    const std::string &name = function.values[instruction.results[0]].name;
    if (!name.empty())
      loc = mlir::NameLoc::get(builder.getStringAttr(name), loc);
  }
  auto operand = [&](unsigned i) { return values[instruction.operands[i]]; };
  llvm::SmallVector<Value> operands;
  for (checked::ValueId id : instruction.operands)
    operands.push_back(values[id]);
  llvm::SmallVector<mlir::Type, 1> resultTypes;
  for (checked::ValueId id : instruction.results)
    resultTypes.push_back(convert(function.values[id].type));
  mlir::Type resultType = resultTypes.empty() ? mlir::Type() : resultTypes[0];

  mlir::Operation *op = nullptr;
  switch (instruction.kind) {
  case checked::OpKind::Pull:
    op = builder.create<PullOp>(loc, resultType, instruction.name);
    break;
  case checked::OpKind::Gather:
    op = builder.create<GatherOp>(loc, resultType, instruction.index);
    break;
  case checked::OpKind::Scatter:
    op = builder.create<ScatterOp>(loc, operand(0));
    break;
  case checked::OpKind::Push:
    op = builder.create<PushOp>(loc, instruction.name, operand(0));
    break;
  case checked::OpKind::Loss:
    op = builder.create<LossOp>(loc, operand(0));
    break;
  case checked::OpKind::ParamRef:
    op = paramRef(instruction.param, loc).getDefiningOp();
    break;
  case checked::OpKind::Constant:
    op = builder.create<ConstantOp>(
        loc, mlir::DenseElementsAttr::get(
                 llvm::cast<mlir::ShapedType>(resultType),
                 llvm::ArrayRef<float>(instruction.constant)));
    break;
  case checked::OpKind::Add:
    op = builder.create<AddOp>(loc, resultType, operand(0), operand(1));
    break;
  case checked::OpKind::Sub:
    op = builder.create<SubOp>(loc, resultType, operand(0), operand(1));
    break;
  case checked::OpKind::Mul:
    op = builder.create<MulOp>(loc, resultType, operand(0), operand(1));
    break;
  case checked::OpKind::Div:
    op = builder.create<DivOp>(loc, resultType, operand(0), operand(1));
    break;
  case checked::OpKind::Neg:
    op = builder.create<NegOp>(loc, operand(0));
    break;
  case checked::OpKind::Sigmoid:
    op = builder.create<SigmoidOp>(loc, operand(0));
    break;
  case checked::OpKind::Tanh:
    op = builder.create<TanhOp>(loc, operand(0));
    break;
  case checked::OpKind::Relu:
    op = builder.create<ReluOp>(loc, operand(0));
    break;
  case checked::OpKind::Exp:
    op = builder.create<ExpOp>(loc, operand(0));
    break;
  case checked::OpKind::Log:
    op = builder.create<LogOp>(loc, operand(0));
    break;
  case checked::OpKind::Sqrt:
    op = builder.create<SqrtOp>(loc, operand(0));
    break;
  case checked::OpKind::Softplus:
    op = builder.create<SoftplusOp>(loc, operand(0));
    break;
  case checked::OpKind::Softmax:
    op = builder.create<SoftmaxOp>(loc, operand(0));
    break;
  case checked::OpKind::MatMul:
    op = builder.create<MatmulOp>(loc, resultType,
                                  paramRef(instruction.param, loc), operand(0));
    break;
  case checked::OpKind::Concat:
    op = builder.create<ConcatOp>(loc, resultType, operands);
    break;
  case checked::OpKind::Split:
    op = builder.create<SplitOp>(loc, resultTypes, operand(0));
    break;
  case checked::OpKind::Slice:
    op =
        builder.create<SliceOp>(loc, resultType, operand(0), instruction.index);
    break;
  case checked::OpKind::Sum:
    op = builder.create<SumOp>(loc, operands);
    break;
  case checked::OpKind::ReduceSum:
    op = builder.create<ReduceSumOp>(loc, operand(0));
    break;
  case checked::OpKind::ReduceMax:
    op = builder.create<ReduceMaxOp>(loc, operand(0));
    break;
  case checked::OpKind::Lookup:
    op = builder.create<LookupOp>(loc, resultType,
                                  paramRef(instruction.param, loc), operand(0));
    break;
  case checked::OpKind::SoftmaxCrossEntropy:
    op = builder.create<SoftmaxCrossEntropyOp>(loc, operand(0), operand(1));
    break;
  }
  for (auto [id, result] :
       llvm::zip_equal(instruction.results, op->getResults()))
    values[id] = result;
}

mlir::OwningOpRef<mlir::ModuleOp>
cavs::generateMLIR(mlir::MLIRContext &context, const llvm::SourceMgr &sourceMgr,
                   const checked::Model &model) {
  return Generator(context, sourceMgr, model).run();
}
