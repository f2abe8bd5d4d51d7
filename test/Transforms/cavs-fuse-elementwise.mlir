// cavs-fuse-elementwise groups linked elementwise ops of one batching class
// and one shape into cavs.fused kernels, never across other ops.
// RUN: cavs-opt %s --cavs-classify --cavs-fuse-elementwise --split-input-file | FileCheck %s

// A chain becomes one kernel; the splat constant is copied in; values used
// outside the group become results.
// CHECK-LABEL: cavs.model @chain
// CHECK:      %[[X:.*]] = cavs.pull "x"
// CHECK-NEXT: %[[F:.*]]:2 = cavs.fused(%[[X]]) {cavs.batching = #cavs.batching<eager>} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<4xf32>):
// CHECK-NEXT:   %[[ONE:.*]] = cavs.constant {{.*}}dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:   %[[S:.*]] = cavs.sigmoid %[[A]]
// CHECK-NEXT:   %[[T:.*]] = cavs.sub %[[ONE]], %[[S]]
// CHECK-NEXT:   %[[M:.*]] = cavs.mul %[[S]], %[[T]]
// CHECK-NEXT:   cavs.yield %[[S]], %[[M]] : tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: cavs.push "s", %[[F]]#0
// CHECK-NEXT: cavs.push "m", %[[F]]#1
// CHECK-NOT:  cavs.constant
cavs.model @chain {
  cavs.vertex @v arity 0 pulls {x = tensor<4xf32>} pushes {s = tensor<4xf32>, m = tensor<4xf32>} {
    %x = cavs.pull "x" : tensor<4xf32>
    %one = cavs.constant dense<1.0> : tensor<f32>
    %s = cavs.sigmoid %x : tensor<4xf32>
    %t = cavs.sub %one, %s : tensor<f32>, tensor<4xf32> -> tensor<4xf32>
    %m = cavs.mul %s, %t : tensor<4xf32>
    cavs.push "s", %s : tensor<4xf32>
    cavs.push "m", %m : tensor<4xf32>
  }
}

// -----

// Kernels stop at matmuls, at a change of batching class and of shape.
// CHECK-LABEL: cavs.model @boundaries
// CHECK:      cavs.fused({{.*}}) {cavs.batching = #cavs.batching<eager>} : (tensor<3xf32>) -> tensor<3xf32>
// CHECK:        cavs.tanh
// CHECK:      cavs.matmul
// CHECK:      cavs.fused({{.*}}) {cavs.batching = #cavs.batching<body>} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK:        cavs.add
// CHECK-NEXT:   cavs.relu
// CHECK-NEXT:   cavs.yield
// CHECK:      cavs.fused({{.*}}) {cavs.batching = #cavs.batching<lazy>} : (tensor<2xf32>) -> tensor<2xf32>
// CHECK:        cavs.exp
cavs.model @boundaries state tensor<2xf32> {
  cavs.param @W : tensor<2x3xf32> init xavier
  cavs.vertex @v arity 1 pulls {x = tensor<3xf32>} pushes {e = tensor<2xf32>} {
    %x = cavs.pull "x" : tensor<3xf32>
    %t = cavs.tanh %x : tensor<3xf32>
    %W = cavs.param_ref @W : tensor<2x3xf32>
    %y = cavs.matmul %W, %t : tensor<2x3xf32>, tensor<3xf32> -> tensor<2xf32>
    %s = cavs.gather 0 : tensor<2xf32>
    %a = cavs.add %y, %s : tensor<2xf32>
    %r = cavs.relu %a : tensor<2xf32>
    cavs.scatter %r : tensor<2xf32>
    %e = cavs.exp %r : tensor<2xf32>
    cavs.push "e", %e : tensor<2xf32>
  }
}

// -----

