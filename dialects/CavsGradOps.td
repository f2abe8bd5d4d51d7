//===- CavsGradOps.td - ops of backward vertex functions -------*- tablegen -*-===//
//
// What `cavs-autodiff` emits: the cavs.backward region of a vertex function
// (its ∂F), the adjoints of the four primitives, parameter-gradient
// accumulation, and the few math ops that only derivatives need.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_GRAD_OPS_TD
#define CAVS_GRAD_OPS_TD

def Cavs_BackwardOp : Cavs_Op<"backward", [
    HasParent<"VertexOp">, NoTerminator, SingleBlock, NoRegionArguments]> {
  let summary = "the backward function ∂F of a vertex function";
  let description = [{
    The last op of a vertex body after `cavs-autodiff`. Its region is ∂F: it
    runs after the forward pass of the whole batch, vertex tasks in reverse
    order, and may use every forward value of the enclosing vertex function
    (those values must therefore live until backward; the memory planner
    keeps them). ∂F reads the gradient of this vertex's state with
    `cavs.state_grad`, sends gradients to children with `cavs.child_grad`
    and accumulates parameter gradients.

    ```mlir
    cavs.vertex @cell arity 1 pulls {} pushes {} {
      %s = cavs.gather 0 : tensor<4xf32>
      %t = cavs.tanh %s : tensor<4xf32>
      cavs.scatter %t : tensor<4xf32>
      cavs.backward {
        %dt = cavs.state_grad : tensor<4xf32>
        %one = cavs.constant dense<1.0> : tensor<f32>
        %t2 = cavs.mul %t, %t : tensor<4xf32>
        %d = cavs.sub %one, %t2 : tensor<f32>, tensor<4xf32> -> tensor<4xf32>
        %ds = cavs.mul %dt, %d : tensor<4xf32>
        cavs.child_grad 0, %ds : tensor<4xf32>
      }
    }
    ```
  }];
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "attr-dict-with-keyword $body";
  let hasVerifier = 1;
}

