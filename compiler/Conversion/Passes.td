//===- Passes.td - the lowering of planned cavs IR ------------*- tablegen -*-===//
//
// After cavs-plan-memory: fused kernels become loop functions, the phases
// of every vertex function become phase functions calling the runtime, and
// the standard conversions take the result to the LLVM dialect
// (the cavs-lower-to-llvm pipeline).
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_CONVERSION_PASSES_TD
#define CAVS_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def CavsLowerFused : Pass<"cavs-lower-fused", "mlir::ModuleOp"> {
  let summary = "give every cavs.fused op its kernel";
  let description = [{
    On the CPU, builds each `cavs.fused` region as a loop function in the
    module, with the C signature

    ```c
    void kernel(int64_t rows, const float *in0, int64_t ld0, ...,
                float *out0, int64_t ldo0, ...);
    ```

    (two scf.for loops, rows then columns, on f32 scalars; the inner loop
    has unit stride, which LLVM's vectorizer needs) and names it in the
    op's `cavs.kernel` attribute. Kernels are named
    `<prefix>_<vertex>_k<N>` in program order. For CUDA the kernels are CUDA
    C source compiled elsewhere (cavsc --emit=cuda); the pass records each
    kernel's number in that source, counted from `first-kernel`.
  }];
  let options = [
    Option<"symbolPrefix", "prefix", "std::string", /*default=*/"\"\"",
           "Kernel name prefix (default: the model's name)">,
    Option<"device", "device", "std::string", /*default=*/"\"cpu\"",
           "cpu or cuda">,
    Option<"firstKernel", "first-kernel", "int32_t", /*default=*/"0",
           "CUDA: the number of the model's first kernel">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::func::FuncDialect",
                           "mlir::LLVM::LLVMDialect",
                           "mlir::math::MathDialect",
                           "mlir::scf::SCFDialect"];
}

def CavsLowerToRuntime : Pass<"cavs-lower-to-runtime", "mlir::ModuleOp"> {
  let summary = "make a phase function of every cavs.phase";
  let description = [{
    Needs `cavs-outline-phases` and the memory plan. Each `cavs.phase` of
    the model becomes a function

    ```c
    cavs_status <prefix>_<vertex>_<phase>(const cavs_call *call);
    ```

    (cavs/program.h; phases forward_eager ... backward_lazy) that runs the
    phase's ops once over `call->rows` vertices: every value is a strided
    memref over its memory slot (arena or scratch columns), a parameter, a
    constant or a view of the state buffers, and every op becomes runtime
    calls (cavs/ops.h) on those buffers, one conversion pattern per op. On
    the CPU the runtime ops are called directly and fused ops call their
    kernel; on CUDA every runtime op goes through the device table
    `call->device` and fused ops launch their kernel by number. The
    `cavs.model` is erased: what remains is func, memref, scf, cf, arith and
    llvm IR, ready for the standard lowering to LLVM.
  }];
  let options = [
    Option<"symbolPrefix", "prefix", "std::string", /*default=*/"\"\"",
           "Phase function name prefix (default: the model's name)">,
    Option<"device", "device", "std::string", /*default=*/"\"cpu\"",
           "cpu or cuda">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::cf::ControlFlowDialect",
                           "mlir::func::FuncDialect",
                           "mlir::LLVM::LLVMDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect"];
}

def CavsApproximateMath : Pass<"cavs-approximate-math", "mlir::ModuleOp"> {
  let summary = "replace transcendental math ops by polynomial approximations";
  let description = [{
    `math.exp`, `math.tanh`, `math.log` ... become arith polynomials
    (MLIR's math approximation patterns), so that the loops that use them
    still vectorize and `convert-math-to-llvm` leaves no libm call behind.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::math::MathDialect",
                           "mlir::vector::VectorDialect"];
}

#endif // CAVS_CONVERSION_PASSES_TD
