// cavs-autodiff rejects ops it cannot differentiate, at the op.
// RUN: cavs-opt %s --cavs-autodiff --split-input-file -verify-diagnostics

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>} pushes {} {
    %x = cavs.pull "x" : tensor<3xf32>
    // expected-error @below {{'cavs.relu_grad' op has no gradient rule}}
    %g = cavs.relu_grad %x, %x : tensor<3xf32>
    %s = cavs.reduce_sum %g : tensor<3xf32>
    cavs.loss %s : tensor<f32>
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>, M = tensor<3x3xf32>} pushes {} {
    %x = cavs.pull "x" : tensor<3xf32>
    %M = cavs.pull "M" : tensor<3x3xf32>
    // expected-error @below {{'cavs.matmul' op cannot be differentiated: its matrix operand is not a parameter}}
    %y = cavs.matmul %M, %x : tensor<3x3xf32>, tensor<3xf32> -> tensor<3xf32>
    %s = cavs.reduce_sum %y : tensor<3xf32>
    cavs.loss %s : tensor<f32>
  }
}

// -----

// An op with regions that uses a differentiable value from above is on the
// path too (its gradient was silently dropped).
cavs.model @m state tensor<4xf32> {
  cavs.param @b : tensor<4xf32> init zeros
  cavs.vertex @v arity 1 pulls {w = i32} pushes {} {
    %w = cavs.pull "w" : i32
    %z = arith.constant 0 : i32
    %c = arith.cmpi eq, %w, %z : i32
    %s = cavs.gather 0 : tensor<4xf32>
    %b = cavs.param_ref @b : tensor<4xf32>
    // expected-error @below {{'scf.if' op has no gradient rule}}
    %r = scf.if %c -> tensor<4xf32> {
      %t = cavs.add %s, %b : tensor<4xf32>
      scf.yield %t : tensor<4xf32>
    } else {
      scf.yield %s : tensor<4xf32>
    }
    %u = cavs.tanh %r : tensor<4xf32>
    cavs.scatter %u : tensor<4xf32>
    %l = cavs.reduce_sum %u : tensor<4xf32>
    cavs.loss %l : tensor<f32>
  }
}

// -----

// Autodiff comes before the classes, kernels and phases: on IR made by
// them its walk of F found nothing, and dF came out empty (every gradient
// zero).
cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>} pushes {} {
    // expected-error @below {{'cavs.pull' op is classified, fused or outlined already; cavs-autodiff runs before cavs-classify}}
    %x = cavs.pull "x" {cavs.batching = #cavs.batching<eager>} : tensor<3xf32>
    %s = cavs.reduce_sum %x {cavs.batching = #cavs.batching<eager>} : tensor<3xf32>
    cavs.loss %s {cavs.batching = #cavs.batching<eager>} : tensor<f32>
  }
}
