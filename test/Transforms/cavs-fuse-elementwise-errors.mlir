// cavs-fuse-elementwise needs the batching classes of cavs-classify (a
// kernel never mixes them) and comes before the memory plan (a kernel
// changes what has a slot).
// RUN: cavs-opt %s --cavs-fuse-elementwise -verify-diagnostics -split-input-file

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {y = tensor<2xf32>} {
    // expected-error @below {{'cavs.pull' op has no batching class; run cavs-classify before cavs-fuse-elementwise}}
    %x = cavs.pull "x" : tensor<2xf32>
    %t = cavs.tanh %x : tensor<2xf32>
    cavs.push "y", %t : tensor<2xf32>
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {y = tensor<2xf32>} attributes {cavs.arena_floats = 4 : i64, cavs.scratch_floats = 0 : i64} {
    // expected-error @below {{'cavs.pull' op has a memory slot: the memory plan is made already, and cavs-fuse-elementwise comes before cavs-plan-memory, once}}
    %x = cavs.pull "x" {cavs.batching = #cavs.batching<eager>, cavs.slots = [#cavs.slot<arena, 0, 2>]} : tensor<2xf32>
    %t = cavs.tanh %x {cavs.batching = #cavs.batching<eager>, cavs.slots = [#cavs.slot<arena, 2, 2>]} : tensor<2xf32>
    cavs.push "y", %t {cavs.batching = #cavs.batching<eager>} : tensor<2xf32>
  }
}
