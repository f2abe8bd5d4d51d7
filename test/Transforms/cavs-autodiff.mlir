// cavs-autodiff derives each vertex function's backward region: primitives
// map to their adjoints, parameters get summed gradients, fan-out sums.
// RUN: cavs-opt %s --cavs-autodiff --split-input-file | FileCheck %s

// The scatter seeds ∂F with the state gradient; gather's adjoint is child_grad.
// No loss reads the state here, so its gradient, once multiplied, is masked
// where it leaves ∂F: zero in a vertex whose state gradient is zero (a root),
// where 0 * f'(x) could be NaN.
// CHECK-LABEL: cavs.model @chain_tanh
// CHECK:      %[[S:.*]] = cavs.gather 0 : tensor<4xf32>
// CHECK-NEXT: %[[T:.*]] = cavs.tanh %[[S]] : tensor<4xf32>
// CHECK-NEXT: cavs.scatter %[[T]] : tensor<4xf32>
// CHECK-NEXT: cavs.backward {
// CHECK-NEXT:   %[[DT:.*]] = cavs.state_grad : tensor<4xf32>
// CHECK-NEXT:   %[[ONE:.*]] = cavs.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:   %[[T2:.*]] = cavs.mul %[[T]], %[[T]] : tensor<4xf32>
// CHECK-NEXT:   %[[SLOPE:.*]] = cavs.sub %[[ONE]], %[[T2]] : tensor<f32>, tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:   %[[DS:.*]] = cavs.mul %[[DT]], %[[SLOPE]] : tensor<4xf32>
// CHECK:        %[[GIVEN:.*]] = cavs.reduce_max %{{.*}} : tensor<4xf32>
// CHECK:        %[[MASKED:.*]] = cavs.relu_grad %{{.*}}, %[[DS]] : tensor<4xf32>
// CHECK-NEXT:   cavs.child_grad 0, %[[MASKED]] : tensor<4xf32>
// CHECK-NEXT: }
cavs.model @chain_tanh state tensor<4xf32> {
  cavs.vertex @cell arity 1 pulls {} pushes {} {
    %s = cavs.gather 0 : tensor<4xf32>
    %t = cavs.tanh %s : tensor<4xf32>
    cavs.scatter %t : tensor<4xf32>
  }
}

// -----

// Loss seeds 1; matmul weights get outer-product gradients, biases dense
// ones, f32 pulls a pull_grad; i32 pulls and constants get nothing.
// CHECK-LABEL: cavs.model @classifier
// CHECK:      %[[X:.*]] = cavs.pull "x" : tensor<3xf32>
// CHECK:      %[[L:.*]] = cavs.pull "label" : i32
// CHECK:      %[[W:.*]] = cavs.param_ref @W : tensor<5x3xf32>
// CHECK:      %[[B:.*]] = cavs.param_ref @b : tensor<5xf32>
// CHECK:      %[[Y:.*]] = cavs.matmul %[[W]], %[[X]]
// CHECK:      %[[Z:.*]] = cavs.add %[[Y]], %[[B]] : tensor<5xf32>
// CHECK:      %[[LOSS:.*]] = cavs.softmax_cross_entropy %[[Z]], %[[L]]
// CHECK:      cavs.loss %[[LOSS]] : tensor<f32>
// CHECK-NEXT: cavs.backward {
// CHECK-NEXT:   %[[SEED:.*]] = cavs.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:   %[[DZ:.*]] = cavs.softmax_cross_entropy_grad %[[Z]], %[[L]], %[[SEED]] : tensor<5xf32>, i32
// CHECK-NEXT:   %[[DX:.*]] = cavs.matmul %[[W]], %[[DZ]] {transpose_lhs} : tensor<5x3xf32>, tensor<5xf32> -> tensor<3xf32>
// CHECK-NEXT:   cavs.param_grad_outer @W, %[[DZ]], %[[X]] : tensor<5xf32>, tensor<3xf32>
// CHECK-NEXT:   cavs.param_grad @b, %[[DZ]] : tensor<5xf32>
// CHECK-NEXT:   cavs.pull_grad "x", %[[DX]] : tensor<3xf32>
// CHECK-NEXT: }
cavs.model @classifier {
  cavs.param @W : tensor<5x3xf32> init xavier
  cavs.param @b : tensor<5xf32> init zeros
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>, label = i32} pushes {} {
    %x = cavs.pull "x" : tensor<3xf32>
    %l = cavs.pull "label" : i32
    %W = cavs.param_ref @W : tensor<5x3xf32>
    %b = cavs.param_ref @b : tensor<5xf32>
    %y = cavs.matmul %W, %x : tensor<5x3xf32>, tensor<3xf32> -> tensor<5xf32>
    %z = cavs.add %y, %b : tensor<5xf32>
    %loss = cavs.softmax_cross_entropy %z, %l : tensor<5xf32>, i32
    cavs.loss %loss : tensor<f32>
  }
}

