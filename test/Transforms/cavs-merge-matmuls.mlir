// cavs-merge-matmuls packs matrices that multiply the same vector and
// replaces their matmuls by one matmul and a split.
// RUN: cavs-opt %s --cavs-merge-matmuls --split-input-file | FileCheck %s

// CHECK-LABEL: cavs.model @gates
// CHECK:      cavs.param @A : tensor<2x3xf32>
// CHECK-NEXT: cavs.param_pack @pack_A_B : tensor<6x3xf32> = [@A, @B]
// CHECK:      %[[X:.*]] = cavs.pull "x"
// CHECK:      %[[P:.*]] = cavs.param_ref @pack_A_B : tensor<6x3xf32>
// CHECK-NEXT: %[[Y:.*]] = cavs.matmul %[[P]], %[[X]] : tensor<6x3xf32>, tensor<3xf32> -> tensor<6xf32>
// CHECK-NEXT: %[[S:.*]]:2 = cavs.split %[[Y]] : tensor<6xf32> -> tensor<2xf32>, tensor<4xf32>
// The matmul by another vector is left alone.
// CHECK-NEXT: cavs.matmul %{{.*}}, %{{.*}} : tensor<3x3xf32>, tensor<3xf32> -> tensor<3xf32>
// CHECK-NEXT: cavs.push "a", %[[S]]#0
// CHECK-NEXT: cavs.push "b", %[[S]]#1
cavs.model @gates {
  cavs.param @A : tensor<2x3xf32> init xavier
  cavs.param @B : tensor<4x3xf32> init xavier
  cavs.param @C : tensor<3x3xf32> init xavier
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>, z = tensor<3xf32>} pushes {a = tensor<2xf32>, b = tensor<4xf32>, c = tensor<3xf32>} {
    %x = cavs.pull "x" : tensor<3xf32>
    %z = cavs.pull "z" : tensor<3xf32>
    %A = cavs.param_ref @A : tensor<2x3xf32>
    %B = cavs.param_ref @B : tensor<4x3xf32>
    %C = cavs.param_ref @C : tensor<3x3xf32>
    %a = cavs.matmul %A, %x : tensor<2x3xf32>, tensor<3xf32> -> tensor<2xf32>
    %b = cavs.matmul %B, %x : tensor<4x3xf32>, tensor<3xf32> -> tensor<4xf32>
    %c = cavs.matmul %C, %z : tensor<3x3xf32>, tensor<3xf32> -> tensor<3xf32>
    cavs.push "a", %a : tensor<2xf32>
    cavs.push "b", %b : tensor<4xf32>
    cavs.push "c", %c : tensor<3xf32>
  }
}

// -----

// A matrix can be in one pack only: the second group keeps its matmuls.
// CHECK-LABEL: cavs.model @overlap
// CHECK:      cavs.param_pack @pack_A_B : tensor<4x3xf32> = [@A, @B]
// CHECK-NOT:  cavs.param_pack
// CHECK:      cavs.matmul %{{.*}}, %{{.*}} : tensor<4x3xf32>
// CHECK:      cavs.matmul %{{.*}}, %{{.*}} : tensor<2x3xf32>
// CHECK:      cavs.matmul %{{.*}}, %{{.*}} : tensor<2x3xf32>
cavs.model @overlap {
  cavs.param @A : tensor<2x3xf32> init xavier
  cavs.param @B : tensor<2x3xf32> init xavier
  cavs.param @C : tensor<2x3xf32> init xavier
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>, z = tensor<3xf32>} pushes {a = tensor<2xf32>, b = tensor<2xf32>, c = tensor<2xf32>, d = tensor<2xf32>} {
    %x = cavs.pull "x" : tensor<3xf32>
    %z = cavs.pull "z" : tensor<3xf32>
    %A = cavs.param_ref @A : tensor<2x3xf32>
    %B = cavs.param_ref @B : tensor<2x3xf32>
    %C = cavs.param_ref @C : tensor<2x3xf32>
    %a = cavs.matmul %A, %x : tensor<2x3xf32>, tensor<3xf32> -> tensor<2xf32>
    %b = cavs.matmul %B, %x : tensor<2x3xf32>, tensor<3xf32> -> tensor<2xf32>
    %c = cavs.matmul %A, %z : tensor<2x3xf32>, tensor<3xf32> -> tensor<2xf32>
    %d = cavs.matmul %C, %z : tensor<2x3xf32>, tensor<3xf32> -> tensor<2xf32>
    cavs.push "a", %a : tensor<2xf32>
    cavs.push "b", %b : tensor<2xf32>
    cavs.push "c", %c : tensor<2xf32>
    cavs.push "d", %d : tensor<2xf32>
  }
}

// -----

// Autodiff after merging needs one GEMM for the input gradient and one for
// the packed weight gradient.
// RUN: cavs-opt %s --cavs-merge-matmuls --cavs-autodiff --split-input-file | FileCheck %s --check-prefix=GRAD
// GRAD-LABEL: cavs.model @grad
// GRAD:       cavs.backward {
// GRAD:         cavs.matmul %{{.*}}, %{{.*}} {transpose_lhs} : tensor<4x3xf32>, tensor<4xf32> -> tensor<3xf32>
// GRAD-NEXT:    cavs.param_grad_outer @pack_A_B, %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<3xf32>
// GRAD-NOT:     cavs.param_grad_outer
cavs.model @grad {
  cavs.param @A : tensor<2x3xf32> init xavier
  cavs.param @B : tensor<2x3xf32> init xavier
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>} pushes {a = tensor<2xf32>, b = tensor<2xf32>} {
    %x = cavs.pull "x" : tensor<3xf32>
    %A = cavs.param_ref @A : tensor<2x3xf32>
    %B = cavs.param_ref @B : tensor<2x3xf32>
    %a = cavs.matmul %A, %x : tensor<2x3xf32>, tensor<3xf32> -> tensor<2xf32>
    %b = cavs.matmul %B, %x : tensor<2x3xf32>, tensor<3xf32> -> tensor<2xf32>
    cavs.push "a", %a : tensor<2xf32>
    cavs.push "b", %b : tensor<2xf32>
  }
}
