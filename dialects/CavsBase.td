//===- CavsBase.td - the cavs dialect and its type constraints -*- tablegen -*-===//
//
// The dialect definition, its enums and the type constraints shared by all
// ops. A value of the dialect is a *per-vertex* tensor: its type gives the
// shape of one vertex's value, the batch dimension is implicit.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_BASE_TD
#define CAVS_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/EnumAttr.td"

def Cavs_Dialect : Dialect {
  let name = "cavs";
  let cppNamespace = "::cavs";
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// The attribute cavs-classify puts on each op of F and ∂F (verified: a
    /// #cavs.batching, only there). cavs-outline-phases turns it into
    /// cavs.phase ops and refuses an op without one.
    static constexpr ::llvm::StringLiteral kBatchingAttrName = "cavs.batching";
    /// cavs-plan-memory: the slots of an op's results (an array of
    /// #cavs.slot, one per result) ...
    static constexpr ::llvm::StringLiteral kSlotsAttrName = "cavs.slots";
    /// ... and, on a vertex function, the floats per row of its arena and
    /// of its task scratch.
    static constexpr ::llvm::StringLiteral kArenaWidthAttrName = "cavs.arena_floats";
    static constexpr ::llvm::StringLiteral kScratchWidthAttrName = "cavs.scratch_floats";
  }];
  let summary = "Vertex functions of dynamic neural networks (the Cavs model)";
  let description = [{
    A dynamic neural network is a static *vertex function* F plus a
    per-sample *input graph* G. The `cavs` dialect expresses F: a
    `cavs.model` holds the parameters (`cavs.param`) and one or more vertex
    functions (`cavs.vertex`). Inside a vertex function, values are the
    tensors of **one** vertex; the runtime evaluates F batched over many
    vertices, so every value has an implicit leading batch dimension.

    F talks to its neighbours with four primitives: `cavs.gather` reads the
    state a child scattered, `cavs.scatter` publishes this vertex's state,
    `cavs.pull` reads a per-vertex external input and `cavs.push` writes a
    per-vertex external output. `cavs.loss` adds a scalar to the loss that
    is summed over all vertices.

    ```mlir
    cavs.model @chain state tensor<4xf32> {
      cavs.param @W : tensor<4x4xf32> init xavier
      cavs.vertex @cell arity 1 pulls {x = tensor<4xf32>} pushes {} {
        %x = cavs.pull "x" : tensor<4xf32>
        %h = cavs.gather 0 : tensor<4xf32>
        %W = cavs.param_ref @W : tensor<4x4xf32>
        %y = cavs.matmul %W, %h : tensor<4x4xf32>, tensor<4xf32> -> tensor<4xf32>
        %s = cavs.add %x, %y : tensor<4xf32>
        %t = cavs.tanh %s : tensor<4xf32>
        cavs.scatter %t : tensor<4xf32>
      }
    }
    ```
  }];
}

/// How a parameter tensor is initialised when a model is created: the kinds
/// of runtime/include/cavs/init_kinds.def, with the same values (CavsOps.cpp
/// checks them at compile time; TableGen cannot read the .def).
def Cavs_InitializerKind : I32EnumAttr<"InitializerKind", "parameter initializer", [
    I32EnumAttrCase<"zeros", 0>,
    I32EnumAttrCase<"ones", 1>,
    I32EnumAttrCase<"constant", 2>,
    I32EnumAttrCase<"uniform", 3>,
    I32EnumAttrCase<"normal", 4>,
    I32EnumAttrCase<"xavier", 5>]> {
  let cppNamespace = "::cavs";
}

/// When an op of F or ∂F runs relative to the task-by-task recursion over the
/// input graph (set by cavs-classify).
def Cavs_BatchingKind : I32EnumAttr<"BatchingKind", "batching class of an op", [
    I32EnumAttrCase<"eager", 0>,
    I32EnumAttrCase<"body", 1>,
    I32EnumAttrCase<"lazy", 2>]> {
  let cppNamespace = "::cavs";
  let genSpecializedAttr = 0;
}

def Cavs_BatchingAttr : EnumAttr<Cavs_Dialect, Cavs_BatchingKind, "batching"> {
  let assemblyFormat = "`<` $value `>`";
  let summary = "batching class: eager, body or lazy";
  let description = [{
    `eager`: does not depend on the recursion's input (`cavs.gather` in F,
    `cavs.state_grad` in ∂F), so it runs once over all vertices before the
    recursion. `lazy`: the recursion's output (`cavs.scatter` in F,
    `cavs.child_grad` in ∂F) does not depend on it, so it runs once over all
    vertices after the recursion. `body`: everything else, run task by task.
  }];
}

