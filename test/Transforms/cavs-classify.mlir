// cavs-classify marks ops of F and ∂F eager, body or lazy (Cavs paper §3.3).
// RUN: cavs-opt %s --cavs-classify --split-input-file | FileCheck %s

// Pulls and products of pulled inputs are eager; ops on the gather→scatter
// path are body; push, the output layer and the loss are lazy. In ∂F the
// loss adjoint is eager, the state-gradient path body and the parameter
// gradients lazy.
// CHECK-LABEL: cavs.model @cell
// CHECK:      cavs.pull "x" {cavs.batching = #cavs.batching<eager>}
// CHECK-NEXT: cavs.pull "label" {cavs.batching = #cavs.batching<eager>}
// CHECK-NEXT: cavs.param_ref @W {cavs.batching = #cavs.batching<eager>}
// CHECK-NEXT: cavs.param_ref @U {cavs.batching = #cavs.batching<eager>}
// CHECK-NEXT: cavs.param_ref @V {cavs.batching = #cavs.batching<eager>}
// CHECK-NEXT: cavs.matmul {{.*}} {cavs.batching = #cavs.batching<eager>}
// CHECK-NEXT: cavs.gather 0 {cavs.batching = #cavs.batching<body>}
// CHECK-NEXT: cavs.matmul {{.*}} {cavs.batching = #cavs.batching<body>}
// CHECK-NEXT: cavs.add {{.*}} {cavs.batching = #cavs.batching<body>}
// CHECK-NEXT: cavs.tanh {{.*}} {cavs.batching = #cavs.batching<body>}
// CHECK-NEXT: cavs.scatter {{.*}} {cavs.batching = #cavs.batching<body>}
// CHECK-NEXT: cavs.push "h", {{.*}} {cavs.batching = #cavs.batching<lazy>}
// CHECK-NEXT: cavs.matmul {{.*}} {cavs.batching = #cavs.batching<lazy>}
// CHECK-NEXT: cavs.softmax_cross_entropy {{.*}} {cavs.batching = #cavs.batching<lazy>}
// CHECK-NEXT: cavs.loss {{.*}} {cavs.batching = #cavs.batching<lazy>}
// CHECK-NEXT: cavs.backward {
// CHECK-NEXT:   cavs.constant {cavs.batching = #cavs.batching<eager>}
// CHECK-NEXT:   cavs.softmax_cross_entropy_grad {{.*}} {cavs.batching = #cavs.batching<eager>}
// CHECK-NEXT:   cavs.matmul {{.*}} {cavs.batching = #cavs.batching<eager>, transpose_lhs}
// CHECK-NEXT:   cavs.param_grad_outer @V, {{.*}} {cavs.batching = #cavs.batching<eager>}
// CHECK-NEXT:   cavs.state_grad {cavs.batching = #cavs.batching<body>}
// CHECK-NEXT:   cavs.sum {{.*}} {cavs.batching = #cavs.batching<body>}
// CHECK-NEXT:   cavs.mul {{.*}} {cavs.batching = #cavs.batching<body>}
// CHECK-NEXT:   cavs.matmul {{.*}} {cavs.batching = #cavs.batching<body>, transpose_lhs}
// CHECK-NEXT:   cavs.child_grad 0, {{.*}} {cavs.batching = #cavs.batching<body>}
// CHECK-NEXT:   cavs.param_grad_outer @U, {{.*}} {cavs.batching = #cavs.batching<lazy>}
// CHECK-NEXT:   cavs.param_grad_outer @W, {{.*}} {cavs.batching = #cavs.batching<lazy>}
// CHECK-NEXT: }
cavs.model @cell state tensor<4xf32> {
  cavs.param @W : tensor<4x3xf32> init xavier
  cavs.param @U : tensor<4x4xf32> init xavier
  cavs.param @V : tensor<5x4xf32> init xavier
  cavs.vertex @cell arity 1 pulls {x = tensor<3xf32>, label = i32} pushes {h = tensor<4xf32>} {
    %x = cavs.pull "x" : tensor<3xf32>
    %l = cavs.pull "label" : i32
    %W = cavs.param_ref @W : tensor<4x3xf32>
    %U = cavs.param_ref @U : tensor<4x4xf32>
    %V = cavs.param_ref @V : tensor<5x4xf32>
    %wx = cavs.matmul %W, %x : tensor<4x3xf32>, tensor<3xf32> -> tensor<4xf32>
    %s = cavs.gather 0 : tensor<4xf32>
    %us = cavs.matmul %U, %s : tensor<4x4xf32>, tensor<4xf32> -> tensor<4xf32>
    %a = cavs.add %wx, %us : tensor<4xf32>
    %h = cavs.tanh %a : tensor<4xf32>
    cavs.scatter %h : tensor<4xf32>
    cavs.push "h", %h : tensor<4xf32>
    %logits = cavs.matmul %V, %h : tensor<5x4xf32>, tensor<4xf32> -> tensor<5xf32>
    %loss = cavs.softmax_cross_entropy %logits, %l : tensor<5xf32>, i32
    cavs.loss %loss : tensor<f32>
    cavs.backward {
      %one = cavs.constant dense<1.0> : tensor<f32>
      %dlogits = cavs.softmax_cross_entropy_grad %logits, %l, %one : tensor<5xf32>, i32
      %dh1 = cavs.matmul %V, %dlogits {transpose_lhs} : tensor<5x4xf32>, tensor<5xf32> -> tensor<4xf32>
      cavs.param_grad_outer @V, %dlogits, %h : tensor<5xf32>, tensor<4xf32>
      %dh2 = cavs.state_grad : tensor<4xf32>
      %dh = cavs.sum %dh1, %dh2 : tensor<4xf32>
      %da = cavs.mul %dh, %h : tensor<4xf32>
      %ds = cavs.matmul %U, %da {transpose_lhs} : tensor<4x4xf32>, tensor<4xf32> -> tensor<4xf32>
      cavs.child_grad 0, %ds : tensor<4xf32>
      cavs.param_grad_outer @U, %da, %s : tensor<4xf32>, tensor<4xf32>
      cavs.param_grad_outer @W, %da, %x : tensor<4xf32>, tensor<3xf32>
    }
  }
}

