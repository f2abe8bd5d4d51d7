// cavs-outline-phases moves the ops of each batching class into a
// cavs.phase; a phase yields what later phases and ∂F read, parameter
// references stay outside, and no cavs.batching attribute is left.
// RUN: cavs-opt %s --split-input-file --cavs-plan-memory --cavs-outline-phases | FileCheck %s

// CHECK-LABEL: cavs.model @simple
// CHECK-NOT:   cavs.batching
// CHECK:       %[[W:.*]] = cavs.param_ref @W : tensor<4x4xf32>
// CHECK-NEXT:  %[[WX:.*]] = cavs.phase <eager> -> tensor<4xf32> {
// CHECK-NEXT:    %[[X:.*]] = cavs.pull "x" {cavs.slots = [#cavs.slot<arena, 0, 4>]}
// CHECK-NEXT:    %[[M:.*]] = cavs.matmul %[[W]], %[[X]]
// CHECK-NEXT:    cavs.yield %[[M]] : tensor<4xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[T:.*]] = cavs.phase <body> -> tensor<4xf32> {
// CHECK-NEXT:    %[[S:.*]] = cavs.gather 0
// CHECK-NEXT:    %[[A:.*]] = cavs.add %[[WX]], %[[S]]
// CHECK-NEXT:    %[[TANH:.*]] = cavs.tanh %[[A]]
// CHECK-NEXT:    cavs.scatter %[[TANH]]
// CHECK-NEXT:    cavs.yield %[[TANH]] : tensor<4xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  cavs.phase <lazy> {
// CHECK-NEXT:    %[[P:.*]]:2 = cavs.split %[[T]]
// CHECK-NEXT:    cavs.push "y", %[[P]]#1
// CHECK-NEXT:    cavs.yield
// CHECK-NEXT:  }
cavs.model @simple state tensor<4xf32> {
  cavs.param @W : tensor<4x4xf32> init xavier
  cavs.vertex @v arity 1 pulls {x = tensor<4xf32>} pushes {y = tensor<2xf32>} {
    %x = cavs.pull "x" {cavs.batching = #cavs.batching<eager>} : tensor<4xf32>
    %W = cavs.param_ref @W {cavs.batching = #cavs.batching<eager>} : tensor<4x4xf32>
    %wx = cavs.matmul %W, %x {cavs.batching = #cavs.batching<eager>} : tensor<4x4xf32>, tensor<4xf32> -> tensor<4xf32>
    %s = cavs.gather 0 {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    %a = cavs.add %wx, %s {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    %t = cavs.tanh %a {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    cavs.scatter %t {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    %p:2 = cavs.split %t {cavs.batching = #cavs.batching<lazy>} : tensor<4xf32> -> tensor<2xf32>, tensor<2xf32>
    cavs.push "y", %p#1 {cavs.batching = #cavs.batching<lazy>} : tensor<2xf32>
  }
}

// -----

// ∂F gets phases of its own inside cavs.backward and reads F's values
// through F's phase results. A class without ops has no phase.
// CHECK-LABEL: cavs.model @grad
// CHECK:       %[[T:.*]] = cavs.phase <body> -> tensor<4xf32> {
// CHECK:         cavs.yield %{{.*}} : tensor<4xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  cavs.backward {
// CHECK-NEXT:    %[[D:.*]] = cavs.phase <body> -> tensor<4xf32> {
// CHECK-NEXT:      %[[G:.*]] = cavs.state_grad
// CHECK-NEXT:      %[[M:.*]] = cavs.mul %[[G]], %[[T]]
// CHECK-NEXT:      cavs.child_grad 0, %[[M]]
// CHECK-NEXT:      cavs.yield %[[M]] : tensor<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    cavs.phase <lazy> {
// CHECK-NEXT:      cavs.pull_grad "x", %[[D]]
// CHECK-NEXT:      cavs.yield
// CHECK-NEXT:    }
// CHECK-NEXT:  }
cavs.model @grad state tensor<4xf32> {
  cavs.vertex @v arity 1 pulls {x = tensor<4xf32>} pushes {} {
    %x = cavs.pull "x" {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    %s = cavs.gather 0 {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    %t = cavs.add %x, %s {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    cavs.scatter %t {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    cavs.backward {
      %g = cavs.state_grad {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
      %m = cavs.mul %g, %t {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
      cavs.child_grad 0, %m {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
      cavs.pull_grad "x", %m {cavs.batching = #cavs.batching<lazy>} : tensor<4xf32>
    }
  }
}
