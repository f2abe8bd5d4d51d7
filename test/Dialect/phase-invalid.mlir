// The phases of a vertex function are verified: their order, what goes in
// and out of them, the batching classes they come from, and the memory plan
// the lowering addresses memory with.
// RUN: cavs-opt %s -split-input-file -verify-diagnostics

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {} {
    cavs.phase <body> {
      cavs.yield
    }
    // expected-error @below {{'cavs.phase' op expects the phases of a block in the order eager, body, lazy, at most one of each}}
    cavs.phase <eager> {
      cavs.yield
    }
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {} {
    cavs.phase <eager> {
      cavs.yield
    }
    // expected-error @below {{'cavs.phase' op expects the phases of a block in the order eager, body, lazy, at most one of each}}
    cavs.phase <eager> {
      cavs.yield
    }
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {} {
    // expected-error @below {{'cavs.pull' op runs per vertex but is outside the phases of its block}}
    %x = cavs.pull "x" : tensor<2xf32>
    cavs.phase <eager> {
      cavs.yield
    }
  }
}

// -----

cavs.model @m {
  cavs.param @b : tensor<2xf32> init zeros
  cavs.vertex @v arity 0 pulls {} pushes {} {
    cavs.phase <eager> {
      // expected-error @below {{'cavs.param_ref' op must be outside the phases, where every phase reads it}}
      %b = cavs.param_ref @b : tensor<2xf32>
      cavs.yield
    }
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {} {
    // expected-error @below {{'cavs.phase' op expects cavs.yield of the result types}}
    %0 = cavs.phase <eager> -> tensor<2xf32> {
      cavs.yield
    }
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {} {
    // expected-error @below {{'cavs.pull' op expects 'cavs.batching' to be a #cavs.batching, got "eager"}}
    %x = cavs.pull "x" {cavs.batching = "eager"} : tensor<2xf32>
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {} {
    %x = cavs.pull "x" {cavs.batching = #cavs.batching<eager>} : tensor<2xf32>
    %y = cavs.fused(%x) {cavs.batching = #cavs.batching<eager>} : (tensor<2xf32>) -> tensor<2xf32> {
    ^bb0(%a: tensor<2xf32>):
      // expected-error @below {{'cavs.tanh' op may not carry 'cavs.batching': only ops of F and ∂F have a class}}
      %t = cavs.tanh %a {cavs.batching = #cavs.batching<eager>} : tensor<2xf32>
      cavs.yield %t : tensor<2xf32>
    }
  }
}

// -----

// The memory plan's attributes address memory once lowered: they must fit.
cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {} attributes {cavs.arena_floats = 2 : i64, cavs.scratch_floats = 0 : i64} {
    // expected-error @below {{'cavs.pull' op has a slot #cavs.slot<arena, 1, 2> past the 2 columns of its arena}}
    %x = cavs.pull "x" {cavs.slots = [#cavs.slot<arena, 1, 2>]} : tensor<2xf32>
  }
}

// -----

// The same without overflow: an offset near 2^63 does not wrap into range.
cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<4xf32>} pushes {} attributes {cavs.arena_floats = 8 : i64, cavs.scratch_floats = 0 : i64} {
    // expected-error @below {{'cavs.pull' op has a slot #cavs.slot<arena, 9223372036854775806, 4> past the 8 columns of its arena}}
    %x = cavs.pull "x" {cavs.slots = [#cavs.slot<arena, 9223372036854775806, 4>]} : tensor<4xf32>
  }
}

// -----

// A state slot lies in the state's columns.
cavs.model @m state tensor<3xf32> {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {} {
    // expected-error @below {{'cavs.pull' op has a slot #cavs.slot<state, 2, 2> past the 3 columns of its state}}
    %x = cavs.pull "x" {cavs.slots = [#cavs.slot<state, 2, 2>]} : tensor<2xf32>
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {} {
    // expected-error @below {{'cavs.pull' op expects a #cavs.slot of 2 columns at a non-negative offset for each result, got #cavs.slot<arena, 0, 3>}}
    %x = cavs.pull "x" {cavs.slots = [#cavs.slot<arena, 0, 3>]} : tensor<2xf32>
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {} {
    // expected-error @below {{'cavs.pull' op expects 'cavs.slots' to list one #cavs.slot per result}}
    %x = cavs.pull "x" {cavs.slots = 1 : i64} : tensor<2xf32>
  }
}

// -----

cavs.model @m {
  // expected-error @below {{'cavs.vertex' op expects 'cavs.arena_floats' to be a non-negative integer on a cavs.vertex}}
  cavs.vertex @v arity 0 pulls {} pushes {} attributes {cavs.arena_floats = "wide"} {
  }
}
