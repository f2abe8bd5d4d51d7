// Every verifier of the cavs dialect rejects bad IR with a message saying
// what it expected and what it got.
// RUN: cavs-opt %s -split-input-file -verify-diagnostics

// expected-error @below {{'cavs.model' op expects the state to be a static f32 vector, got 'tensor<2x2xf32>'}}
cavs.model @m state tensor<2x2xf32> {
}

// -----

// expected-error @below {{'cavs.model' op has no cavs.vertex function}}
cavs.model @m state tensor<4xf32> {
  cavs.param @b : tensor<4xf32> init zeros
}

// -----

cavs.model @m {
  // expected-error @below {{'cavs.constant' op is not allowed directly in a cavs.model; expected cavs.param, cavs.param_pack or cavs.vertex}}
  %0 = cavs.constant dense<1.0> : tensor<f32>
}

// -----

cavs.model @m {
  // expected-error @below {{'cavs.param' op expects a vector or matrix parameter, got a scalar}}
  cavs.param @p : tensor<f32> init zeros
}

// -----

// What no runtime could create (cavs/model.h, cavs/graph.h), as the frontend
// refuses it in .cavs source.
cavs.model @m {
  // expected-error @below {{'cavs.param' op expects extents in [1, 2147483647], got 'tensor<0x4xf32>'}}
  cavs.param @p : tensor<0x4xf32> init zeros
}

// -----

cavs.model @m {
  // expected-error @below {{'cavs.param' op expects extents in [1, 2147483647], got 'tensor<2147483648xf32>'}}
  cavs.param @p : tensor<2147483648xf32> init zeros
}

// -----

cavs.model @m {
  // expected-error @below {{'cavs.param' op expects at most 72057594037927936 elements, got 'tensor<2147483647x2147483647xf32>'}}
  cavs.param @p : tensor<2147483647x2147483647xf32> init zeros
}

// -----

cavs.model @m {
  // expected-error @below {{'cavs.param' op expects finite f32 initializer arguments, got INF}}
  cavs.param @p : tensor<4xf32> init constant(0x7FF0000000000000)
}

// -----

// Finite in f64, infinite once the runtime samples it in f32.
cavs.model @m {
  // expected-error @below {{'cavs.param' op expects finite f32 initializer arguments, got -1.000000e+39}}
  cavs.param @p : tensor<4xf32> init uniform(-1.0e39, 1.0)
}

// -----

cavs.model @m state tensor<2xf32> {
  // expected-error @below {{'cavs.vertex' op expects an arity in [0, 4096], got 99999999999}}
  cavs.vertex @v arity 99999999999 pulls {} pushes {} {
    %s = cavs.gather 0 : tensor<2xf32>
    cavs.scatter %s : tensor<2xf32>
  }
}

// -----

cavs.model @m {
  // expected-error @below {{'cavs.param' op initializer 'uniform' expects 2 arguments, got 1}}
  cavs.param @p : tensor<3xf32> init uniform(1.0)
}

// -----

// Every kind takes the number of arguments cavs/init_kinds.def gives it.
cavs.model @m {
  // expected-error @below {{'cavs.param' op initializer 'constant' expects 1 arguments, got 2}}
  cavs.param @p : tensor<3xf32> init constant(1.0, 2.0)
}

// -----

cavs.model @m {
  // expected-error @below {{'cavs.param' op initializer 'xavier' expects 0 arguments, got 1}}
  cavs.param @w : tensor<3x3xf32> init xavier(1.0)
}

// -----

cavs.model @m {
  // expected-error @below {{'cavs.param' op uniform initializer expects lo < hi, got [1.000000e+00, 0.000000e+00]}}
  cavs.param @p : tensor<3xf32> init uniform(1.0, 0.0)
}

// -----

cavs.model @m {
  // expected-error @below {{'cavs.param' op normal initializer expects a positive standard deviation, got 0.000000e+00}}
  cavs.param @p : tensor<3xf32> init normal(0.0, 0.0)
}

// -----

