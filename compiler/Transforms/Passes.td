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
    class is stored in the `cavs.batching` attribute of every op.

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
}

#endif // CAVS_TRANSFORMS_PASSES_TD