// -----

// A value used twice sums its gradients; a push is seeded by push_grad; a
// split without a gradient on one part fills zeros; lookup is sparse.
// CHECK-LABEL: cavs.model @fanout
// CHECK:      cavs.backward {
// CHECK-NEXT:   %[[DS:.*]] = cavs.state_grad : tensor<4xf32>
// CHECK-NEXT:   %[[DP:.*]] = cavs.push_grad "p" : tensor<2xf32>
// CHECK-NEXT:   %[[SUM:.*]] = cavs.sum %[[DP]], %[[DP]] : tensor<2xf32>
// CHECK-NEXT:   %[[Z:.*]] = cavs.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT:   %[[CAT:.*]] = cavs.concat %[[SUM]], %[[Z]] : tensor<2xf32>, tensor<2xf32> -> tensor<4xf32>
// CHECK-NEXT:   %[[ALL:.*]] = cavs.sum %[[DS]], %[[CAT]] : tensor<4xf32>
// CHECK-NEXT:   cavs.lookup_grad @E[%{{.*}}], %[[ALL]] : i32, tensor<4xf32>
// CHECK-NEXT: }
cavs.model @fanout state tensor<4xf32> {
  cavs.param @E : tensor<10x4xf32> init xavier
  cavs.vertex @leaf arity 0 pulls {w = i32} pushes {p = tensor<2xf32>} {
    %w = cavs.pull "w" : i32
    %E = cavs.param_ref @E : tensor<10x4xf32>
    %x = cavs.lookup %E[%w] : tensor<10x4xf32>, i32 -> tensor<4xf32>
    %a, %b = cavs.split %x : tensor<4xf32> -> tensor<2xf32>, tensor<2xf32>
    %p = cavs.add %a, %a : tensor<2xf32>
    cavs.push "p", %p : tensor<2xf32>
    cavs.scatter %x : tensor<4xf32>
  }
}

// -----

// Broadcast scalars reduce their gradient; division, sigmoid, exp, log,
// relu, softmax, slice and neg each follow their rule.
// CHECK-LABEL: cavs.model @math
// CHECK:      cavs.backward {
// CHECK:        cavs.pad %{{.*}}[1] : tensor<2xf32> -> tensor<3xf32>
// CHECK:        cavs.reduce_sum
// CHECK:        cavs.relu_grad
// CHECK:        cavs.reduce_sum
// CHECK:        cavs.pull_grad "s"
// CHECK-NEXT:   cavs.pull_grad "x"
// CHECK-NEXT: }
cavs.model @math {
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>, s = tensor<f32>} pushes {} {
    %x = cavs.pull "x" : tensor<3xf32>
    %s = cavs.pull "s" : tensor<f32>
    %a = cavs.mul %x, %s : tensor<3xf32>, tensor<f32> -> tensor<3xf32>
    %b = cavs.div %a, %s : tensor<3xf32>, tensor<f32> -> tensor<3xf32>
    %c = cavs.sigmoid %b : tensor<3xf32>
    %d = cavs.exp %c : tensor<3xf32>
    %e = cavs.log %d : tensor<3xf32>
    %f = cavs.relu %e : tensor<3xf32>
    %g = cavs.softmax %f : tensor<3xf32>
    %h = cavs.neg %g : tensor<3xf32>
    %i = cavs.slice %h[1] : tensor<3xf32> -> tensor<2xf32>
    %j = cavs.reduce_sum %i : tensor<2xf32>
    %k = cavs.sub %j, %s : tensor<f32>
    cavs.loss %k : tensor<f32>
  }
}

// -----