// tanh feeds add directly and through softmax: fusing tanh with add would
// make the kernel wait for softmax, which waits for the kernel.
// CHECK-LABEL: cavs.model @cycle
// CHECK:      %[[F1:.*]] = cavs.fused
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   cavs.tanh
// CHECK-NEXT:   cavs.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[SM:.*]] = cavs.softmax %[[F1]]
// CHECK-NEXT: cavs.fused(%[[F1]], %[[SM]])
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   cavs.add
// CHECK-NEXT:   cavs.yield
cavs.model @cycle {
  cavs.vertex @v arity 0 pulls {x = tensor<4xf32>} pushes {y = tensor<4xf32>} {
    %x = cavs.pull "x" : tensor<4xf32>
    %t = cavs.tanh %x : tensor<4xf32>
    %s = cavs.softmax %t : tensor<4xf32>
    %y = cavs.add %t, %s : tensor<4xf32>
    cavs.push "y", %y : tensor<4xf32>
  }
}

// -----

// ∂F is fused too, and the backward region stays the last op.
// CHECK-LABEL: cavs.model @backward
// CHECK:      cavs.backward {
// CHECK-NEXT:   %[[G:.*]] = cavs.state_grad
// CHECK-NEXT:   %[[K:.*]] = cavs.fused(%[[G]], %{{.*}})
// CHECK:          cavs.mul
// CHECK-NEXT:     cavs.neg
// CHECK-NEXT:     cavs.yield
// CHECK:        cavs.child_grad 0, %[[K]] {cavs.batching = #cavs.batching<body>}
// CHECK-NEXT: }
// CHECK-NEXT: }
cavs.model @backward state tensor<4xf32> {
  cavs.vertex @v arity 1 pulls {} pushes {} {
    %s = cavs.gather 0 : tensor<4xf32>
    %t = cavs.tanh %s : tensor<4xf32>
    cavs.scatter %t : tensor<4xf32>
    cavs.backward {
      %g = cavs.state_grad : tensor<4xf32>
      %m = cavs.mul %g, %t : tensor<4xf32>
      %n = cavs.neg %m : tensor<4xf32>
      cavs.child_grad 0, %n : tensor<4xf32>
    }
  }
}

// -----

// A reduction ends the kernel of the ops that produce its operand (also
// two reductions of one kernel); a reduction of an input is a kernel of its
// own; an op that uses a reduction's result is not fused with the kernel
// that computes it, even though it shares its operand (the mean-centred
// y = t - sum(t) / 4 needs the sum first).
// CHECK-LABEL: cavs.model @reductions
// CHECK:      %[[X:.*]] = cavs.pull "x"
// CHECK-NEXT: %[[K:.*]]:3 = cavs.fused(%[[X]]) {cavs.batching = #cavs.batching<eager>} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<f32>, tensor<f32>) {
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<4xf32>):
// CHECK-NEXT:   %[[T:.*]] = cavs.tanh %[[A]]
// CHECK-NEXT:   %[[S:.*]] = cavs.reduce_sum %[[T]]
// CHECK-NEXT:   %[[M:.*]] = cavs.reduce_max %[[T]]
// CHECK-NEXT:   cavs.yield %[[T]], %[[S]], %[[M]] : tensor<4xf32>, tensor<f32>, tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[D:.*]] = cavs.fused(%[[K]]#1) {cavs.batching = #cavs.batching<eager>} : (tensor<f32>) -> tensor<f32> {
// CHECK:        cavs.div
// CHECK:      %[[Y:.*]] = cavs.fused(%[[K]]#0, %[[D]]) {cavs.batching = #cavs.batching<eager>} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32> {
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   cavs.sub
// CHECK-NEXT:   cavs.yield
// CHECK:      %[[R:.*]] = cavs.fused(%[[X]]) {cavs.batching = #cavs.batching<eager>} : (tensor<4xf32>) -> tensor<f32> {
// CHECK-NEXT: ^bb0(%[[B:.*]]: tensor<4xf32>):
// CHECK-NEXT:   %[[RS:.*]] = cavs.reduce_sum %[[B]]
// CHECK-NEXT:   cavs.yield %[[RS]] : tensor<f32>
cavs.model @reductions {
  cavs.vertex @v arity 0 pulls {x = tensor<4xf32>} pushes {y = tensor<4xf32>, m = tensor<f32>, r = tensor<f32>} {
    %x = cavs.pull "x" : tensor<4xf32>
    %t = cavs.tanh %x : tensor<4xf32>
    %s = cavs.reduce_sum %t : tensor<4xf32>
    %m = cavs.reduce_max %t : tensor<4xf32>
    %four = cavs.constant dense<4.0> : tensor<f32>
    %mean = cavs.div %s, %four : tensor<f32>
    %y = cavs.sub %t, %mean : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
    %r = cavs.reduce_sum %x : tensor<4xf32>
    cavs.push "y", %y : tensor<4xf32>
    cavs.push "m", %m : tensor<f32>
    cavs.push "r", %r : tensor<f32>
  }
}

