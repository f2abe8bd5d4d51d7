//===- RuntimeAbi.h - the runtime ABI as generated code sees it -*- C++ -*-===//
//
// The compiler's view of the two structs generated code touches: the fields
// of cavs_call and the entries of the device op table cavs_device_ops. Both
// are expanded from the runtime's own lists (cavs/call.def, cavs/ops.def),
// and every MLIR type below is derived from the C type the runtime declares,
// so the compiler cannot address a field or call an op differently from how
// the runtime defines it: a call with the wrong number of operands does not
// compile, and one with an operand of the wrong type stops the compiler
// before any code is written.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_COMPILER_CONVERSION_RUNTIMEABI_H
#define CAVS_COMPILER_CONVERSION_RUNTIMEABI_H

#include "cavs/program.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringRef.h"

#include <type_traits>

namespace cavs::abi {

//===----------------------------------------------------------------------===//
// C types as MLIR types
//===----------------------------------------------------------------------===//

/// !llvm.ptr.
mlir::Type pointerType(mlir::MLIRContext *context);

/// The MLIR type of C type `T` in a call: integers and enums by their width
/// (int, int32_t, cavs_status: i32; int64_t: i64), float (f32), double (f64),
/// any pointer (!llvm.ptr); void is the null type.
template <typename T> mlir::Type typeOf(mlir::MLIRContext *context) {
  if constexpr (std::is_void_v<T>)
    return {};
  else if constexpr (std::is_pointer_v<T>)
    return pointerType(context);
  else if constexpr (std::is_same_v<T, float>)
    return mlir::Float32Type::get(context);
  else if constexpr (std::is_same_v<T, double>)
    return mlir::Float64Type::get(context);
  else {
    static_assert((std::is_integral_v<T> ||
                   std::is_enum_v<T>)&&(sizeof(T) == 4 || sizeof(T) == 8),
                  "a C type of the runtime ABI without an MLIR type");
    return mlir::IntegerType::get(context, 8 * sizeof(T));
  }
}

//===----------------------------------------------------------------------===//
// cavs_call
//===----------------------------------------------------------------------===//

/// The fields of cavs_call, by index (field i is at byte offset 8 * i).
enum class CallField : int32_t {
#define CAVS_CALL_FIELD(type, name) name,
#include "cavs/call.def"
};

/// The number of fields of cavs_call.
inline constexpr int32_t kNumCallFields = 0
#define CAVS_CALL_FIELD(type, name) +1
#include "cavs/call.def"
    ;

/// The MLIR type of field `field` (i64 or !llvm.ptr).
mlir::Type callFieldType(CallField field, mlir::MLIRContext *context);

//===----------------------------------------------------------------------===//
// cavs_device_ops
//===----------------------------------------------------------------------===//

/// The entries of cavs_device_ops, by index (entry i is at byte offset
/// 8 * i).
enum class RuntimeOp : int32_t {
#define CAVS_OP(name, ret, params) name,
#define CAVS_DEVICE_OP(name, ret, params) name,
#include "cavs/ops.def"
};

/// The number of entries of cavs_device_ops.
inline constexpr int32_t kNumRuntimeOps = 0
#define CAVS_OP(name, ret, params) +1
#define CAVS_DEVICE_OP(name, ret, params) +1
#include "cavs/ops.def"
    ;

/// The C type of table entry `Op`: a function pointer taking the table
/// first.
template <RuntimeOp Op> struct RuntimeOpEntry;
#define CAVS_OP(name, ret, params)                                             \
  template <> struct RuntimeOpEntry<RuntimeOp::name> {                         \
    using type = decltype(cavs_device_ops::name);                              \
  };
#define CAVS_DEVICE_OP(name, ret, params) CAVS_OP(name, ret, params)
#include "cavs/ops.def"

/// The number of arguments of entry `Entry` after the table.
template <typename Entry> struct EntryArity;
template <typename R, typename... A>
struct EntryArity<R (*)(cavs_device_ops *, A...)> {
  static constexpr size_t value = sizeof...(A);
};

/// The spelling of `op` in the runtime's headers ("gemm").
llvm::StringRef runtimeOpName(RuntimeOp op);

/// The MLIR type of table entry `op`, the table pointer included.
mlir::LLVM::LLVMFunctionType runtimeOpType(RuntimeOp op,
                                           mlir::MLIRContext *context);

/// Emits `table->op(table, arguments...)`; returns its result (null for
/// void). Stops the compiler (report_fatal_error) when an argument's type
/// is not the one the runtime declares.
mlir::Value callRuntimeOp(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value table, RuntimeOp op,
                          mlir::ValueRange arguments);

/// callRuntimeOp with the argument count checked at compile time.
template <RuntimeOp Op, typename... Values>
mlir::Value callRuntimeOp(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value table, Values... arguments) {
  static_assert(sizeof...(Values) ==
                    EntryArity<typename RuntimeOpEntry<Op>::type>::value,
                "a runtime op called with the wrong number of arguments "
                "(cavs/ops.def)");
  static_assert((std::is_convertible_v<Values, mlir::Value> && ...),
                "runtime op arguments are mlir::Values");
  return callRuntimeOp(b, loc, table, Op, {mlir::Value(arguments)...});
}

} // namespace cavs::abi

#endif // CAVS_COMPILER_CONVERSION_RUNTIMEABI_H
