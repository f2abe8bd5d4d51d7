// cavs-lower-to-runtime needs the memory plan and the phases, and refuses
// what the runtime cannot run.
// RUN: cavs-opt %s --split-input-file --cavs-lower-to-runtime -verify-diagnostics

cavs.model @m {
  // expected-error @below {{'cavs.vertex' op has no memory plan; run cavs-plan-memory first}}
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {} {
    %x = cavs.pull "x" : tensor<2xf32>
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {} attributes {cavs.arena_floats = 2 : i64, cavs.scratch_floats = 0 : i64} {
    // expected-error @below {{'cavs.pull' op is outside the phases; run cavs-outline-phases first}}
    %x = cavs.pull "x" {cavs.slots = [#cavs.slot<arena, 0, 2>]} : tensor<2xf32>
  }
}

// -----

// Elementwise ops are lowered as kernels only (it failed as an illegal op).
cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {y = tensor<2xf32>} attributes {cavs.arena_floats = 4 : i64, cavs.scratch_floats = 0 : i64} {
    cavs.phase <eager> {
      %x = cavs.pull "x" {cavs.slots = [#cavs.slot<arena, 0, 2>]} : tensor<2xf32>
      // expected-error @below {{'cavs.tanh' op is outside a kernel; run cavs-fuse-elementwise before cavs-plan-memory}}
      %t = cavs.tanh %x {cavs.slots = [#cavs.slot<arena, 2, 2>]} : tensor<2xf32>
      cavs.push "y", %t : tensor<2xf32>
      cavs.yield
    }
  }
}

// -----

// A whole-type phase sees a vertex function's state rows as one block only
// when every vertex is at level 0 (arity 0), and knows no children.
cavs.model @m state tensor<2xf32> {
  cavs.vertex @v arity 1 pulls {x = tensor<2xf32>} pushes {} attributes {cavs.arena_floats = 2 : i64, cavs.scratch_floats = 0 : i64} {
    cavs.phase <eager> {
      %x = cavs.pull "x" {cavs.slots = [#cavs.slot<arena, 0, 2>]} : tensor<2xf32>
      // expected-error @below {{'cavs.scatter' op reads or writes the state outside the task order, in vertex function 'v' (arity 1); only its body phase may}}
      cavs.scatter %x : tensor<2xf32>
      cavs.yield
    }
  }
}

// -----

// Nor does a lazy phase: a gather there would read children no task names.
cavs.model @m state tensor<2xf32> {
  cavs.vertex @v arity 1 pulls {} pushes {} attributes {cavs.arena_floats = 2 : i64, cavs.scratch_floats = 0 : i64} {
    cavs.phase <body> {
      %g = cavs.gather 0 {cavs.slots = [#cavs.slot<arena, 0, 2>]} : tensor<2xf32>
      cavs.scatter %g : tensor<2xf32>
      cavs.yield
    }
    cavs.phase <lazy> {
      // expected-error @below {{'cavs.gather' op reads or writes the state outside the task order, in vertex function 'v' (arity 1); only its body phase may}}
      %s = cavs.gather 0 {cavs.slots = [#cavs.slot<arena, 0, 2>]} : tensor<2xf32>
      %r = cavs.reduce_sum %s : tensor<2xf32>
      cavs.loss %r : tensor<f32>
      cavs.yield
    }
  }
}

// -----

cavs.model @m state tensor<2xf32> {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {} attributes {cavs.arena_floats = 2 : i64, cavs.scratch_floats = 0 : i64} {
    cavs.phase <eager> {
      // expected-error @below {{'cavs.pull' op has no memory slot for its result; run cavs-plan-memory first}}
      // expected-error @below {{failed to legalize operation 'cavs.pull'}}
      %x = cavs.pull "x" : tensor<2xf32>
      cavs.scatter %x : tensor<2xf32>
      cavs.yield
    }
  }
}
