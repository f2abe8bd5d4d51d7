//===- Passes.td - the cavs compiler passes --------------------*- tablegen -*-===//
//
// Every pass of the cavs compiler, declared once here. Flags follow the
// `cavs-<verb>[-<noun>]` scheme; each pass runs on one cavs.model.
//
//===----------------------------------------------------------------------===//

#ifndef CAVS_TRANSFORMS_PASSES_TD
#define CAVS_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def CavsAutodiff : Pass<"cavs-autodiff", "cavs::ModelOp"> {
  let summary = "derive the backward function ∂F of every vertex function";
  let description = [{
    Appends a `cavs.backward` region to every vertex function that has none.
    The region holds the adjoint of each forward op that lies between a
    differentiable input (a parameter, an f32 pull, a gather) and an output
    (a loss, a push, the scatter), in reverse order, following the Cavs
    rules:

    - the loss seeds the backward pass with 1 (`cavs.loss %l` gives `%l`
      the gradient 1);
    - the adjoint of `cavs.scatter %s` is `cavs.state_grad` (the gradient the
      parents sent, summed over all parents);
    - the adjoint of `cavs.gather k` is `cavs.child_grad k`;
    - the adjoint of `cavs.push "n"` is `cavs.push_grad "n"` (zeros when the
      caller gives none) and that of an f32 `cavs.pull "n"` is
      `cavs.pull_grad "n"`;
    - parameters get summed gradients: `cavs.param_grad_outer` for matmul
      weights, `cavs.lookup_grad` (sparse rows) for embedding tables,
      `cavs.param_grad` otherwise.

    A value used several times sums its gradient contributions. An op with
    no gradient rule on a differentiated path is an error.

    Before:
    ```mlir
    cavs.vertex @cell arity 1 pulls {} pushes {} {
      %s = cavs.gather 0 : tensor<4xf32>
      %t = cavs.tanh %s : tensor<4xf32>
      cavs.scatter %t : tensor<4xf32>
    }
    ```
    After:
    ```mlir
    cavs.vertex @cell arity 1 pulls {} pushes {} {
      %s = cavs.gather 0 : tensor<4xf32>
      %t = cavs.tanh %s : tensor<4xf32>
      cavs.scatter %t : tensor<4xf32>
      cavs.backward {
        %0 = cavs.state_grad : tensor<4xf32>
        %1 = cavs.mul %t, %t : tensor<4xf32>
        %2 = cavs.constant dense<1.000000e+00> : tensor<f32>
        %3 = cavs.sub %2, %1 : tensor<f32>, tensor<4xf32> -> tensor<4xf32>
        %4 = cavs.mul %0, %3 : tensor<4xf32>
        cavs.child_grad 0, %4 : tensor<4xf32>
      }
    }
    ```
  }];
}

def CavsClassify : Pass<"cavs-classify", "cavs::ModelOp"> {
  let summary = "mark every op of F and ∂F as eager, body or lazy";
  let description = [{
    Implements the batching classes of the Cavs paper. In F the recursion
    reads children through `cavs.gather` and publishes through
    `cavs.scatter`; in ∂F (the `cavs.backward` region) it reads
    `cavs.state_grad` and publishes through `cavs.child_grad`. An op is

    - **eager** when it does not depend on the recursion's input: it can run
      once, batched over every vertex of the whole batch, before the
      recursion (pulls, `W @ x` of pulled inputs, the loss adjoint in ∂F);
    - **lazy** when it depends on the input but the recursion's output does
      not depend on it: it can run once over every vertex after the
      recursion (push, loss, parameter gradients in ∂F);
    - **body** otherwise: it lies on an input-to-output path and runs task by
      task.

    An op of a leaf vertex function (no gather) is therefore eager. The
    class is stored in the `cavs.batching` attribute of every op. With
    `lazy-batching=false` every op is body (the paper's ablation: no eager
    or lazy batching, everything runs task by task).

    Before:
    ```mlir
    %x = cavs.pull "x" : tensor<4xf32>
    %s = cavs.gather 0 : tensor<4xf32>
    %y = cavs.add %x, %s : tensor<4xf32>
    cavs.scatter %y : tensor<4xf32>
    cavs.push "y", %y : tensor<4xf32>
    ```
    After:
    ```mlir
    %x = cavs.pull "x" {cavs.batching = #cavs.batching<eager>} : tensor<4xf32>
    %s = cavs.gather 0 {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    %y = cavs.add %x, %s {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    cavs.scatter %y {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    cavs.push "y", %y {cavs.batching = #cavs.batching<lazy>} : tensor<4xf32>
    ```
  }];
  let options = [
    Option<"lazyBatching", "lazy-batching", "bool", /*default=*/"true",
           "Use the eager and lazy classes (false: every op is body)">,
  ];
}