// -----

// An op that uses a reduction's result directly is not fused with it
// either: the sum is yielded and the product is a second kernel.
// CHECK-LABEL: cavs.model @direct
// CHECK:      %[[K:.*]]:2 = cavs.fused(%{{.*}}) {cavs.batching = #cavs.batching<eager>} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<f32>) {
// CHECK:        cavs.exp
// CHECK-NEXT:   cavs.reduce_sum
// CHECK-NEXT:   cavs.yield
// CHECK:      cavs.fused(%[[K]]#0, %[[K]]#1) {cavs.batching = #cavs.batching<eager>} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32> {
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   cavs.div
// CHECK-NEXT:   cavs.yield
cavs.model @direct {
  cavs.vertex @v arity 0 pulls {x = tensor<4xf32>} pushes {p = tensor<4xf32>} {
    %x = cavs.pull "x" : tensor<4xf32>
    %e = cavs.exp %x : tensor<4xf32>
    %s = cavs.reduce_sum %e : tensor<4xf32>
    %p = cavs.div %e, %s : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
    cavs.push "p", %p : tensor<4xf32>
  }
}

// -----

// A split of an elementwise op used by nothing else splits its operands
// instead, down the chain (an add of an add): the parts' adds join the
// kernel that uses the parts, reading the product's result, a broadcast
// parameter and a gathered state in parts, and no kernel computes the
// whole. A scalar operand stays whole; an op with another user is kept.
// CHECK-LABEL: cavs.model @split_operands
// CHECK:      %[[B:.*]] = cavs.param_ref @b
// CHECK:      %[[G:.*]] = cavs.gather 0
// CHECK:      %[[P:.*]] = cavs.matmul
// CHECK-NEXT: %[[PP:.*]]:2 = cavs.split %[[P]] {cavs.batching = #cavs.batching<body>} : tensor<4xf32> -> tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: %[[BP:.*]]:2 = cavs.split %[[B]] {cavs.batching = #cavs.batching<body>} : tensor<4xf32> -> tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: %[[GP:.*]]:2 = cavs.split %[[G]] {cavs.batching = #cavs.batching<body>} : tensor<4xf32> -> tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: %[[F:.*]] = cavs.fused(%[[PP]]#0, %[[BP]]#0, %[[PP]]#1, %[[BP]]#1, %[[GP]]#0, %[[GP]]#1) {cavs.batching = #cavs.batching<body>} : ({{.*}}) -> tensor<2xf32> {
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   cavs.constant
// CHECK-NEXT:   cavs.add
// CHECK-NEXT:   cavs.add
// CHECK-NEXT:   cavs.add
// CHECK-NEXT:   cavs.add
// CHECK-NEXT:   cavs.mul
// CHECK-NEXT:   cavs.mul
// CHECK-NEXT:   cavs.tanh
// CHECK-NEXT:   cavs.mul
// CHECK-NEXT:   cavs.yield
// CHECK:      cavs.concat %[[F]], %[[F]]
// CHECK:      %[[O:.*]] = cavs.fused({{.*}}) {cavs.batching = #cavs.batching<lazy>} : ({{.*}}) -> tensor<4xf32>
// CHECK:      cavs.split %[[O]] {{.*}} : tensor<4xf32> -> tensor<2xf32>, tensor<2xf32>
cavs.model @split_operands state tensor<4xf32> {
  cavs.param @W : tensor<4x2xf32> init xavier
  cavs.param @b : tensor<4xf32> init zeros
  cavs.vertex @v arity 1 pulls {} pushes {y = tensor<4xf32>} {
    %W = cavs.param_ref @W : tensor<4x2xf32>
    %b = cavs.param_ref @b : tensor<4xf32>
    %two = cavs.constant dense<2.0> : tensor<f32>
    %g = cavs.gather 0 : tensor<4xf32>
    %h:2 = cavs.split %g : tensor<4xf32> -> tensor<2xf32>, tensor<2xf32>
    %p = cavs.matmul %W, %h#1 : tensor<4x2xf32>, tensor<2xf32> -> tensor<4xf32>
    %s = cavs.add %p, %b : tensor<4xf32>
    %t = cavs.add %s, %g : tensor<4xf32>
    %u = cavs.mul %two, %t : tensor<f32>, tensor<4xf32> -> tensor<4xf32>
    %i, %j = cavs.split %u : tensor<4xf32> -> tensor<2xf32>, tensor<2xf32>
    %k = cavs.tanh %j : tensor<2xf32>
    %n = cavs.mul %i, %k : tensor<2xf32>
    %c = cavs.concat %n, %n : tensor<2xf32>, tensor<2xf32> -> tensor<4xf32>
    cavs.scatter %c : tensor<4xf32>
    %o = cavs.add %p, %g : tensor<4xf32>
    %q, %r = cavs.split %o : tensor<4xf32> -> tensor<2xf32>, tensor<2xf32>
    cavs.push "y", %o : tensor<4xf32>
  }
}