def Cavs_StateGradOp : Cavs_Op<"state_grad", [Pure,
    DeclareOpInterfaceMethods<Cavs_CostOpInterface,
                              ["getFlops", "getCopyBytes"]>]> {
  let summary = "gradient of this vertex's scattered state";
  let description = [{
    The adjoint of `cavs.scatter`: the gradient of the loss with respect to
    the state this vertex scattered, summed over every parent that gathered
    it (zeros for a vertex without parents).

    ```mlir
    %ds = cavs.state_grad : tensor<300xf32>
    ```
  }];
  let results = (outs Cavs_Vector:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Cavs_ChildGradOp : Cavs_Op<"child_grad", [MemoryEffects<[MemWrite]>,
    DeclareOpInterfaceMethods<Cavs_CostOpInterface, ["getCopyBytes"]>]> {
  let summary = "send a gradient to child `index`";
  let description = [{
    The adjoint of `cavs.gather`: adds `value` to the state gradient of child
    `index` (nothing happens when the child is absent).

    ```mlir
    cavs.child_grad 0, %g : tensor<300xf32>
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$index,
                       Cavs_Vector:$value);
  let assemblyFormat = "$index `,` $value attr-dict `:` type($value)";
  let hasVerifier = 1;
}

def Cavs_PushGradOp : Cavs_Op<"push_grad", [Pure]> {
  let summary = "gradient given for a pushed output";
  let description = [{
    The adjoint of `cavs.push`: the gradient the caller supplies for output
    `name` of this vertex, or zeros when the caller supplies none.

    ```mlir
    %dh = cavs.push_grad "h" : tensor<150xf32>
    ```
  }];
  let arguments = (ins StrAttr:$name);
  let results = (outs Cavs_Tensor:$result);
  let assemblyFormat = "$name attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Cavs_PullGradOp : Cavs_Op<"pull_grad", [MemoryEffects<[MemWrite]>]> {
  let summary = "gradient of an f32 pulled input";
  let description = [{
    The adjoint of `cavs.pull` for f32 inputs: writes the gradient of the
    loss with respect to input `name` of this vertex to the external side.

    ```mlir
    cavs.pull_grad "x", %dx : tensor<300xf32>
    ```
  }];
  let arguments = (ins StrAttr:$name, Cavs_Tensor:$value);
  let assemblyFormat = "$name `,` $value attr-dict `:` type($value)";
  let hasVerifier = 1;
}

def Cavs_ParamGradOp : Cavs_Op<"param_grad", [
    MemoryEffects<[MemWrite]>,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    DeclareOpInterfaceMethods<Cavs_CostOpInterface, ["getFlops"]>]> {
  let summary = "accumulate a dense parameter gradient";
  let description = [{
    Adds `value` (shaped like the parameter) to the gradient of `@param`. The
    parameter gradient is the sum over all vertices of the batch.

    ```mlir
    cavs.param_grad @b, %db : tensor<150xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$param, Cavs_Tensor:$value);
  let assemblyFormat = "$param `,` $value attr-dict `:` type($value)";
}

def Cavs_ParamGradOuterOp : Cavs_Op<"param_grad_outer", [
    MemoryEffects<[MemWrite]>,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    DeclareOpInterfaceMethods<Cavs_CostOpInterface, ["getFlops"]>]> {
  let summary = "accumulate an outer-product parameter gradient";
  let description = [{
    The weight gradient of `y = W @ x`: adds `dy ⊗ x` ([M] × [K] → [M, K])
    to the gradient of `@param`. Over a batch this is one GEMM `dYᵀ X`.

    ```mlir
    cavs.param_grad_outer @W, %dy, %x : tensor<150xf32>, tensor<300xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$param, Cavs_Vector:$dy,
                       Cavs_Vector:$x);
  let assemblyFormat = [{
    $param `,` $dy `,` $x attr-dict `:` type($dy) `,` type($x)
  }];
}

def Cavs_LookupGradOp : Cavs_Op<"lookup_grad", [
    MemoryEffects<[MemWrite]>,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "sparse gradient of an embedding lookup";
  let description = [{
    Adds `value` to row `index` of the gradient of table `@param` (nothing
    when `index` is negative): the gradient of `cavs.lookup` touches only
    the rows that were read.

    ```mlir
    cavs.lookup_grad @embed[%word], %dx : i32, tensor<300xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$param, I32:$index,
                       Cavs_Vector:$value);
  let assemblyFormat = [{
    $param `[` $index `]` `,` $value attr-dict `:` type($index) `,` type($value)
  }];
}

def Cavs_ReluGradOp : Cavs_Op<"relu_grad", !listconcat(Cavs_ElementwiseTraits,
    [Cavs_CostOpInterface, AllTypesMatch<["output", "grad", "result"]>])> {
  let summary = "gradient through relu";
  let description = [{
    `grad` where the relu `output` is positive, 0 elsewhere.

    ```mlir
    %dx = cavs.relu_grad %y, %dy : tensor<150xf32>
    ```
  }];
  let arguments = (ins Cavs_Tensor:$output, Cavs_Tensor:$grad);
  let results = (outs Cavs_Tensor:$result);
  let assemblyFormat = "$output `,` $grad attr-dict `:` type($result)";
}

// Only ∂F uses equal, so it needs no gradient rule.
def Cavs_EqualOp : Cavs_BinaryOp<"equal",
    "comparison for equality (1 where equal, 0 elsewhere)", []> {
  let description = [{
    1 where `lhs` and `rhs` are equal, 0 elsewhere; either side may be a
    broadcast scalar. The gradient of `cavs.reduce_max` selects the
    maximal elements with it.

    ```mlir
    %m = cavs.equal %x, %max : tensor<150xf32>, tensor<f32> -> tensor<150xf32>
    ```
  }];
  let hasFolder = 0;
}

def Cavs_PadOp : Cavs_Op<"pad", [Pure, Cavs_Differentiable]> {
  let summary = "place a vector or scalar inside a larger zero vector";
  let description = [{
    The adjoint of `cavs.slice`: a vector of the result type that is
    `input` at `offset .. offset + size` (a scalar input: at `offset`) and
    zero elsewhere.

    ```mlir
    %g = cavs.pad %d[10] : tensor<20xf32> -> tensor<300xf32>
    %e = cavs.pad %s[3] : tensor<f32> -> tensor<300xf32>
    ```
  }];
  let arguments = (ins Cavs_ScalarOrVector:$input,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$offset);
  let results = (outs Cavs_Vector:$result);
  let assemblyFormat = [{
    $input `[` $offset `]` attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Cavs_SoftmaxCrossEntropyGradOp : Cavs_Op<"softmax_cross_entropy_grad", [
    Pure, AllTypesMatch<["logits", "result"]>,
    DeclareOpInterfaceMethods<Cavs_CostOpInterface, ["getFlops"]>]> {
  let summary = "gradient of softmax cross entropy with respect to the logits";
  let description = [{
    `grad * (softmax(logits) - onehot(label))`, or zeros when `label` is
    negative.

    ```mlir
    %dl = cavs.softmax_cross_entropy_grad %logits, %label, %g : tensor<5xf32>, i32
    ```
  }];
  let arguments = (ins Cavs_Vector:$logits, I32:$label, Cavs_Scalar:$grad);
  let results = (outs Cavs_Vector:$result);
  let assemblyFormat = [{
    $logits `,` $label `,` $grad attr-dict `:` type($logits) `,` type($label)
  }];
}

#endif // CAVS_GRAD_OPS_TD