cavs.model @m {
  // expected-error @below {{'cavs.param' op normal initializer draws past f32: |mean| + 9 * deviation exceeds 3.4e38, got mean 3.000000e+38 and deviation 3.000000e+37}}
  cavs.param @p : tensor<3xf32> init normal(3.0e38, 3.0e37)
}

// -----

cavs.model @m {
  // expected-error @below {{unknown initializer 'gaussian'}}
  cavs.param @p : tensor<3xf32> init gaussian
}

// -----

cavs.model @m {
  // expected-error @below {{'cavs.param' op attribute 'type' failed to satisfy constraint: type attribute of statically shaped f32 tensor of rank 0 to 2}}
  cavs.param @p : tensor<3xf64> init zeros
}

// -----

cavs.model @m {
  // expected-error @below {{'cavs.vertex' op pull 'x' expects an f32 tensor or i32 type, got i64}}
  cavs.vertex @v arity 0 pulls {x = i64} pushes {} {
  }
}

// -----

cavs.model @m {
  // expected-error @below {{'cavs.vertex' op push 'y' expects an f32 tensor type, got i32}}
  cavs.vertex @v arity 0 pulls {} pushes {y = i32} {
  }
}

// -----

cavs.model @m {
  // expected-error @below {{'cavs.vertex' op declares push 'y' but never pushes it}}
  cavs.vertex @v arity 0 pulls {} pushes {y = tensor<2xf32>} {
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = i32} pushes {} {
    // expected-note @below {{first pulls here}}
    %0 = cavs.pull "x" : i32
    // expected-error @below {{'cavs.pull' op pulls 'x' more than once}}
    %1 = cavs.pull "x" : i32
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {x = tensor<2xf32>} {
    %0 = cavs.pull "x" : tensor<2xf32>
    // expected-note @below {{first pushes here}}
    cavs.push "x", %0 : tensor<2xf32>
    // expected-error @below {{'cavs.push' op pushes 'x' more than once}}
    cavs.push "x", %0 : tensor<2xf32>
  }
}

// -----

cavs.model @m state tensor<2xf32> {
  // expected-error @below {{'cavs.vertex' op never scatters the model state 'tensor<2xf32>'}}
  cavs.vertex @v arity 1 pulls {} pushes {} {
    %0 = cavs.gather 0 : tensor<2xf32>
  }
}

// -----

cavs.model @m state tensor<2xf32> {
  cavs.vertex @v arity 1 pulls {} pushes {} {
    %0 = cavs.gather 0 : tensor<2xf32>
    // expected-note @below {{first scatter here}}
    cavs.scatter %0 : tensor<2xf32>
    // expected-error @below {{'cavs.scatter' op scatters more than once}}
    cavs.scatter %0 : tensor<2xf32>
  }
}

// -----

cavs.model @m {
  // expected-note @below {{first declared here}}
  cavs.vertex @a arity 0 pulls {x = i32} pushes {} {
    %0 = cavs.pull "x" : i32
  }
  // expected-error @below {{'cavs.vertex' op pull 'x' has type 'tensor<2xf32>' but vertex @a declares it as 'i32'}}
  cavs.vertex @b arity 0 pulls {x = tensor<2xf32>} pushes {} {
    %0 = cavs.pull "x" : tensor<2xf32>
  }
}

// -----

cavs.model @m {
  // expected-note @below {{first declared here}}
  cavs.vertex @a arity 0 pulls {x = tensor<2xf32>} pushes {y = tensor<2xf32>} {
    %0 = cavs.pull "x" : tensor<2xf32>
    cavs.push "y", %0 : tensor<2xf32>
  }
  // expected-error @below {{'cavs.vertex' op push 'y' has type 'tensor<3xf32>' but vertex @a declares it as 'tensor<2xf32>'}}
  cavs.vertex @b arity 0 pulls {z = tensor<3xf32>} pushes {y = tensor<3xf32>} {
    %0 = cavs.pull "z" : tensor<3xf32>
    cavs.push "y", %0 : tensor<3xf32>
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {} pushes {} {
    // expected-error @below {{'cavs.param_ref' op refers to unknown parameter @W}}
    %0 = cavs.param_ref @W : tensor<2x2xf32>
  }
}

// -----

cavs.model @m {
  cavs.param @W : tensor<2x3xf32> init xavier
  cavs.vertex @v arity 0 pulls {} pushes {} {
    // expected-error @below {{'cavs.param_ref' op expects the type of parameter @W, 'tensor<2x3xf32>', got 'tensor<2x2xf32>'}}
    %0 = cavs.param_ref @W : tensor<2x2xf32>
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {} pushes {} {
    // expected-error @below {{'cavs.pull' op pull 'x' is not declared by the vertex function}}
    %0 = cavs.pull "x" : i32
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = i32} pushes {} {
    // expected-error @below {{'cavs.pull' op expects pull 'x' to have the declared type 'i32', got 'tensor<2xf32>'}}
    %0 = cavs.pull "x" : tensor<2xf32>
  }
}

// -----

func.func @outside() {
  // expected-error @below {{'cavs.pull' op must be inside a cavs.vertex}}
  %0 = cavs.pull "x" : i32
  return
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {y = tensor<3xf32>} {
    %0 = cavs.pull "x" : tensor<2xf32>
    // expected-error @below {{'cavs.push' op expects push 'y' to have the declared type 'tensor<3xf32>', got 'tensor<2xf32>'}}
    cavs.push "y", %0 : tensor<2xf32>
  }
}

// -----

cavs.model @m state tensor<2xf32> {
  cavs.vertex @v arity 2 pulls {} pushes {} {
    // expected-error @below {{'cavs.gather' op child index 2 is out of range for arity 2}}
    %0 = cavs.gather 2 : tensor<2xf32>
    cavs.scatter %0 : tensor<2xf32>
  }
}

// -----

cavs.model @m state tensor<2xf32> {
  cavs.vertex @v arity 1 pulls {} pushes {} {
    // expected-error @below {{'cavs.gather' op expects the model state type 'tensor<2xf32>', got 'tensor<3xf32>'}}
    %0 = cavs.gather 0 : tensor<3xf32>
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 1 pulls {} pushes {} {
    // expected-error @below {{'cavs.gather' op needs a model state, but cavs.model @m declares none}}
    %0 = cavs.gather 0 : tensor<3xf32>
  }
}

// -----

cavs.model @m state tensor<2xf32> {
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>} pushes {} {
    %0 = cavs.pull "x" : tensor<3xf32>
    // expected-error @below {{'cavs.scatter' op expects the model state type 'tensor<2xf32>', got 'tensor<3xf32>'}}
    cavs.scatter %0 : tensor<3xf32>
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {} pushes {} {
    // expected-error @below {{'cavs.constant' op expects a dense elements value, got dense_resource<blob> : tensor<2xf32>}}
    %0 = cavs.constant dense_resource<blob> : tensor<2xf32>
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>, y = tensor<3xf32>} pushes {} {
    %0 = cavs.pull "x" : tensor<2xf32>
    %1 = cavs.pull "y" : tensor<3xf32>
    // expected-error @below {{'cavs.add' op expects operands of the same shape or a scalar operand, got [2] and [3]}}
    %2 = cavs.add %0, %1 : tensor<2xf32>, tensor<3xf32> -> tensor<2xf32>
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {} {
    %0 = cavs.pull "x" : tensor<2xf32>
    %c = cavs.constant dense<1.0> : tensor<f32>
    // expected-error @below {{'cavs.mul' op expects result type 'tensor<2xf32>', got 'tensor<f32>'}}
    %2 = cavs.mul %c, %0 : tensor<f32>, tensor<2xf32> -> tensor<f32>
  }
}

// -----

cavs.model @m {
  cavs.param @W : tensor<150x300xf32> init xavier
  cavs.vertex @v arity 0 pulls {x = tensor<150xf32>} pushes {} {
    %0 = cavs.pull "x" : tensor<150xf32>
    %W = cavs.param_ref @W : tensor<150x300xf32>
    // expected-error @below {{'cavs.matmul' op expects [300] on the right of a [150, 300] matrix, got [150]}}
    %1 = cavs.matmul %W, %0 : tensor<150x300xf32>, tensor<150xf32> -> tensor<150xf32>
  }
}

// -----

cavs.model @m {
  cavs.param @W : tensor<4x3xf32> init xavier
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>} pushes {} {
    %0 = cavs.pull "x" : tensor<3xf32>
    %W = cavs.param_ref @W : tensor<4x3xf32>
    // expected-error @below {{'cavs.matmul' op expects [4] on the right of a [4, 3] transposed matrix, got [3]}}
    %1 = cavs.matmul %W, %0 {transpose_lhs} : tensor<4x3xf32>, tensor<3xf32> -> tensor<3xf32>
  }
}

// -----

cavs.model @m {
  cavs.param @W : tensor<4x3xf32> init xavier
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>} pushes {} {
    %0 = cavs.pull "x" : tensor<3xf32>
    %W = cavs.param_ref @W : tensor<4x3xf32>
    // expected-error @below {{'cavs.matmul' op expects result [4], got [3]}}
    %1 = cavs.matmul %W, %0 : tensor<4x3xf32>, tensor<3xf32> -> tensor<3xf32>
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>} pushes {} {
    %0 = cavs.pull "x" : tensor<3xf32>
    // expected-error @below {{'cavs.concat' op expects result [6] (the sum of the input sizes), got [5]}}
    %1 = cavs.concat %0, %0 : tensor<3xf32>, tensor<3xf32> -> tensor<5xf32>
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {} pushes {} {
    // expected-error @below {{'cavs.concat' op expects at least one input}}
    %1 = "cavs.concat"() : () -> tensor<5xf32>
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<6xf32>} pushes {} {
    %0 = cavs.pull "x" : tensor<6xf32>
    // expected-error @below {{'cavs.split' op expects its parts to cover the input [6], got 4 elements}}
    %1:2 = cavs.split %0 : tensor<6xf32> -> tensor<2xf32>, tensor<2xf32>
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<6xf32>} pushes {} {
    %0 = cavs.pull "x" : tensor<6xf32>
    // expected-error @below {{'cavs.split' op expects at least one result}}
    "cavs.split"(%0) : (tensor<6xf32>) -> ()
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<6xf32>} pushes {} {
    %0 = cavs.pull "x" : tensor<6xf32>
    // expected-error @below {{'cavs.slice' op slice [4, 7) is out of range for [6]}}
    %1 = cavs.slice %0 [4] : tensor<6xf32> -> tensor<3xf32>
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {} pushes {} {
    // expected-error @below {{'cavs.sum' op expected 1 or more operands, but found 0}}
    %1 = cavs.sum : tensor<3xf32>
  }
}

// -----

cavs.model @m {
  cavs.param @E : tensor<10x4xf32> init xavier
  cavs.vertex @v arity 0 pulls {w = i32} pushes {} {
    %0 = cavs.pull "w" : i32
    %E = cavs.param_ref @E : tensor<10x4xf32>
    // expected-error @below {{'cavs.lookup' op expects result [4] (a row of [10, 4]), got [10]}}
    %1 = cavs.lookup %E[%0] : tensor<10x4xf32>, i32 -> tensor<10xf32>
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<6xf32>} pushes {} {
    %0 = cavs.pull "x" : tensor<6xf32>
    // expected-error @below {{'cavs.loss' op operand #0 must be f32 scalar tensor, but got 'tensor<6xf32>'}}
    cavs.loss %0 : tensor<6xf32>
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<6xf32>} pushes {} {
    %0 = cavs.pull "x" : tensor<6xf32>
    // expected-error @below {{'cavs.softmax_cross_entropy' op operand #1 must be 32-bit signless integer, but got 'tensor<6xf32>'}}
    %1 = "cavs.softmax_cross_entropy"(%0, %0) : (tensor<6xf32>, tensor<6xf32>) -> tensor<f32>
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {} pushes {} {
    // expected-error @below {{'cavs.backward' op must be the last op of its vertex function}}
    cavs.backward {
    }
    %0 = cavs.constant dense<1.0> : tensor<f32>
  }
}

// -----

cavs.model @m state tensor<2xf32> {
  cavs.vertex @v arity 1 pulls {} pushes {} {
    %0 = cavs.gather 0 : tensor<2xf32>
    cavs.scatter %0 : tensor<2xf32>
    cavs.backward {
      // expected-error @below {{'cavs.gather' op must not be inside cavs.backward}}
      %1 = cavs.gather 0 : tensor<2xf32>
    }
  }
}

// -----

// A loss is F's: in dF the forward programs lost it.
cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<f32>} pushes {} {
    %x = cavs.pull "x" : tensor<f32>
    cavs.backward {
      // expected-error @below {{'cavs.loss' op must not be inside cavs.backward}}
      cavs.loss %x : tensor<f32>
    }
  }
}

// -----

cavs.model @m state tensor<2xf32> {
  cavs.vertex @v arity 1 pulls {} pushes {} {
    // expected-error @below {{'cavs.state_grad' op must be inside cavs.backward}}
    %0 = cavs.state_grad : tensor<2xf32>
    cavs.scatter %0 : tensor<2xf32>
  }
}

// -----

cavs.model @m state tensor<2xf32> {
  cavs.vertex @v arity 1 pulls {} pushes {} {
    %0 = cavs.gather 0 : tensor<2xf32>
    cavs.scatter %0 : tensor<2xf32>
    cavs.backward {
      // expected-error @below {{'cavs.state_grad' op expects the model state type 'tensor<2xf32>', got 'tensor<3xf32>'}}
      %1 = cavs.state_grad : tensor<3xf32>
    }
  }
}

// -----

cavs.model @m state tensor<2xf32> {
  cavs.vertex @v arity 1 pulls {} pushes {} {
    %0 = cavs.gather 0 : tensor<2xf32>
    cavs.scatter %0 : tensor<2xf32>
    cavs.backward {
      // expected-error @below {{'cavs.child_grad' op child index 1 is out of range for arity 1}}
      cavs.child_grad 1, %0 : tensor<2xf32>
    }
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {} pushes {} {
    cavs.backward {
      // expected-error @below {{'cavs.push_grad' op push 'h' is not declared by the vertex function}}
      %0 = cavs.push_grad "h" : tensor<2xf32>
    }
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {w = i32} pushes {} {
    %w = cavs.pull "w" : i32
    cavs.backward {
      %c = cavs.constant dense<1.0> : tensor<f32>
      // expected-error @below {{'cavs.pull_grad' op expects pull 'w' to have the declared type 'i32', got 'tensor<f32>'}}
      cavs.pull_grad "w", %c : tensor<f32>
    }
  }
}

// -----

cavs.model @m {
  cavs.param @b : tensor<3xf32> init zeros
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {} {
    %x = cavs.pull "x" : tensor<2xf32>
    cavs.backward {
      // expected-error @below {{'cavs.param_grad' op expects a gradient of type 'tensor<3xf32>' for parameter @b, got 'tensor<2xf32>'}}
      cavs.param_grad @b, %x : tensor<2xf32>
    }
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {} {
    %x = cavs.pull "x" : tensor<2xf32>
    cavs.backward {
      // expected-error @below {{'cavs.param_grad' op refers to unknown parameter @nope}}
      cavs.param_grad @nope, %x : tensor<2xf32>
    }
  }
}

// -----

cavs.model @m {
  cavs.param @W : tensor<3x3xf32> init xavier
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {} {
    %x = cavs.pull "x" : tensor<2xf32>
    cavs.backward {
      // expected-error @below {{'cavs.param_grad_outer' op expects parameter @W of shape [2, 2], got [3, 3]}}
      cavs.param_grad_outer @W, %x, %x : tensor<2xf32>, tensor<2xf32>
    }
  }
}

// -----

cavs.model @m {
  cavs.param @E : tensor<10x3xf32> init xavier
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>, w = i32} pushes {} {
    %x = cavs.pull "x" : tensor<2xf32>
    %w = cavs.pull "w" : i32
    cavs.backward {
      // expected-error @below {{'cavs.lookup_grad' op expects a table with rows of [2], got [10, 3]}}
      cavs.lookup_grad @E[%w], %x : i32, tensor<2xf32>
    }
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {} {
    %x = cavs.pull "x" : tensor<2xf32>
    // expected-error @below {{'cavs.pad' op pad [1, 3) is out of range for [2]}}
    %p = cavs.pad %x[1] : tensor<2xf32> -> tensor<2xf32>
  }
}

// -----

cavs.model @m {
  cavs.param @A : tensor<2x3xf32> init xavier
  cavs.param @B : tensor<2x4xf32> init xavier
  // expected-error @below {{'cavs.param_pack' op member @B of type 'tensor<2x4xf32>' does not stack into 'tensor<4x3xf32>'}}
  cavs.param_pack @P : tensor<4x3xf32> = [@A, @B]
}

// -----

cavs.model @m {
  cavs.param @A : tensor<2x3xf32> init xavier
  // expected-error @below {{'cavs.param_pack' op expects its members to add up to 4 rows, got 2}}
  cavs.param_pack @P : tensor<4x3xf32> = [@A]
}

// -----

cavs.model @m {
  cavs.param @A : tensor<2x3xf32> init xavier
  cavs.vertex @v arity 0 pulls {} pushes {} {
  }
  // expected-error @below {{'cavs.param_pack' op member @v is not a cavs.param}}
  cavs.param_pack @P : tensor<2x3xf32> = [@v]
}

// -----

cavs.model @m {
  cavs.param @A : tensor<2x3xf32> init xavier
  cavs.param @B : tensor<2x3xf32> init xavier
  // expected-note @below {{first pack here}}
  cavs.param_pack @P : tensor<4x3xf32> = [@A, @B]
  // expected-error @below {{'cavs.param_pack' op member @A is already packed in @P}}
  cavs.param_pack @Q : tensor<2x3xf32> = [@A]
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>, s = tensor<f32>} pushes {} {
    %x = cavs.pull "x" : tensor<3xf32>
    %s = cavs.pull "s" : tensor<f32>
    // expected-error @below {{'cavs.fused' op expects every result to have the iteration type 'tensor<3xf32>' or to be a reduction's, got 'tensor<f32>'}}
    %r:2 = cavs.fused (%x, %s) : (tensor<3xf32>, tensor<f32>) -> (tensor<3xf32>, tensor<f32>) {
    ^bb0(%a: tensor<3xf32>, %b: tensor<f32>):
      %n = cavs.neg %b : tensor<f32>
      cavs.yield %a, %n : tensor<3xf32>, tensor<f32>
    }
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>} pushes {} {
    %x = cavs.pull "x" : tensor<3xf32>
    %r = cavs.fused (%x) : (tensor<3xf32>) -> tensor<3xf32> {
    ^bb0(%a: tensor<3xf32>):
      // expected-error @below {{'cavs.reduce_sum' op ends its kernel: only cavs.yield may use its result}}
      %s = cavs.reduce_sum %a : tensor<3xf32>
      %t = cavs.add %a, %s : tensor<3xf32>, tensor<f32> -> tensor<3xf32>
      cavs.yield %t : tensor<3xf32>
    }
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>} pushes {} {
    %x = cavs.pull "x" : tensor<3xf32>
    %r:2 = cavs.fused (%x) : (tensor<3xf32>) -> (tensor<3xf32>, tensor<f32>) {
    ^bb0(%a: tensor<3xf32>):
      %c = cavs.constant dense<1.0> : tensor<4xf32>
      // expected-error @below {{'cavs.reduce_max' op expects to reduce the kernel's iteration type 'tensor<3xf32>', got 'tensor<4xf32>'}}
      %m = cavs.reduce_max %c : tensor<4xf32>
      cavs.yield %a, %m : tensor<3xf32>, tensor<f32>
    }
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>} pushes {} {
    %x = cavs.pull "x" : tensor<3xf32>
    // expected-error @below {{'cavs.slice' op slice [3, 4) is out of range for [3]}}
    %e = cavs.slice %x[3] : tensor<3xf32> -> tensor<f32>
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>} pushes {} {
    %x = cavs.pull "x" : tensor<3xf32>
    %e = cavs.slice %x[0] : tensor<3xf32> -> tensor<f32>
    // expected-error @below {{'cavs.concat' op expects result [4] (the sum of the input sizes), got [5]}}
    %c = cavs.concat %x, %e : tensor<3xf32>, tensor<f32> -> tensor<5xf32>
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>} pushes {} {
    %x = cavs.pull "x" : tensor<3xf32>
    // expected-error @below {{'cavs.equal' op expects result type 'tensor<3xf32>', got 'tensor<2xf32>'}}
    %e = "cavs.equal"(%x, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<2xf32>
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>} pushes {} {
    %x = cavs.pull "x" : tensor<3xf32>
    %r = cavs.fused (%x) : (tensor<3xf32>) -> tensor<3xf32> {
    ^bb0(%a: tensor<3xf32>):
      // expected-error @below {{'cavs.softmax' op is not elementwise and cannot be in cavs.fused}}
      %s = cavs.softmax %a : tensor<3xf32>
      cavs.yield %s : tensor<3xf32>
    }
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>, y = tensor<2xf32>} pushes {} {
    %x = cavs.pull "x" : tensor<3xf32>
    %y = cavs.pull "y" : tensor<2xf32>
    // expected-error @below {{'cavs.fused' op expects inputs of type 'tensor<3xf32>' or scalars, got 'tensor<2xf32>'}}
    %r = cavs.fused (%x, %y) : (tensor<3xf32>, tensor<2xf32>) -> tensor<3xf32> {
    ^bb0(%a: tensor<3xf32>, %b: tensor<2xf32>):
      cavs.yield %a : tensor<3xf32>
    }
  }
}

// -----

// Ranges are checked without overflow: an offset near 2^63 must not wrap
// around into range.
cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<4xf32>} pushes {} {
    %0 = cavs.pull "x" : tensor<4xf32>
    // expected-error @below {{'cavs.slice' op slice [9223372036854775807, 9223372036854775807) is out of range for [4]}}
    %1 = cavs.slice %0[9223372036854775807] : tensor<4xf32> -> tensor<2xf32>
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {} {
    %x = cavs.pull "x" : tensor<2xf32>
    cavs.backward {
      // expected-error @below {{'cavs.pad' op pad [9223372036854775807, 9223372036854775807) is out of range for [4]}}
      %p = cavs.pad %x[9223372036854775807] : tensor<2xf32> -> tensor<4xf32>
    }
  }
}

// -----

cavs.model @m {
  cavs.vertex @v arity 0 pulls {y = tensor<4xf32>} pushes {} {
    %x = cavs.constant dense<0.0> : tensor<4611686018427387904xf32>
    %y = cavs.pull "y" : tensor<4xf32>
    // expected-error @below {{'cavs.concat' op expects inputs whose sizes sum to an int64}}
    %c = cavs.concat %x, %x, %x, %x, %y : tensor<4611686018427387904xf32>, tensor<4611686018427387904xf32>, tensor<4611686018427387904xf32>, tensor<4611686018427387904xf32>, tensor<4xf32> -> tensor<4xf32>
  }
}

// -----

// Pulls, pushes and the state are never empty.
// expected-error @below {{'cavs.model' op expects a state of at least one element, got 'tensor<0xf32>'}}
cavs.model @m state tensor<0xf32> {
}

// -----

cavs.model @m {
  // expected-error @below {{'cavs.vertex' op pull 'x' expects at least one element, got 'tensor<0xf32>'}}
  cavs.vertex @v arity 0 pulls {x = tensor<0xf32>} pushes {} {
  }
}

// -----

cavs.model @m {
  // expected-error @below {{'cavs.vertex' op push 'y' expects at least one element, got 'tensor<3x0xf32>'}}
  cavs.vertex @v arity 0 pulls {} pushes {y = tensor<3x0xf32>} {
  }
}
