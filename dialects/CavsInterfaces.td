//===- CavsInterfaces.td - what the passes and backends ask an op -*- tablegen -*-===//
//
// Each op answers for itself: its gradient (cavs-autodiff), its scalar body
// in a fused kernel (the CPU loop kernels and the CUDA C kernels) and its
// cost (`cavsc --emit=stats`). Their implementations live next to each
// other, one file per kind of op (ElementwiseOps.cpp, PrimitiveOps.cpp,
// VectorOps.cpp), so an op's meaning is written down once. The reference
// evaluator (test/lib/Evaluator) does not use them: it is the independent
// oracle they are tested against.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_INTERFACES_TD
#define CAVS_INTERFACES_TD

include "mlir/IR/OpBase.td"

def Cavs_AdjointOpInterface : OpInterface<"AdjointOpInterface"> {
  let cppNamespace = "::cavs";
  let description = [{
    The reverse-mode gradient rule of an op of F. `cavs-autodiff` walks F
    backwards and asks each op to turn the gradients of its results into
    contributions to the gradients of its operands (or, for an output such
    as `cavs.scatter`, to seed the gradient of what it consumes), building
    the ops of ∂F through an `AdjointContext` (dialects/AdjointContext.h).
    An op of F without this interface that receives a gradient is an error.
  }];
  let methods = [
    InterfaceMethod<[{
        Builds this op's part of ∂F at the context's insertion point.
        `gradients` holds one value per result, null for a result whose
        gradient is zero; at least one is non-null unless the op has no
        results.
      }],
      "::mlir::LogicalResult", "buildAdjoint",
      (ins "::cavs::AdjointContext &":$context,
           "::mlir::ArrayRef<::mlir::Value>":$gradients)>,
  ];
}

def Cavs_ElementwiseOpInterface : OpInterface<"ElementwiseOpInterface"> {
  let cppNamespace = "::cavs";
  let description = [{
    The computation of one element of an op inside a `cavs.fused` kernel,
    in the two forms the backends need: f32 `arith`/`math` ops for the CPU
    loop kernels and a CUDA C expression for the GPU kernels. The two must
    agree within float rounding. For a reduction the operands are the
    accumulator, then the element, and the result is the new accumulator.
  }];
  let methods = [
    InterfaceMethod<[{
        The f32 result element, built at `builder`'s insertion point from
        the operands' f32 elements.
      }],
      "::mlir::Value", "buildScalar",
      (ins "::mlir::OpBuilder &":$builder, "::mlir::Location":$loc,
           "::mlir::ArrayRef<::mlir::Value>":$operands)>,
    InterfaceMethod<[{
        The CUDA C expression of the result element, given the operands'
        names. Operands are plain names, so they need no parentheses; the
        math functions are the accurate ones (expf, not __expf) so that the
        result matches the CPU kernel.
      }],
      "std::string", "getCudaExpression",
      (ins "::llvm::ArrayRef<std::string>":$operands)>,
  ];
}

def Cavs_ReductionOpInterface : OpInterface<"ReductionOpInterface"> {
  let cppNamespace = "::cavs";
  let description = [{
    A reduction's accumulator: a fused kernel starts it at the identity and
    folds each element in with the op's elementwise body.
  }];
  let methods = [
    InterfaceMethod<"The value the accumulator starts from.",
      "float", "getIdentity", (ins)>,
  ];
}

def Cavs_CostOpInterface : OpInterface<"CostOpInterface"> {
  let cppNamespace = "::cavs";
  let description = [{
    What one vertex's share of an op costs, for `cavsc --emit=stats` and the
    model descriptor's FLOP and byte counts. Multiply-adds count 2; an
    elementwise op counts 1 per element (a transcendental function too),
    which is the default. Ops without this interface cost nothing
    (parameter references, constants, views).
  }];
  let methods = [
    InterfaceMethod<"Floating-point operations for one vertex.",
      "int64_t", "getFlops", (ins), [{}], [{
        return $_op->getNumResults() == 0
                   ? 0
                   : ::cavs::valueWidth($_op->getResult(0).getType());
      }]>,
    InterfaceMethod<[{
        Bytes one vertex moves between its rows and the state or
        state-gradient buffers (every child assumed present).
      }],
      "int64_t", "getCopyBytes", (ins), [{}], [{ return 0; }]>,
  ];
}

#endif // CAVS_INTERFACES_TD
