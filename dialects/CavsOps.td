//===- CavsOps.td - operations of the cavs dialect -------------*- tablegen -*-===//
//
// Structure ops (model, param, vertex), the four Cavs primitives, loss, and
// the math that vertex functions are written in. Every op documents its
// per-vertex semantics; batching is the runtime's business.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_OPS_TD
#define CAVS_OPS_TD

include "dialects/CavsBase.td"
include "dialects/CavsInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

/// An op with a gradient rule (AdjointOpInterface::buildAdjoint).
defvar Cavs_Differentiable = DeclareOpInterfaceMethods<Cavs_AdjointOpInterface>;

/// What every elementwise op is: pure, fusable, with a scalar body in fused
/// kernels (ElementwiseOps.cpp). Each also has a cost: Cavs_CostOpInterface's
/// default of one FLOP per element, or its own.
defvar Cavs_ElementwiseTraits = [Pure, Cavs_ElementwiseMath,
    DeclareOpInterfaceMethods<Cavs_ElementwiseOpInterface>];

//===----------------------------------------------------------------------===//
// Structure
//===----------------------------------------------------------------------===//

def Cavs_ModelOp : Cavs_Op<"model", [
    Symbol, SymbolTable, IsolatedFromAbove, NoTerminator, SingleBlock,
    NoRegionArguments]> {
  let summary = "a dynamic network: parameters and vertex functions";
  let description = [{
    Holds the `cavs.param` and `cavs.vertex` ops of one model. `state` is the
    type every vertex scatters and every parent gathers; all vertex
    functions share it so that any vertex may be the child of any other.
    A pull or push name used by several vertex functions must have the same
    type in all of them.

    ```mlir
    cavs.model @treelstm state tensor<300xf32> {
      cavs.param @b : tensor<150xf32> init zeros
      cavs.vertex @cell arity 2 pulls {} pushes {} { ... }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       OptionalAttr<TypeAttr>:$state);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name (`state` $state^)? attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The state type, or null when the model has no gather/scatter.
    ::mlir::RankedTensorType getStateType() {
      auto state = getState();
      return state ? ::llvm::cast<::mlir::RankedTensorType>(*state) : nullptr;
    }
  }];
}

def Cavs_ParamOp : Cavs_Op<"param", [Symbol, HasParent<"ModelOp">]> {
  let summary = "a trainable parameter tensor";
  let description = [{
    Declares a parameter shared by all vertices, with the initializer used
    when a model instance is created. `init_args` holds the initializer's
    numbers: `constant` takes the value, `uniform` the bounds `[lo, hi]`,
    `normal` the mean and standard deviation; the others take none.

    ```mlir
    cavs.param @embed : tensor<100x8xf32> init uniform(-5.000000e-02, 5.000000e-02)
    cavs.param @W : tensor<8x8xf32> init xavier
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<Cavs_Tensor>:$type,
                       Cavs_InitializerKind:$init,
                       DefaultValuedAttr<DenseF64ArrayAttr, "{}">:$init_args);
  let assemblyFormat = [{
    $sym_name `:` $type `init` custom<Initializer>($init, $init_args) attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::RankedTensorType getTensorType() {
      return ::llvm::cast<::mlir::RankedTensorType>(getType());
    }
  }];
}

def Cavs_ParamPackOp : Cavs_Op<"param_pack", [
    Symbol, HasParent<"ModelOp">,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "parameters stored back to back as one tensor";
  let description = [{
    Declares that the member parameters live contiguously, in order, so that
    together they form one tensor: matrices with the same number of columns
    stacked by rows, or vectors concatenated. Ops may then use the pack like
    a parameter (one GEMM for several weight matrices that multiply the
    same vector) while every member keeps its own name for checkpoints and
    parameter access. A parameter is a member of at most one pack.
    `cavs-merge-matmuls` creates packs.

    ```mlir
    cavs.param @W_iou : tensor<450x300xf32> init xavier
    cavs.param @W_f : tensor<150x300xf32> init xavier
    cavs.param_pack @W_iou_f : tensor<600x300xf32> = [@W_iou, @W_f]
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<Cavs_Tensor>:$type,
                       FlatSymbolRefArrayAttr:$members);
  let assemblyFormat = "$sym_name `:` $type `=` $members attr-dict";
  let extraClassDeclaration = [{
    ::mlir::RankedTensorType getTensorType() {
      return ::llvm::cast<::mlir::RankedTensorType>(getType());
    }
  }];
}

def Cavs_VertexOp : Cavs_Op<"vertex", [
    Symbol, HasParent<"ModelOp">, IsolatedFromAbove, NoTerminator,
    SingleBlock, NoRegionArguments]> {
  let summary = "a vertex function";
  let description = [{
    The function F evaluated at every vertex of this type. `arity` is the
    number of child slots (`cavs.gather` takes 0 .. arity-1; absent children
    read as zeros). `pulls` and `pushes` are the vertex function's external
    interface: name to type of every per-vertex input it reads and every
    per-vertex output it writes. The body pulls each declared input at most
    once (a pull whose value goes unused is dead code that the cleanups
    erase; the input stays declared), pushes each declared output exactly
    once, and scatters the model's state exactly once when the model
    declares one.

    ```mlir
    cavs.vertex @leaf arity 0 pulls {word = i32} pushes {} {
      %w = cavs.pull "word" : i32
      ...
      cavs.scatter %s : tensor<300xf32>
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$arity,
                       DictionaryAttr:$pulls,
                       DictionaryAttr:$pushes);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name `arity` $arity `pulls` $pulls `pushes` $pushes
    attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    ModelOp getModel() { return ::llvm::cast<ModelOp>((*this)->getParentOp()); }
    /// The type declared for pull (or push) `name`, or null.
    ::mlir::Type getPullType(::llvm::StringRef name);
    ::mlir::Type getPushType(::llvm::StringRef name);
    /// The backward function ∂F (the last op of the body), or null before
    /// cavs-autodiff.
    BackwardOp getBackward();
  }];
}

def Cavs_ParamRefOp : Cavs_Op<"param_ref", [
    Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    Cavs_Differentiable]> {
  let summary = "the value of a parameter inside a vertex function";
  let description = [{
    Makes parameter (or parameter pack) `@name` available as an SSA value.
    The value is the same for every vertex (it has no batch dimension).

    ```mlir
    %W = cavs.param_ref @W_iou : tensor<450x300xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$param);
  let results = (outs Cavs_Tensor:$result);
  let assemblyFormat = "$param attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// The four Cavs primitives and the loss
//===----------------------------------------------------------------------===//

def Cavs_PullOp : Cavs_Op<"pull", [Pure, Cavs_Differentiable]> {
  let summary = "read a per-vertex external input";
  let description = [{
    Reads this vertex's value of the external input `name` (an f32 tensor,
    or an i32 such as a token id or a label). The name and type must be
    declared in the enclosing vertex function's `pulls`.

    ```mlir
    %word = cavs.pull "word" : i32
    ```
  }];
  let arguments = (ins StrAttr:$name);
  let results = (outs Cavs_PullType:$result);
  let assemblyFormat = "$name attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Cavs_PushOp : Cavs_Op<"push", [MemoryEffects<[MemWrite]>,
                                    Cavs_Differentiable]> {
  let summary = "write a per-vertex external output";
  let description = [{
    Writes this vertex's value of the external output `name`, declared in
    the enclosing vertex function's `pushes`.

    ```mlir
    cavs.push "h", %h : tensor<150xf32>
    ```
  }];
  let arguments = (ins StrAttr:$name, Cavs_Tensor:$value);
  let assemblyFormat = "$name `,` $value attr-dict `:` type($value)";
  let hasVerifier = 1;
}

def Cavs_GatherOp : Cavs_Op<"gather", [Pure, Cavs_Differentiable,
    DeclareOpInterfaceMethods<Cavs_CostOpInterface,
                              ["getFlops", "getCopyBytes"]>]> {
  let summary = "read the state scattered by child `index`";
  let description = [{
    Returns the state that child `index` of this vertex scattered, or zeros
    when the vertex has no such child. The type is the model's state type.

    ```mlir
    %s = cavs.gather 1 : tensor<300xf32>
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$index);
  let results = (outs Cavs_Tensor:$result);
  let assemblyFormat = "$index attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Cavs_ScatterOp : Cavs_Op<"scatter", [MemoryEffects<[MemWrite]>,
    Cavs_Differentiable,
    DeclareOpInterfaceMethods<Cavs_CostOpInterface, ["getCopyBytes"]>]> {
  let summary = "publish this vertex's state to its parents";
  let description = [{
    Makes `value` the state that parents of this vertex read with
    `cavs.gather`. Its type is the model's state type.

    ```mlir
    cavs.scatter %s : tensor<300xf32>
    ```
  }];
  let arguments = (ins Cavs_Tensor:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
  let hasVerifier = 1;
}

def Cavs_LossOp : Cavs_Op<"loss", [MemoryEffects<[MemWrite]>,
                                    Cavs_Differentiable]> {
  let summary = "add a scalar to the training loss";
  let description = [{
    The model's loss is the sum of every `cavs.loss` operand over all
    vertices of the batch.

    ```mlir
    cavs.loss %l : tensor<f32>
    ```
  }];
  let arguments = (ins Cavs_Scalar:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Math
//===----------------------------------------------------------------------===//

def Cavs_ConstantOp : Cavs_Op<"constant", [ConstantLike, Pure,
    AllTypesMatch<["value", "result"]>]> {
  let summary = "a constant tensor";
  let description = [{
    ```mlir
    %two = cavs.constant dense<2.000000e+00> : tensor<f32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Cavs_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDeclaration = [{
    /// The value of every element when they are all the same (a splat):
    /// the only constants the CPU and CUDA kernels can hold.
    std::optional<float> getSplatFloat();
  }];
}

class Cavs_BinaryOp<string mnemonic, string what,
                    list<Trait> traits = [Cavs_Differentiable]>
    : Cavs_Op<mnemonic, !listconcat(Cavs_ElementwiseTraits,
                                    [Cavs_CostOpInterface], traits)> {
  let summary = "elementwise " # what;
  let description = [{
    Elementwise }] # what # [{ of two values of the same shape; either side
    may also be a scalar (`tensor<f32>`), which is broadcast. The type list
    is shortened to one type when all three agree.

    ```mlir
    %z = cavs.}] # mnemonic # [{ %x, %y : tensor<150xf32>
    %s = cavs.}] # mnemonic # [{ %x, %c : tensor<150xf32>, tensor<f32> -> tensor<150xf32>
    ```
  }];
  let arguments = (ins Cavs_Tensor:$lhs, Cavs_Tensor:$rhs);
  let results = (outs Cavs_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:`
    custom<BroadcastTypes>(type($lhs), type($rhs), type($result))
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Cavs_AddOp : Cavs_BinaryOp<"add", "addition">;
def Cavs_SubOp : Cavs_BinaryOp<"sub", "subtraction">;
def Cavs_MulOp : Cavs_BinaryOp<"mul", "multiplication">;
def Cavs_DivOp : Cavs_BinaryOp<"div", "division">;

class Cavs_UnaryOp<string mnemonic, string what> : Cavs_Op<mnemonic,
    !listconcat(Cavs_ElementwiseTraits, [SameOperandsAndResultType,
                Cavs_CostOpInterface, Cavs_Differentiable])> {
  let summary = what;
  let description = [{
    Applies }] # what # [{ to every element.

    ```mlir
    %y = cavs.}] # mnemonic # [{ %x : tensor<150xf32>
    ```
  }];
  let arguments = (ins Cavs_Tensor:$operand);
  let results = (outs Cavs_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
}

def Cavs_NegOp : Cavs_UnaryOp<"neg", "negation"> {
  let hasFolder = 1;
}
def Cavs_SigmoidOp : Cavs_UnaryOp<"sigmoid", "the logistic function 1/(1+exp(-x))">;
def Cavs_TanhOp : Cavs_UnaryOp<"tanh", "the hyperbolic tangent">;
def Cavs_ReluOp : Cavs_UnaryOp<"relu", "max(x, 0)">;
def Cavs_ExpOp : Cavs_UnaryOp<"exp", "the exponential">;
def Cavs_LogOp : Cavs_UnaryOp<"log", "the natural logarithm">;
def Cavs_SqrtOp : Cavs_UnaryOp<"sqrt", "the square root">;
def Cavs_SoftplusOp : Cavs_UnaryOp<"softplus",
    "log(1 + exp(x)), computed as max(x, 0) + log(1 + exp(-|x|)) so that it "
    "cannot overflow">;

def Cavs_SoftmaxOp : Cavs_Op<"softmax", [Pure, SameOperandsAndResultType,
    Cavs_Differentiable,
    DeclareOpInterfaceMethods<Cavs_CostOpInterface, ["getFlops"]>]> {
  let summary = "softmax of a vector";
  let description = [{
    `exp(x - max(x)) / sum(exp(x - max(x)))` over the vector of one vertex.

    ```mlir
    %p = cavs.softmax %logits : tensor<5xf32>
    ```
  }];
  let arguments = (ins Cavs_Vector:$operand);
  let results = (outs Cavs_Vector:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
}

def Cavs_MatmulOp : Cavs_Op<"matmul", [Pure, Cavs_Differentiable,
    DeclareOpInterfaceMethods<Cavs_CostOpInterface, ["getFlops"]>]> {
  let summary = "matrix times vector";
  let description = [{
    `result = lhs @ rhs` for a matrix `lhs` of shape [M, K] and a vector
    `rhs` of shape [K]; with `transpose_lhs`, `result = lhs^T @ rhs` for
    `rhs` of shape [M]. Batched over vertices this is one GEMM.

    ```mlir
    %y = cavs.matmul %W, %x : tensor<450x300xf32>, tensor<300xf32> -> tensor<450xf32>
    ```
  }];
  let arguments = (ins Cavs_Matrix:$lhs, Cavs_Vector:$rhs,
                       UnitAttr:$transpose_lhs);
  let results = (outs Cavs_Vector:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Cavs_ConcatOp : Cavs_Op<"concat", [Pure, Cavs_Differentiable]> {
  let summary = "concatenate vectors and scalars";
  let description = [{
    A scalar input contributes one element.

    ```mlir
    %s = cavs.concat %c, %h : tensor<150xf32>, tensor<150xf32> -> tensor<300xf32>
    %w = cavs.concat %s0, %s1 : tensor<f32>, tensor<f32> -> tensor<2xf32>
    ```
  }];
  let arguments = (ins Variadic<Cavs_ScalarOrVector>:$inputs);
  let results = (outs Cavs_Vector:$result);
  let assemblyFormat = [{
    $inputs attr-dict `:` type($inputs) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Cavs_SplitOp : Cavs_Op<"split", [Pure, Cavs_Differentiable]> {
  let summary = "split a vector into consecutive parts";
  let description = [{
    The results are consecutive pieces of the input, in order; their sizes
    add up to the input's. (The language's `split(x, n)` makes n equal
    parts; matmul merging makes unequal ones.)

    ```mlir
    %i, %o, %u = cavs.split %x : tensor<450xf32> -> tensor<150xf32>, tensor<150xf32>, tensor<150xf32>
    ```
  }];
  let arguments = (ins Cavs_Vector:$input);
  let results = (outs Variadic<Cavs_Vector>:$results);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($results)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Cavs_SliceOp : Cavs_Op<"slice", [Pure, Cavs_Differentiable]> {
  let summary = "a contiguous part of a vector, or one element";
  let description = [{
    Elements `offset .. offset + size` of `input`, where `size` is the
    length of the result type; a scalar result is element `offset`.

    ```mlir
    %y = cavs.slice %x[10] : tensor<300xf32> -> tensor<20xf32>
    %e = cavs.slice %x[3] : tensor<300xf32> -> tensor<f32>
    ```
  }];
  let arguments = (ins Cavs_Vector:$input,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$offset);
  let results = (outs Cavs_ScalarOrVector:$result);
  let assemblyFormat = [{
    $input `[` $offset `]` attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Cavs_SumOp : Cavs_Op<"sum", !listconcat(Cavs_ElementwiseTraits, [
    SameOperandsAndResultType, Cavs_Differentiable,
    DeclareOpInterfaceMethods<Cavs_CostOpInterface, ["getFlops"]>])> {
  let summary = "elementwise sum of several values";
  let description = [{
    The sum of a compile-time array, e.g. the hidden states of all children.

    ```mlir
    %hs = cavs.sum %h0, %h1 : tensor<150xf32>
    ```
  }];
  let arguments = (ins Variadic<Cavs_Tensor>:$inputs);
  let results = (outs Cavs_Tensor:$result);
  let assemblyFormat = "$inputs attr-dict `:` type($result)";
  let hasFolder = 1;
}

class Cavs_ReductionOp<string mnemonic, string what>
    : Cavs_Op<mnemonic, [Pure, Cavs_Reduction,
        DeclareOpInterfaceMethods<Cavs_ElementwiseOpInterface>,
        DeclareOpInterfaceMethods<Cavs_ReductionOpInterface>,
        Cavs_Differentiable,
        DeclareOpInterfaceMethods<Cavs_CostOpInterface, ["getFlops"]>]> {
  let summary = what # " of the elements of a vector";
  let description = [{
    The }] # what # [{ of the elements of one vertex's vector, a scalar.
    `cavs-fuse-elementwise` ends the kernel that produces the vector with
    it.

    ```mlir
    %s = cavs.}] # mnemonic # [{ %v : tensor<150xf32>
    ```
  }];
  let arguments = (ins Cavs_Vector:$operand);
  let results = (outs Cavs_Scalar:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand)";
}

def Cavs_ReduceSumOp : Cavs_ReductionOp<"reduce_sum", "the sum">;
def Cavs_ReduceMaxOp : Cavs_ReductionOp<"reduce_max", "the largest">;

def Cavs_LookupOp : Cavs_Op<"lookup", [Pure, Cavs_Differentiable]> {
  let summary = "a row of an embedding table";
  let description = [{
    Row `index` of `table` ([V, E] -> [E]); zeros when `index` is negative.
    An index of V or more is a run-time error.

    ```mlir
    %x = cavs.lookup %embed[%word] : tensor<21701x300xf32>, i32 -> tensor<300xf32>
    ```
  }];
  let arguments = (ins Cavs_Matrix:$table, I32:$index);
  let results = (outs Cavs_Vector:$result);
  let assemblyFormat = [{
    $table `[` $index `]` attr-dict `:` type($table) `,` type($index) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Cavs_SoftmaxCrossEntropyOp : Cavs_Op<"softmax_cross_entropy", [Pure,
    Cavs_Differentiable,
    DeclareOpInterfaceMethods<Cavs_CostOpInterface, ["getFlops"]>]> {
  let summary = "cross entropy of softmax(logits) against a class label";
  let description = [{
    `-log(softmax(logits)[label])`, or 0 when `label` is negative (no loss
    at this vertex). A label of C or more is a run-time error.

    ```mlir
    %l = cavs.softmax_cross_entropy %logits, %label : tensor<5xf32>, i32
    ```
  }];
  let arguments = (ins Cavs_Vector:$logits, I32:$label);
  let results = (outs Cavs_Scalar:$result);
  let assemblyFormat = [{
    $logits `,` $label attr-dict `:` type($logits) `,` type($label)
  }];
}

//===----------------------------------------------------------------------===//
// Fused kernels
//===----------------------------------------------------------------------===//

def Cavs_FusedOp : Cavs_Op<"fused", [
    Pure, IsolatedFromAbove, SingleBlockImplicitTerminator<"YieldOp">,
    DeclareOpInterfaceMethods<Cavs_CostOpInterface, ["getFlops"]>]> {
  let summary = "a group of elementwise ops run as one kernel";
  let description = [{
    Made by `cavs-fuse-elementwise`. The region's arguments are the kernel's
    inputs and `cavs.yield` names its outputs; inside are only elementwise
    math ops, constants and reductions. The elementwise ops compute values
    of one shape, the kernel's iteration shape; an input has that shape or
    is a scalar that is broadcast. A reduction reduces a value of the
    iteration shape to a scalar, which only `cavs.yield` may use: it is
    the kernel's epilogue. Every result is of the iteration shape or is a
    reduction's. Values defined inside never reach memory.

    ```mlir
    %h = cavs.fused (%o, %c) : (tensor<150xf32>, tensor<150xf32>) -> tensor<150xf32> {
    ^bb0(%a: tensor<150xf32>, %b: tensor<150xf32>):
      %0 = cavs.sigmoid %a : tensor<150xf32>
      %1 = cavs.tanh %b : tensor<150xf32>
      %2 = cavs.mul %0, %1 : tensor<150xf32>
      cavs.yield %2 : tensor<150xf32>
    }
    %d = cavs.fused (%x, %y) : (tensor<150xf32>, tensor<150xf32>) -> tensor<f32> {
    ^bb0(%a: tensor<150xf32>, %b: tensor<150xf32>):
      %0 = cavs.mul %a, %b : tensor<150xf32>
      %1 = cavs.reduce_sum %0 : tensor<150xf32>
      cavs.yield %1 : tensor<f32>
    }
    ```
  }];
  let arguments = (ins Variadic<Cavs_Tensor>:$inputs);
  let results = (outs Variadic<Cavs_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` attr-dict `:` functional-type($inputs, $results) $body
  }];
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The shape the kernel iterates over: that of its elementwise values
    /// and of the operands of its reductions.
    ::mlir::RankedTensorType getIterationType();
    /// Whether the kernel ends in reductions.
    bool hasReductions();
  }];
}

def Cavs_YieldOp : Cavs_Op<"yield", [
    Pure, Terminator, ReturnLike, ParentOneOf<["FusedOp", "PhaseOp"]>]> {
  let summary = "the outputs of a fused kernel or a phase";
  let description = [{
    ```mlir
    cavs.yield %2, %3 : tensor<150xf32>, tensor<150xf32>
    ```
  }];
  let arguments = (ins Variadic<Cavs_PullType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  let builders = [OpBuilder<(ins), [{ /* nothing to yield */ }]>];
}

include "dialects/CavsGradOps.td"
include "dialects/CavsPhaseOps.td"

#endif // CAVS_OPS_TD
