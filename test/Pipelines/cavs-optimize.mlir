// The cavs-optimize pipeline derives ∂F, classifies, fuses and plans memory;
// its options switch the optimizations off.
// RUN: cavs-opt %s --cavs-optimize | FileCheck %s
// RUN: cavs-opt %s --pass-pipeline='builtin.module(cavs-optimize{merge-matmuls=false lazy-batching=false fusion=false})' | FileCheck %s --check-prefix=OFF
// RUN: cavs-opt %s --pass-pipeline='builtin.module(cavs-optimize{autodiff=false})' | FileCheck %s --check-prefix=NOGRAD

// CHECK-LABEL: cavs.model @rnn
// CHECK:      cavs.param_pack @pack_A_B : tensor<8x3xf32> = [@A, @B]
// CHECK:      cavs.vertex @cell {{.*}} attributes {cavs.arena_floats = {{[0-9]+}} : i64, cavs.scratch_floats = {{[0-9]+}} : i64}
// CHECK:      cavs.matmul {{.*}}{cavs.batching = #cavs.batching<eager>, cavs.slots = [#cavs.slot<arena, {{[0-9]+}}, 8>]} : tensor<8x3xf32>
// CHECK:      cavs.fused{{.*}}cavs.batching = #cavs.batching<body>
// CHECK:      cavs.backward {
// CHECK:        cavs.state_grad
// CHECK:        cavs.param_grad_outer @pack_A_B
// OFF-NOT:    cavs.param_pack
// Without fusion every elementwise op is a kernel of its own.
// OFF:        cavs.fused(%{{.*}}) {{.*}} {
// OFF-NEXT:   ^bb0(
// OFF-NEXT:     cavs.sigmoid
// OFF-NEXT:     cavs.yield
// OFF-NOT:    #cavs.batching<eager>
// OFF-NOT:    #cavs.batching<lazy>
// NOGRAD-NOT: cavs.backward
cavs.model @rnn state tensor<4xf32> {
  cavs.param @A : tensor<4x3xf32> init xavier
  cavs.param @B : tensor<4x3xf32> init xavier
  cavs.vertex @cell arity 1 pulls {x = tensor<3xf32>} pushes {y = tensor<4xf32>} {
    %x = cavs.pull "x" : tensor<3xf32>
    %A = cavs.param_ref @A : tensor<4x3xf32>
    %B = cavs.param_ref @B : tensor<4x3xf32>
    %a = cavs.matmul %A, %x : tensor<4x3xf32>, tensor<3xf32> -> tensor<4xf32>
    %b = cavs.matmul %B, %x : tensor<4x3xf32>, tensor<3xf32> -> tensor<4xf32>
    %s = cavs.gather 0 : tensor<4xf32>
    %g = cavs.sigmoid %b : tensor<4xf32>
    %m = cavs.mul %g, %s : tensor<4xf32>
    %h = cavs.add %a, %m : tensor<4xf32>
    %t = cavs.tanh %h : tensor<4xf32>
    cavs.scatter %t : tensor<4xf32>
    cavs.push "y", %t : tensor<4xf32>
  }
}
