// cavs-outline-phases needs the classes of cavs-classify, consistent ones.
// RUN: cavs-opt %s --cavs-outline-phases -verify-diagnostics -split-input-file

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {} {
    // expected-error @below {{'cavs.pull' op has no batching class; run cavs-classify first}}
    %x = cavs.pull "x" : tensor<2xf32>
  }
}

// -----

// Phases run in class order: an op cannot read a value of a later class
// (hand-written or stale classes; it made IR whose uses did not dominate).
cavs.model @m state tensor<4xf32> {
  cavs.vertex @v arity 1 pulls {x = tensor<4xf32>} pushes {y = tensor<4xf32>} {
    %x = cavs.pull "x" {cavs.batching = #cavs.batching<lazy>} : tensor<4xf32>
    %s = cavs.gather 0 {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    // expected-error @below {{'cavs.add' op is body but reads a value of the later class lazy; the classes are inconsistent (run cavs-classify)}}
    %a = cavs.add %x, %s {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    cavs.scatter %a {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    cavs.push "y", %a {cavs.batching = #cavs.batching<lazy>} : tensor<4xf32>
  }
}
