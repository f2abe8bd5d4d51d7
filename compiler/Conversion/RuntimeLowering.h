//===- RuntimeLowering.h - what the phase lowering patterns share -*- C++
//-*-===//
//
// A phase function has the C signature
//
//   cavs_status phase(const cavs_call *call);
//
// (cavs/program.h). Its values are strided buffers, one row per vertex of
// the call: memref<?xWxf32, strided<[?, 1], offset: ?>> (W the value's
// width; i32 values have W = 1 and element i32). A buffer is a memory slot
// of the plan (arena or task scratch columns), a parameter (leading
// dimension 0 when a vector is broadcast to every row), a constant array
// (leading dimension 0), or a view of the state buffers. The runtime ops
// and the fused kernels take each buffer as (pointer, leading dimension).
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_COMPILER_CONVERSION_RUNTIMELOWERING_H
#define CAVS_COMPILER_CONVERSION_RUNTIMELOWERING_H

#include "compiler/Conversion/ParamOrder.h"
#include "compiler/Conversion/RuntimeAbi.h"
#include "dialects/ArenaLayout.h"
#include "dialects/CavsOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"

#include <array>

namespace cavs {

using abi::CallField;
using abi::RuntimeOp;

/// The phases, in execution order (cavs_phase of the runtime).
inline constexpr std::array<llvm::StringLiteral, 6> kPhaseNames = {
    "forward_eager",  "forward_body",  "forward_lazy",
    "backward_eager", "backward_body", "backward_lazy"};
static_assert(kPhaseNames.size() == CAVS_NUM_PHASES,
              "one name per cavs_phase of the runtime");

/// The symbol of a phase function: `<prefix>_<vertex>_<phase>`.
std::string phaseFunctionName(llvm::StringRef prefix, VertexOp vertex,
                              unsigned phase);

/// The phase functions of one vertex function.
struct VertexFunctionSymbols {
  VertexOp vertex;
  /// Symbol of each phase (kPhaseNames order); empty for a phase without
  /// ops.
  std::array<std::string, 6> phases;
};

/// The device phase functions are generated for.
enum class Device { CPU, CUDA };

/// The device a pass option names ("cpu" or "cuda"); an error at `module`
/// otherwise.
mlir::FailureOr<Device> parseDevice(mlir::ModuleOp module,
                                    llvm::StringRef name);

/// The type of a per-vertex value's buffer.
mlir::MemRefType bufferType(mlir::Type valueType);

/// Converts per-vertex values (f32 tensors, i32 scalars) to their buffers.
class BufferTypeConverter : public mlir::TypeConverter {
public:
  BufferTypeConverter();
};

/// The state of lowering one phase function, shared by its patterns.
class PhaseLowering {
public:
  PhaseLowering(mlir::ModuleOp module, VertexOp vertex, const ParamOrder &order,
                Device device, llvm::StringRef symbolPrefix);

  /// Starts `function`, whose entry block loads the call's fields and
  /// whose block `exit` returns its i32 argument.
  void begin(mlir::func::FuncOp function, mlir::Block *exit);

  Device device;
  VertexOp vertex;
  const ParamOrder &order;
  int64_t stateWidth = 0;

  // The call.
  mlir::Value field(mlir::OpBuilder &b, CallField index);
  mlir::Value rows(mlir::OpBuilder &b) { return field(b, CallField::rows); }
  /// Entry `index` of the pointer table `table` (params, grads, pulls...).
  mlir::Value tableEntry(mlir::OpBuilder &b, mlir::Location loc,
                         CallField table, int64_t index);
  mlir::Value param(mlir::OpBuilder &b, mlir::Location loc,
                    llvm::StringRef symbol, bool gradient) {
    return tableEntry(b, loc, gradient ? CallField::grads : CallField::params,
                      order.tableIndex.lookup(symbol));
  }
  /// The state (or state-gradient) row of the call's first vertex.
  mlir::Value stateRows(mlir::OpBuilder &b, mlir::Location loc,
                        CallField buffer);
  /// children + k * rows: the child rows of slot k.
  mlir::Value childRows(mlir::OpBuilder &b, mlir::Location loc, int64_t k);