/// Where cavs-plan-memory puts a value: the vertex function's arena (one row
/// per vertex of the batch), its task scratch (one row per vertex of the
/// task being run) or the vertex's row of the state buffer (the value that
/// cavs.scatter publishes, computed there in place).
def Cavs_SlotSpace : I32EnumAttr<"SlotSpace", "memory a value lives in", [
    I32EnumAttrCase<"arena", 0>,
    I32EnumAttrCase<"scratch", 1>,
    I32EnumAttrCase<"state", 2>]> {
  let cppNamespace = "::cavs";
  let genSpecializedAttr = 0;
}

def Cavs_SlotAttr : AttrDef<Cavs_Dialect, "Slot"> {
  let mnemonic = "slot";
  let summary = "the columns a value occupies in its vertex function's rows";
  let description = [{
    `#cavs.slot<arena, 150, 300>`: the value's elements are columns
    150 .. 449 of every row of the arena (row r belongs to the r-th vertex
    of this vertex function in the batch). `scratch` slots are columns of
    the task scratch, whose rows are the vertices of the task being run.
    `state` slots are columns of the vertices' rows of the state buffer:
    the value `cavs.scatter` publishes, and the parts computed in place in
    it, so that the scatter copies nothing.
    Slots of values whose lifetimes do not overlap may coincide; a slot
    inside another value's slot is a view of it (a split or slice part).
  }];
  let parameters = (ins EnumParameter<Cavs_SlotSpace>:$space,
                        "int64_t":$offset, "int64_t":$size);
  let assemblyFormat = "`<` $space `,` $offset `,` $size `>`";
}

/// A per-vertex f32 value: a scalar (rank 0), a vector or a matrix.
def Cavs_Tensor : Type<
    And<[IsTensorTypePred, HasStaticShapePred,
         CPred<"::llvm::cast<::mlir::RankedTensorType>($_self).getRank() <= 2">,
         CPred<"::llvm::cast<::mlir::RankedTensorType>($_self).getElementType().isF32()">]>,
    "statically shaped f32 tensor of rank 0 to 2",
    "::mlir::RankedTensorType">;

/// A per-vertex f32 scalar.
def Cavs_Scalar : Type<
    And<[Cavs_Tensor.predicate,
         CPred<"::llvm::cast<::mlir::RankedTensorType>($_self).getRank() == 0">]>,
    "f32 scalar tensor", "::mlir::RankedTensorType"> {
  let builderCall = "::mlir::RankedTensorType::get({}, $_builder.getF32Type())";
}

/// A per-vertex f32 vector.
def Cavs_Vector : Type<
    And<[Cavs_Tensor.predicate,
         CPred<"::llvm::cast<::mlir::RankedTensorType>($_self).getRank() == 1">]>,
    "f32 vector tensor", "::mlir::RankedTensorType">;

/// A per-vertex f32 scalar or vector: what concat, slice and pad move
/// around (a scalar as one element).
def Cavs_ScalarOrVector : Type<
    And<[Cavs_Tensor.predicate,
         CPred<"::llvm::cast<::mlir::RankedTensorType>($_self).getRank() <= 1">]>,
    "f32 scalar or vector tensor", "::mlir::RankedTensorType">;

/// A matrix operand of a matmul or lookup (a parameter in practice).
def Cavs_Matrix : Type<
    And<[Cavs_Tensor.predicate,
         CPred<"::llvm::cast<::mlir::RankedTensorType>($_self).getRank() == 2">]>,
    "f32 matrix tensor", "::mlir::RankedTensorType">;

/// What `cavs.pull` may read: an f32 tensor or an i32 index/label.
def Cavs_PullType : AnyTypeOf<[Cavs_Tensor, I32]>;

/// Elementwise math: each result element depends only on the operand elements
/// at the same position (rank-0 operands broadcast). cavs-fuse-elementwise
/// groups such ops into one kernel.
def Cavs_ElementwiseMath : NativeOpTrait<"ElementwiseMath"> {
  let cppNamespace = "::cavs::OpTrait";
}

/// A reduction of a vector to a scalar (rank-0) result. A cavs.fused kernel
/// may end in reductions of its iteration values: each row's elements are
/// reduced after the elementwise ops produced them.
def Cavs_Reduction : NativeOpTrait<"Reduction"> {
  let cppNamespace = "::cavs::OpTrait";
}

class Cavs_Op<string mnemonic, list<Trait> traits = []>
    : Op<Cavs_Dialect, mnemonic, traits>;

#endif // CAVS_BASE_TD
