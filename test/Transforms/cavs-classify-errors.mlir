// cavs-classify runs once, before the kernels and the memory plan are made
// from its classes: on fused or planned IR (cavs-optimize run twice) it
// reclassified ops whose slots and kernels no longer matched.
// RUN: cavs-opt %s --cavs-classify -verify-diagnostics -split-input-file

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {y = tensor<2xf32>} attributes {cavs.arena_floats = 4 : i64, cavs.scratch_floats = 0 : i64} {
    // expected-error @below {{'cavs.pull' op is fused or planned already; cavs-classify runs once, before cavs-fuse-elementwise and cavs-plan-memory}}
    %x = cavs.pull "x" {cavs.batching = #cavs.batching<eager>, cavs.slots = [#cavs.slot<arena, 0, 2>]} : tensor<2xf32>
    %t = cavs.tanh %x {cavs.batching = #cavs.batching<eager>, cavs.slots = [#cavs.slot<arena, 2, 2>]} : tensor<2xf32>
    cavs.push "y", %t {cavs.batching = #cavs.batching<eager>} : tensor<2xf32>
  }
}