// Vector to scalar and back: the maximum's gradient is shared by the
// maximal elements (mask / count), an element's is padded into the vector,
// a concatenated scalar's is sliced out as a scalar, softplus's is sigmoid.
// CHECK-LABEL: cavs.model @scalars
// CHECK:      cavs.backward {
// CHECK-NEXT:   %[[DC:.*]] = cavs.push_grad "c" : tensor<2xf32>
// CHECK-NEXT:   %[[DM:.*]] = cavs.slice %[[DC]][0] : tensor<2xf32> -> tensor<f32>
// CHECK-NEXT:   %[[DE:.*]] = cavs.slice %[[DC]][1] : tensor<2xf32> -> tensor<f32>
// CHECK-NEXT:   %[[DPE:.*]] = cavs.pad %[[DE]][2] : tensor<f32> -> tensor<3xf32>
// CHECK-NEXT:   %[[MASK:.*]] = cavs.equal %[[P:.*]], %[[M:.*]] : tensor<3xf32>, tensor<f32> -> tensor<3xf32>
// CHECK-NEXT:   %[[COUNT:.*]] = cavs.reduce_sum %[[MASK]] : tensor<3xf32>
// CHECK-NEXT:   %[[SHARE:.*]] = cavs.div %[[DM]], %[[COUNT]] : tensor<f32>
// CHECK-NEXT:   %[[DPM:.*]] = cavs.mul %[[MASK]], %[[SHARE]] : tensor<3xf32>, tensor<f32> -> tensor<3xf32>
// CHECK-NEXT:   %[[DP:.*]] = cavs.sum %[[DPE]], %[[DPM]] : tensor<3xf32>
// CHECK-NEXT:   %[[SIG:.*]] = cavs.sigmoid %{{.*}} : tensor<3xf32>
// CHECK-NEXT:   %[[DX:.*]] = cavs.mul %[[DP]], %[[SIG]] : tensor<3xf32>
// CHECK:        %[[MASKED:.*]] = cavs.relu_grad %{{.*}}, %[[DX]] : tensor<3xf32>
// CHECK-NEXT:   cavs.pull_grad "x", %[[MASKED]] : tensor<3xf32>
// CHECK-NEXT: }
cavs.model @scalars {
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>} pushes {c = tensor<2xf32>} {
    %x = cavs.pull "x" : tensor<3xf32>
    %p = cavs.softplus %x : tensor<3xf32>
    %m = cavs.reduce_max %p : tensor<3xf32>
    %e = cavs.slice %p[2] : tensor<3xf32> -> tensor<f32>
    %c = cavs.concat %m, %e : tensor<f32>, tensor<f32> -> tensor<2xf32>
    cavs.push "c", %c : tensor<2xf32>
  }
}

// -----

// sqrt: dy / (2 y). Only a push reads y, so its gradient is masked where it
// leaves ∂F: per vertex, zero while the push's gradient row is all zero
// (0 / (2 sqrt(0)) is NaN).
// CHECK-LABEL: cavs.model @sqrt
// CHECK:      cavs.backward {
// CHECK-NEXT:   %[[DY:.*]] = cavs.push_grad "y" : tensor<3xf32>
// CHECK-NEXT:   %[[TWO:.*]] = cavs.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT:   %[[TWICE:.*]] = cavs.mul %[[TWO]], %[[Y:.*]] : tensor<f32>, tensor<3xf32> -> tensor<3xf32>
// CHECK-NEXT:   %[[DX:.*]] = cavs.div %[[DY]], %[[TWICE]] : tensor<3xf32>
// CHECK-NEXT:   %[[ZERO:.*]] = cavs.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:   %[[ISZERO:.*]] = cavs.equal %[[DY]], %[[ZERO]] : tensor<3xf32>, tensor<f32> -> tensor<3xf32>
// CHECK-NEXT:   %[[ONE:.*]] = cavs.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:   %[[NONZERO:.*]] = cavs.sub %[[ONE]], %[[ISZERO]] : tensor<f32>, tensor<3xf32> -> tensor<3xf32>
// CHECK-NEXT:   %[[GIVEN:.*]] = cavs.reduce_max %[[NONZERO]] : tensor<3xf32>
// CHECK-NEXT:   %[[ZEROS:.*]] = cavs.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT:   %[[ROWS:.*]] = cavs.add %[[GIVEN]], %[[ZEROS]] : tensor<f32>, tensor<3xf32> -> tensor<3xf32>
// CHECK-NEXT:   %[[MASKED:.*]] = cavs.relu_grad %[[ROWS]], %[[DX]] : tensor<3xf32>
// CHECK-NEXT:   cavs.pull_grad "x", %[[MASKED]] : tensor<3xf32>
// CHECK-NEXT: }
cavs.model @sqrt {
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>} pushes {y = tensor<3xf32>} {
    %x = cavs.pull "x" : tensor<3xf32>
    %y = cavs.sqrt %x : tensor<3xf32>
    cavs.push "y", %y : tensor<3xf32>
  }
}

