// cavs-outline-phases needs the classes of cavs-classify.
// RUN: cavs-opt %s --cavs-outline-phases -verify-diagnostics

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {} {
    // expected-error @below {{'cavs.pull' op has no batching class; run cavs-classify first}}
    %x = cavs.pull "x" : tensor<2xf32>
  }
}
