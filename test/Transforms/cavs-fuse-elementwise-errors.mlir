// cavs-fuse-elementwise needs the batching classes of cavs-classify: a
// kernel never mixes them.
// RUN: cavs-opt %s --cavs-fuse-elementwise -verify-diagnostics

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {y = tensor<2xf32>} {
    // expected-error @below {{'cavs.pull' op has no batching class; run cavs-classify before cavs-fuse-elementwise}}
    %x = cavs.pull "x" : tensor<2xf32>
    %t = cavs.tanh %x : tensor<2xf32>
    cavs.push "y", %t : tensor<2xf32>
  }
}
