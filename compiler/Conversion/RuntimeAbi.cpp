//===- RuntimeAbi.cpp - the runtime ABI as generated code sees it ---------===//
//
// The per-field and per-entry types, expanded from the runtime's lists, and
// the one place generated code calls through the device op table.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/RuntimeAbi.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace cavs::abi {

namespace {
/// The MLIR type of C function pointer type `Entry`.
template <typename Entry> struct EntryType;
template <typename R, typename... A> struct EntryType<R (*)(A...)> {
  static LLVM::LLVMFunctionType get(MLIRContext *context) {
    Type result = typeOf<R>(context);
    return LLVM::LLVMFunctionType::get(
        result ? result : LLVM::LLVMVoidType::get(context),
        {typeOf<A>(context)...});
  }
};
} // namespace

Type pointerType(MLIRContext *context) {
  return LLVM::LLVMPointerType::get(context);
}

Type callFieldType(CallField field, MLIRContext *context) {
  switch (field) {
#define CAVS_CALL_FIELD(type, name)                                            \
  case CallField::name:                                                        \
    return typeOf<type>(context);
#include "cavs/call.def"
  }
  llvm_unreachable("a cavs_call field outside cavs/call.def");
}

StringRef runtimeOpName(RuntimeOp op) {
  switch (op) {
#define CAVS_OP(name, ret, params)                                             \
  case RuntimeOp::name:                                                        \
    return #name;
#define CAVS_DEVICE_OP(name, ret, params) CAVS_OP(name, ret, params)
#include "cavs/ops.def"
  }
  llvm_unreachable("a runtime op outside cavs/ops.def");
}

LLVM::LLVMFunctionType runtimeOpType(RuntimeOp op, MLIRContext *context) {
  switch (op) {
#define CAVS_OP(name, ret, params)                                             \
  case RuntimeOp::name:                                                        \
    return EntryType<RuntimeOpEntry<RuntimeOp::name>::type>::get(context);
#define CAVS_DEVICE_OP(name, ret, params) CAVS_OP(name, ret, params)
#include "cavs/ops.def"
  }
  llvm_unreachable("a runtime op outside cavs/ops.def");
}

Value callRuntimeOp(OpBuilder &b, Location loc, Value table, RuntimeOp op,
                    ValueRange arguments) {
  LLVM::LLVMFunctionType type = runtimeOpType(op, b.getContext());
  // A compiler bug, not a user error: the runtime would misread the call.
  if (type.getNumParams() != arguments.size() + 1)
    llvm::report_fatal_error(llvm::formatv(
        "runtime op '{0}' takes {1} arguments, not {2} (cavs/ops.def)",
        runtimeOpName(op), type.getNumParams() - 1, arguments.size()));
  for (auto [i, argument] : llvm::enumerate(arguments))
    if (argument.getType() != type.getParamType(i + 1))
      llvm::report_fatal_error(llvm::formatv(
          "argument {0} of runtime op '{1}' is a {2}, not the {3} of "
          "cavs/ops.def",
          i, runtimeOpName(op), argument.getType(), type.getParamType(i + 1)));
  // callee = table->entries[op]; callee(table, arguments...).
  Type ptr = pointerType(b.getContext());
  Value entry = b.create<LLVM::GEPOp>(loc, ptr, ptr, table,
                                      ArrayRef<LLVM::GEPArg>{int32_t(op)});
  Value callee = b.create<LLVM::LoadOp>(loc, ptr, entry);
  SmallVector<Value> operands = {callee, table};
  llvm::append_range(operands, arguments);
  auto call = b.create<LLVM::CallOp>(loc, type, operands);
  return call.getNumResults() ? call.getResult() : Value();
}

} // namespace cavs::abi