// -----

// A leaf vertex function has no recursion input: all of it is eager, even
// its scatter.
// CHECK-LABEL: cavs.model @leaf
// CHECK:      cavs.pull "x" {cavs.batching = #cavs.batching<eager>}
// CHECK-NEXT: cavs.tanh {{.*}} {cavs.batching = #cavs.batching<eager>}
// CHECK-NEXT: cavs.scatter {{.*}} {cavs.batching = #cavs.batching<eager>}
cavs.model @leaf state tensor<4xf32> {
  cavs.vertex @leaf arity 0 pulls {x = tensor<4xf32>} pushes {} {
    %x = cavs.pull "x" : tensor<4xf32>
    %t = cavs.tanh %x : tensor<4xf32>
    cavs.scatter %t : tensor<4xf32>
  }
}

// -----

// A gathered value used only by the loss is lazy, not body.
// CHECK-LABEL: cavs.model @side
// CHECK:      cavs.gather 0 {cavs.batching = #cavs.batching<body>}
// CHECK-NEXT: cavs.scatter {{.*}} {cavs.batching = #cavs.batching<body>}
// CHECK-NEXT: cavs.reduce_sum {{.*}} {cavs.batching = #cavs.batching<lazy>}
// CHECK-NEXT: cavs.loss {{.*}} {cavs.batching = #cavs.batching<lazy>}
cavs.model @side state tensor<4xf32> {
  cavs.vertex @v arity 1 pulls {} pushes {} {
    %s = cavs.gather 0 : tensor<4xf32>
    cavs.scatter %s : tensor<4xf32>
    %r = cavs.reduce_sum %s : tensor<4xf32>
    cavs.loss %r : tensor<f32>
  }
}

// -----

// An eager elementwise op whose users all run in the body moves into the
// body (with the chain feeding it), where fusion puts it into the body's
// kernel instead of a pass of its own over every vertex; one that an eager
// product reads stays eager.
// CHECK-LABEL: cavs.model @sink
// CHECK:      cavs.backward {
// CHECK-NEXT:   cavs.constant {cavs.batching = #cavs.batching<eager>}
// CHECK-NEXT:   cavs.mul {{.*}} {cavs.batching = #cavs.batching<body>}
// CHECK-NEXT:   cavs.sub {{.*}} {cavs.batching = #cavs.batching<body>}
// CHECK-NEXT:   cavs.tanh {{.*}} {cavs.batching = #cavs.batching<eager>}
// CHECK-NEXT:   cavs.matmul {{.*}} {cavs.batching = #cavs.batching<eager>}
// CHECK-NEXT:   cavs.state_grad {cavs.batching = #cavs.batching<body>}
// CHECK-NEXT:   cavs.mul {{.*}} {cavs.batching = #cavs.batching<body>}
// CHECK-NEXT:   cavs.add {{.*}} {cavs.batching = #cavs.batching<body>}
// CHECK-NEXT:   cavs.child_grad 0, {{.*}} {cavs.batching = #cavs.batching<body>}
cavs.model @sink state tensor<4xf32> {
  cavs.param @U : tensor<4x4xf32> init xavier
  cavs.vertex @v arity 1 pulls {} pushes {} {
    %U = cavs.param_ref @U : tensor<4x4xf32>
    %s = cavs.gather 0 : tensor<4xf32>
    %h = cavs.tanh %s : tensor<4xf32>
    cavs.scatter %h : tensor<4xf32>
    cavs.backward {
      %one = cavs.constant dense<1.0> : tensor<f32>
      %hh = cavs.mul %h, %h : tensor<4xf32>
      %dt = cavs.sub %one, %hh : tensor<f32>, tensor<4xf32> -> tensor<4xf32>
      %th = cavs.tanh %h : tensor<4xf32>
      %uh = cavs.matmul %U, %th : tensor<4x4xf32>, tensor<4xf32> -> tensor<4xf32>
      %g = cavs.state_grad : tensor<4xf32>
      %ds = cavs.mul %g, %dt : tensor<4xf32>
      %d = cavs.add %ds, %uh : tensor<4xf32>
      cavs.child_grad 0, %d : tensor<4xf32>
    }
  }
}