  // Buffers.
  /// `pointer` with leading dimension `ld` as the buffer of `valueType`.
  mlir::Value buffer(mlir::OpBuilder &b, mlir::Location loc,
                     mlir::Value pointer, mlir::Value ld, mlir::Type valueType);
  /// `pointer` as a rows × `columns` buffer of `type` with leading
  /// dimension `ld`.
  mlir::Value buffer(mlir::OpBuilder &b, mlir::Location loc,
                     mlir::Value pointer, mlir::Value ld, int64_t columns,
                     mlir::MemRefType type);
  /// The task scratch or the state rows of the call as one buffer, rows
  /// by their floats per row; f32 slots are its subviews.
  mlir::Value spaceBuffer(mlir::OpBuilder &b, SlotSpace space);
  /// Arena block `index` of the call's rows as one buffer (see
  /// arenaBlocks); f32 arena slots are its subviews.
  mlir::Value arenaBlockBuffer(mlir::OpBuilder &b, size_t index);
  /// The buffer of a `valueType` value at columns `start` ... of `buffer`
  /// (a subview).
  mlir::Value columns(mlir::OpBuilder &b, mlir::Location loc,
                      mlir::Value buffer, int64_t start, mlir::Type valueType);
  /// The memory slot the plan gave `value` (defined here or in another
  /// phase), or null.
  static SlotAttr slotOf(mlir::Value value);
  /// The memory slot the plan gave `value`, as its buffer.
  mlir::FailureOr<mlir::Value> slotBuffer(mlir::OpBuilder &b,
                                          mlir::Value value);
  mlir::FailureOr<mlir::Value> slotBuffer(mlir::OpBuilder &b, mlir::Value value,
                                          SlotAttr slot);
  /// A buffer's first element and leading dimension (in elements).
  mlir::Value pointerOf(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value buffer);
  mlir::Value leadingDimension(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::Value buffer);
  /// A constant's values as a global array.
  mlir::Value constantArray(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::DenseElementsAttr values);

  // Calls.
  /// Calls runtime op `Op` (cavs/ops.def) through the device's op table
  /// cavs_call::device, the CPU's or a GPU's; returns its result.
  template <RuntimeOp Op, typename... Values>
  mlir::Value call(mlir::OpBuilder &b, mlir::Location loc,
                   Values... arguments) {
    return abi::callRuntimeOp<Op>(b, loc, field(b, CallField::device),
                                  arguments...);
  }
  /// Calls a runtime op returning cavs_status; returns it from the phase
  /// function on failure, so that later ops do not run.
  template <RuntimeOp Op, typename... Values>
  void callChecked(mlir::ConversionPatternRewriter &rewriter,
                   mlir::Location loc, Values... arguments) {
    returnOnFailure(rewriter, loc, call<Op>(rewriter, loc, arguments...));
  }
  mlir::Block *exitBlock() { return exit; }

  // Scalars.
  mlir::Value i64(mlir::OpBuilder &b, mlir::Location loc, int64_t v);
  mlir::Value i32(mlir::OpBuilder &b, mlir::Location loc, int64_t v);
  mlir::Value f32(mlir::OpBuilder &b, mlir::Location loc, float v);
  /// `ptr` advanced by `elements` floats.
  mlir::Value floats(mlir::OpBuilder &b, mlir::Location loc, mlir::Value ptr,
                     mlir::Value elements);

private:
  void returnOnFailure(mlir::ConversionPatternRewriter &rewriter,
                       mlir::Location loc, mlir::Value status);

  mlir::ModuleOp module;
  std::string symbolPrefix;
  int64_t scratchFloats = 0;
  /// The vertex's arena blocks (dialects/ArenaLayout.h).
  llvm::SmallVector<ArenaBlock> arenaBlocks;
  unsigned numConstants = 0;
  mlir::Value callArg;
  mlir::Block *exit = nullptr;
  llvm::DenseMap<int64_t, mlir::Value> fields;
  llvm::DenseMap<int64_t, mlir::Value> spaces;
  /// The buffers of the arena blocks built so far, by block.
  llvm::SmallVector<mlir::Value> blockBuffers;
};

/// The patterns that lower the ops of a phase to runtime calls.
void populatePhaseLoweringPatterns(mlir::RewritePatternSet &patterns,
                                   BufferTypeConverter &converter,
                                   PhaseLowering &lowering);

/// Whether `value` must stay in its memory slot at the end of its phase:
/// a later phase reads it (the phase yields it, or a part of it).
bool readLater(mlir::Value value);

} // namespace cavs

#endif // CAVS_COMPILER_CONVERSION_RUNTIMELOWERING_H
