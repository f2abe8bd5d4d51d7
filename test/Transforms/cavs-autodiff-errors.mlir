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