// -----

// One whose users all run in the lazy phase moves into the lazy phase (a
// leaf's gate derivatives, used by its lazy parameter gradients); one used
// in the body and the lazy phase moves into the body, the earlier.
// CHECK-LABEL: cavs.model @sink_lazy
// CHECK:      cavs.param_ref @b {cavs.batching = #cavs.batching<eager>}
// CHECK-NEXT: cavs.tanh {{.*}} {cavs.batching = #cavs.batching<lazy>}
// CHECK-NEXT: cavs.exp {{.*}} {cavs.batching = #cavs.batching<lazy>}
// CHECK-NEXT: cavs.sigmoid {{.*}} {cavs.batching = #cavs.batching<body>}
// CHECK-NEXT: cavs.gather 0 {cavs.batching = #cavs.batching<body>}
// CHECK-NEXT: cavs.mul {{.*}} {cavs.batching = #cavs.batching<body>}
// CHECK-NEXT: cavs.scatter {{.*}} {cavs.batching = #cavs.batching<body>}
// CHECK-NEXT: cavs.add {{.*}} {cavs.batching = #cavs.batching<lazy>}
// CHECK-NEXT: cavs.add {{.*}} {cavs.batching = #cavs.batching<lazy>}
// CHECK-NEXT: cavs.push "y", {{.*}} {cavs.batching = #cavs.batching<lazy>}
cavs.model @sink_lazy state tensor<4xf32> {
  cavs.param @b : tensor<4xf32> init zeros
  cavs.vertex @v arity 1 pulls {} pushes {y = tensor<4xf32>} {
    %b = cavs.param_ref @b : tensor<4xf32>
    %t = cavs.tanh %b : tensor<4xf32>
    %e = cavs.exp %t : tensor<4xf32>
    %g = cavs.sigmoid %b : tensor<4xf32>
    %s = cavs.gather 0 : tensor<4xf32>
    %h = cavs.mul %s, %g : tensor<4xf32>
    cavs.scatter %h : tensor<4xf32>
    %y0 = cavs.add %h, %e : tensor<4xf32>
    %y = cavs.add %y0, %g : tensor<4xf32>
    cavs.push "y", %y : tensor<4xf32>
  }
}

// -----

// With children, the ends of the recursion run in the body whatever their
// operands and users: a gather that only a loss and a push read (by users
// alone it would be lazy, where no task says whose children to read), a
// scatter of a value computed from the pulls alone (eager by its operands),
// and in ∂F a state_grad only a parameter gradient reads. (The tanh, used
// only by the scatter, then moves into the body's kernel.)
// CHECK-LABEL: cavs.model @ends_in_the_body
// CHECK:      cavs.pull "x" {cavs.batching = #cavs.batching<eager>}
// CHECK-NEXT: cavs.tanh {{.*}} {cavs.batching = #cavs.batching<body>}
// CHECK-NEXT: cavs.scatter {{.*}} {cavs.batching = #cavs.batching<body>}
// CHECK-NEXT: cavs.gather 0 {cavs.batching = #cavs.batching<body>}
// CHECK-NEXT: cavs.reduce_sum {{.*}} {cavs.batching = #cavs.batching<lazy>}
// CHECK-NEXT: cavs.loss {{.*}} {cavs.batching = #cavs.batching<lazy>}
// CHECK-NEXT: cavs.push "y", {{.*}} {cavs.batching = #cavs.batching<lazy>}
// CHECK-NEXT: cavs.backward {
// CHECK-NEXT:   cavs.state_grad {cavs.batching = #cavs.batching<body>}
// CHECK-NEXT:   cavs.param_grad_outer @W, {{.*}} {cavs.batching = #cavs.batching<lazy>}
// CHECK-NEXT: }
cavs.model @ends_in_the_body state tensor<4xf32> {
  cavs.param @W : tensor<4x4xf32> init xavier
  cavs.vertex @v arity 1 pulls {x = tensor<4xf32>} pushes {y = tensor<4xf32>} {
    %x = cavs.pull "x" : tensor<4xf32>
    %h = cavs.tanh %x : tensor<4xf32>
    cavs.scatter %h : tensor<4xf32>
    %s = cavs.gather 0 : tensor<4xf32>
    %r = cavs.reduce_sum %s : tensor<4xf32>
    cavs.loss %r : tensor<f32>
    cavs.push "y", %s : tensor<4xf32>
    cavs.backward {
      %dh = cavs.state_grad : tensor<4xf32>
      cavs.param_grad_outer @W, %dh, %x : tensor<4xf32>, tensor<4xf32>
    }
  }
}
