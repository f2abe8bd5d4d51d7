//===- RuntimeAbiTest.cpp - the compiler's and the runtime's ABI agree ----===//
//
// The compiler addresses cavs_call field i and cavs_device_ops entry i at
// byte offset 8 * i and calls each entry with the MLIR types of
// compiler/Conversion/RuntimeAbi.h; these cases fail when the C structs the
// runtime is built with lay out or type anything differently.
//
//===----------------------------------------------------------------------===//
#include "compiler/Conversion/RuntimeAbi.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <cstddef>

using namespace cavs::abi;

namespace {

// Layout: checked while compiling, so a disagreement fails the build.
#define CAVS_CALL_FIELD(type, name)                                            \
  static_assert(offsetof(cavs_call, name) == 8 * size_t(CallField::name) &&    \
                    sizeof(cavs_call::name) == 8,                              \
                "cavs_call::" #name " is not where the compiler looks");
#include "cavs/call.def"
static_assert(sizeof(cavs_call) == 8 * size_t(kNumCallFields));

#define CAVS_OP(name, ret, params)                                             \
  static_assert(offsetof(cavs_device_ops, name) ==                             \
                    8 * size_t(RuntimeOp::name),                               \
                "cavs_device_ops::" #name " is not where the compiler looks");
#define CAVS_DEVICE_OP(name, ret, params) CAVS_OP(name, ret, params)
#include "cavs/ops.def"
static_assert(sizeof(cavs_device_ops) == 8 * size_t(kNumRuntimeOps));

class RuntimeAbiTest : public ::testing::Test {
protected:
  RuntimeAbiTest() { context.loadDialect<mlir::LLVM::LLVMDialect>(); }
  mlir::Type parse(llvm::StringRef text) {
    return mlir::parseType(text, &context);
  }
  mlir::MLIRContext context;
};

// The entries' MLIR types, written out by hand from the C declarations.
TEST_F(RuntimeAbiTest, OpTypesFollowTheCDeclarations) {
  EXPECT_EQ(runtimeOpType(RuntimeOp::gemm, &context),
            parse("!llvm.func<void (ptr, i32, i32, i64, i64, i64, f32, ptr, "
                  "i64, ptr, i64, f32, ptr, i64)>"));
  EXPECT_EQ(runtimeOpType(RuntimeOp::lookup, &context),
            parse("!llvm.func<i32 (ptr, i64, ptr, i64, ptr, i64, i64, ptr, "
                  "i64)>"));
  EXPECT_EQ(runtimeOpType(RuntimeOp::loss_sum, &context),
            parse("!llvm.func<void (ptr, i64, ptr, i64, ptr)>"));
  EXPECT_EQ(runtimeOpType(RuntimeOp::constant, &context),
            parse("!llvm.func<ptr (ptr, ptr, i64)>"));
  // The rows kernel, a function pointer, is a plain pointer.
  EXPECT_EQ(runtimeOpType(RuntimeOp::run_rows, &context),
            parse("!llvm.func<void (ptr, ptr, i64, i64, ptr, i32)>"));
  EXPECT_EQ(int32_t(RuntimeOp::run_rows), 18);
  EXPECT_EQ(runtimeOpName(RuntimeOp::softmax_cross_entropy_grad),
            "softmax_cross_entropy_grad");
}

TEST_F(RuntimeAbiTest, FieldTypesFollowTheCDeclarations) {
  mlir::Type i64 = mlir::IntegerType::get(&context, 64);
  mlir::Type ptr = pointerType(&context);
  EXPECT_EQ(callFieldType(CallField::rows, &context), i64);
  EXPECT_EQ(callFieldType(CallField::state_begin, &context), i64);
  EXPECT_EQ(callFieldType(CallField::num_vertices, &context), i64);
  EXPECT_EQ(callFieldType(CallField::children, &context), ptr);
  EXPECT_EQ(callFieldType(CallField::device, &context), ptr);
}

// A call whose operand has the wrong MLIR type never reaches the runtime.
TEST_F(RuntimeAbiTest, MistypedCallStopsTheCompiler) {
  EXPECT_DEATH(
      {
        mlir::OpBuilder b(&context);
        mlir::Location loc = b.getUnknownLoc();
        auto module = mlir::ModuleOp::create(loc);
        b.setInsertionPointToEnd(module.getBody());
        auto table = b.create<mlir::LLVM::ZeroOp>(loc, pointerType(&context));
        auto i32 = b.create<mlir::LLVM::ConstantOp>(loc, b.getI32Type(),
                                                    b.getI32IntegerAttr(0));
        // zero_rows takes (i64, i64, ptr, i64).
        callRuntimeOp<RuntimeOp::zero_rows>(b, loc, table, i32, i32, table,
                                            i32);
      },
      "argument 0 of runtime op 'zero_rows' is a i32, not the i64");
}

} // namespace