def CavsFuseElementwise : Pass<"cavs-fuse-elementwise", "cavs::ModelOp"> {
  let summary = "group linked elementwise ops into cavs.fused kernels";
  let description = [{
    Union-find over the elementwise math ops of F and of ∂F: an op joins the
    group of an operand's producer when both are elementwise, have the same
    batching class (`cavs.batching`) and the same result type, and the merge
    keeps the graph of groups acyclic. The pass needs the batching classes of
    `cavs-classify` and fails on an op without one. Matmuls, gathers,
    scatters and every other non-elementwise op stay outside, so no kernel
    spans them. Each group becomes one `cavs.fused` op (one kernel in the
    backends); splat constants are copied into the kernels that use them.
    With `merge=false` no two ops are grouped: every elementwise op becomes
    its own kernel (the "fusion off" ablation; backends only compile
    `cavs.fused` ops).

    Before:
    ```mlir
    %a = cavs.sigmoid %o {cavs.batching = #cavs.batching<body>} : tensor<150xf32>
    %b = cavs.tanh %c {cavs.batching = #cavs.batching<body>} : tensor<150xf32>
    %h = cavs.mul %a, %b {cavs.batching = #cavs.batching<body>} : tensor<150xf32>
    ```
    After:
    ```mlir
    %h = cavs.fused (%o, %c) {cavs.batching = #cavs.batching<body>} : (tensor<150xf32>, tensor<150xf32>) -> tensor<150xf32> {
    ^bb0(%arg0: tensor<150xf32>, %arg1: tensor<150xf32>):
      %0 = cavs.sigmoid %arg0 : tensor<150xf32>
      %1 = cavs.tanh %arg1 : tensor<150xf32>
      %2 = cavs.mul %0, %1 : tensor<150xf32>
      cavs.yield %2 : tensor<150xf32>
    }
    ```
  }];
  let options = [
    Option<"merge", "merge", "bool", /*default=*/"true",
           "Group linked elementwise ops (false: one kernel per op)">
  ];
}

def CavsMergeMatmuls : Pass<"cavs-merge-matmuls", "cavs::ModelOp"> {
  let summary = "merge matmuls that share their vector into one GEMM";
  let description = [{
    Matmuls of one block that multiply different parameter matrices by the
    same vector (the gate products `W_i @ x`, `W_f @ x`, ... of an LSTM)
    become one matmul by a `cavs.param_pack` of the matrices, followed by a
    `cavs.split` of the result. The pack is a compile-time layout decision:
    the runtime stores its members back to back, so nothing is copied at run
    time, and each member keeps its name. Run before `cavs-autodiff`, the
    backward pass then also needs one GEMM for the input gradient and one
    for the packed weight gradient.

    Before:
    ```mlir
    %a = cavs.matmul %W_iou, %x : tensor<450x300xf32>, tensor<300xf32> -> tensor<450xf32>
    %b = cavs.matmul %W_f, %x : tensor<150x300xf32>, tensor<300xf32> -> tensor<150xf32>
    ```
    After:
    ```mlir
    cavs.param_pack @pack_W_iou_W_f : tensor<600x300xf32> = [@W_iou, @W_f]
    ...
    %p = cavs.param_ref @pack_W_iou_W_f : tensor<600x300xf32>
    %y = cavs.matmul %p, %x : tensor<600x300xf32>, tensor<300xf32> -> tensor<600xf32>
    %a, %b = cavs.split %y : tensor<600xf32> -> tensor<450xf32>, tensor<150xf32>
    ```
  }];
}

