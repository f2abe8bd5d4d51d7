// cavs.phase prints and parses back; F's phases sit in the vertex body and
// ∂F's in cavs.backward, which reads F's phase results.
// RUN: cavs-opt %s | cavs-opt | FileCheck %s

// CHECK-LABEL: cavs.vertex @v
// CHECK:        %[[W:.*]] = cavs.param_ref @W
// CHECK-NEXT:   %[[X:.*]] = cavs.phase <eager> -> tensor<2xf32> {
// CHECK-NEXT:     cavs.pull "x"
// CHECK:        cavs.phase <body> {
// CHECK:          cavs.matmul %[[W]], %{{.*}}
// CHECK:        cavs.backward {
// CHECK-NEXT:     cavs.phase <lazy> {
// CHECK-NEXT:       cavs.pull_grad "x", %[[X]]
cavs.model @m state tensor<2xf32> {
  cavs.param @W : tensor<2x2xf32> init xavier
  cavs.vertex @v arity 1 pulls {x = tensor<2xf32>} pushes {} {
    %W = cavs.param_ref @W : tensor<2x2xf32>
    %x = cavs.phase <eager> -> tensor<2xf32> {
      %0 = cavs.pull "x" : tensor<2xf32>
      cavs.yield %0 : tensor<2xf32>
    }
    cavs.phase <body> {
      %h = cavs.gather 0 : tensor<2xf32>
      %y = cavs.matmul %W, %h : tensor<2x2xf32>, tensor<2xf32> -> tensor<2xf32>
      %s = cavs.add %x, %y : tensor<2xf32>
      cavs.scatter %s : tensor<2xf32>
      cavs.yield
    }
    cavs.backward {
      cavs.phase <lazy> {
        cavs.pull_grad "x", %x : tensor<2xf32>
        cavs.yield
      }
    }
  }
}