// -----

// A part nothing uses is not computed: the kernel has the used part only
// (a kernel without a result would not verify).
// CHECK-LABEL: cavs.model @split_unused_part
// CHECK:      %[[X:.*]]:2 = cavs.split
// CHECK-NEXT: %[[F:.*]] = cavs.fused(%[[X]]#1) {cavs.batching = #cavs.batching<eager>} : (tensor<2xf32>) -> tensor<2xf32> {
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   cavs.tanh
// CHECK-NEXT:   cavs.sigmoid
// CHECK-NEXT:   cavs.yield
// CHECK:      cavs.push "y", %[[F]]
cavs.model @split_unused_part {
  cavs.vertex @v arity 0 pulls {x = tensor<4xf32>} pushes {y = tensor<2xf32>} {
    %x = cavs.pull "x" : tensor<4xf32>
    %t = cavs.tanh %x : tensor<4xf32>
    %i, %j = cavs.split %t : tensor<4xf32> -> tensor<2xf32>, tensor<2xf32>
    %y = cavs.sigmoid %j : tensor<2xf32>
    cavs.push "y", %y : tensor<2xf32>
  }
}

// -----

// Elementwise ops nothing reads (left by autodiff without canonicalize)
// make no kernel, which would have no results: they go.
// CHECK-LABEL: cavs.model @dead
// CHECK-NOT:   cavs.fused
// CHECK-NOT:   cavs.tanh
// CHECK:       cavs.push "y", %{{.*}} :
cavs.model @dead {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {y = tensor<2xf32>} {
    %x = cavs.pull "x" : tensor<2xf32>
    %t = cavs.tanh %x : tensor<2xf32>
    %u = cavs.mul %t, %t : tensor<2xf32>
    cavs.push "y", %x : tensor<2xf32>
  }
}