def CavsPlanMemory : Pass<"cavs-plan-memory", "cavs::ModelOp"> {
  let summary = "give every per-vertex value a slot in its function's rows";
  let description = [{
    Each vertex function owns an **arena**: one row of columns per vertex
    of that function in the batch (rows in task order, so a task's rows
    are contiguous), stored block by block (dialects/ArenaLayout.h:
    columns that slots share form a block, one matrix over all rows), with
    `cavs.arena_floats` floats per vertex for that layout; and a **task
    scratch**: one row per vertex of the task being run, with
    `cavs.scratch_floats` floats per row. Every value of F and ∂F gets a
    `#cavs.slot<space, offset, size>` (the `cavs.slots` attribute of its
    op), so the runtime allocates two buffers per function and batch and
    nothing per op.

    Lifetimes follow execution order, which is phase order (F eager, F
    body, F lazy, ∂F eager, ∂F body, ∂F lazy; see `cavs-classify`), then
    program order. A value defined and last used in the same body phase
    lives only within a task: it goes to the scratch. Any other value lives
    in the arena; one that a body phase defines or uses is live for that
    whole phase, since the phase runs task after task over all rows. Values
    of F that ∂F uses are therefore kept until backward, and values whose
    lifetimes do not overlap share columns (first fit in order of start).
    Parts of a `cavs.split` and a `cavs.slice` are views into their input's
    slot, not copies. Parameters and constants take no slot. The pass
    needs the batching classes of `cavs-classify`.

    After (excerpt):
    ```mlir
    cavs.vertex @cell arity 1 pulls {x = tensor<4xf32>} pushes {}
        attributes {cavs.arena_floats = 12 : i64, cavs.scratch_floats = 4 : i64} {
      %x = cavs.pull "x" {cavs.batching = #cavs.batching<eager>,
                          cavs.slots = [#cavs.slot<arena, 0, 4>]} : tensor<4xf32>
      ...
    ```
  }];
}

def CavsOutlinePhases : Pass<"cavs-outline-phases", "cavs::ModelOp"> {
  let summary = "group the ops of F and ∂F into one cavs.phase per class";
  let description = [{
    Makes the batching classes of `cavs-classify` part of the IR's
    structure: the ops of each class move, in order, into a `cavs.phase` of
    that class at the end of their block (before `cavs.backward`), and the
    `cavs.batching` attributes go. A phase yields the values that later
    phases or ∂F read. Parameter references and constants stay where they
    are. The pass needs every op classified and keeps the memory plan; the
    lowering (`cavs-lower-to-runtime`) makes one function of each phase.

    Before:
    ```mlir
    %x = cavs.pull "x" {cavs.batching = #cavs.batching<eager>} : tensor<4xf32>
    %s = cavs.gather 0 {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    %y = cavs.add %x, %s {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    cavs.scatter %y {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    ```
    After:
    ```mlir
    %0 = cavs.phase <eager> -> tensor<4xf32> {
      %x = cavs.pull "x" : tensor<4xf32>
      cavs.yield %x : tensor<4xf32>
    }
    cavs.phase <body> {
      %s = cavs.gather 0 : tensor<4xf32>
      %y = cavs.add %0, %s : tensor<4xf32>
      cavs.scatter %y : tensor<4xf32>
      cavs.yield
    }
    ```
  }];
}

#endif // CAVS_TRANSFORMS_PASSES_TD