// -----

// A vertex function that already has a backward region is left alone.
// CHECK-LABEL: cavs.model @done
// CHECK:      cavs.backward {
// CHECK-NEXT:   cavs.child_grad 0, %{{.*}} : tensor<2xf32>
// CHECK-NEXT: }
// CHECK-NOT:  cavs.backward
cavs.model @done state tensor<2xf32> {
  cavs.vertex @v arity 1 pulls {} pushes {} {
    %s = cavs.gather 0 : tensor<2xf32>
    cavs.scatter %s : tensor<2xf32>
    cavs.backward {
      cavs.child_grad 0, %s : tensor<2xf32>
    }
  }
}

// -----

// A push's gradient, once a rule has multiplied it, is masked where it meets
// the loss's gradient: zero in the vertices whose gradient row of the push
// is all zero, so that 0 * exp(h) = 0 * inf is no NaN. The pushed h itself,
// merged raw (only added), needs no mask.
// CHECK-LABEL: cavs.model @pushed_overflow
// CHECK:        cavs.backward {
// CHECK-NEXT:   %[[G:.*]] = cavs.push_grad "e" : tensor<2xf32>
// CHECK-NEXT:   %[[GE:.*]] = cavs.mul %[[G]], %{{.*}} : tensor<2xf32>
// CHECK-NEXT:   %[[HRAW:.*]] = cavs.push_grad "h" : tensor<2xf32>
// CHECK:        %[[LOSS:.*]] = cavs.add %{{.*}}, %{{.*}} : tensor<2xf32>, tensor<f32> -> tensor<2xf32>
// CHECK:        %[[ROWS:.*]] = cavs.add %{{.*}}, %{{.*}} : tensor<f32>, tensor<2xf32> -> tensor<2xf32>
// CHECK-NEXT:   %[[MASKED:.*]] = cavs.relu_grad %[[ROWS]], %[[GE]] : tensor<2xf32>
// CHECK-NEXT:   %[[DH:.*]] = cavs.sum %[[MASKED]], %[[HRAW]], %[[LOSS]] : tensor<2xf32>
// CHECK-NEXT:   %{{.*}} = cavs.matmul %{{.*}}, %[[DH]] {transpose_lhs}
// CHECK-NEXT:   cavs.param_grad_outer @W, %[[DH]], %{{.*}}
// CHECK-NOT:    cavs.relu_grad
cavs.model @pushed_overflow {
  cavs.param @W : tensor<2x2xf32> init xavier
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {e = tensor<2xf32>, h = tensor<2xf32>} {
    %x = cavs.pull "x" : tensor<2xf32>
    %w = cavs.param_ref @W : tensor<2x2xf32>
    %h = cavs.matmul %w, %x : tensor<2x2xf32>, tensor<2xf32> -> tensor<2xf32>
    %s = cavs.reduce_sum %h : tensor<2xf32>
    cavs.loss %s : tensor<f32>
    cavs.push "h", %h : tensor<2xf32>
    %e = cavs.exp %h : tensor<2xf32>
    cavs.push "e", %e : tensor<2xf32>
  }
}

// -----

// A vertex that already has a backward region keeps it: the pass can run
// twice, and a hand-written region, even an empty one, is taken as ∂F.
// CHECK-LABEL: cavs.model @has_backward
// CHECK:        cavs.loss
// CHECK-NEXT:   cavs.backward {
// CHECK-NEXT:   }
// CHECK-NOT:    cavs.param_grad
cavs.model @has_backward {
  cavs.param @b : tensor<2xf32> init zeros
  cavs.vertex @v arity 0 pulls {} pushes {} {
    %b = cavs.param_ref @b : tensor<2xf32>
    %s = cavs.reduce_sum %b : tensor<2xf32>
    cavs.loss %s : tensor<f32>
    cavs.backward {
    }
  }
}
