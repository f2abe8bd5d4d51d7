// A concat copies only the inputs cavs-plan-memory did not place in its
// columns: here the kernel's result is computed in place, and the gathered
// half (which may be read from the state in place) is copied: one
// copy_rows call (device table entry 4) in the body.
// RUN: cavs-opt %s --pass-pipeline='builtin.module(cavs-optimize{autodiff=false},cavs-lower-fused,cavs.model(cavs-outline-phases),cavs-lower-to-runtime,canonicalize,cse)' | FileCheck %s

// CHECK-LABEL: func.func @chain_v_forward_body
// CHECK:         llvm.getelementptr %{{.*}}[4] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NOT:     llvm.getelementptr %{{.*}}[4] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK:         return
cavs.model @chain state tensor<4xf32> {
  cavs.vertex @v arity 1 pulls {} pushes {} {
    %s = cavs.gather 0 : tensor<4xf32>
    %p:2 = cavs.split %s : tensor<4xf32> -> tensor<2xf32>, tensor<2xf32>
    %t = cavs.tanh %p#0 : tensor<2xf32>
    %c = cavs.concat %t, %p#1 : tensor<2xf32>, tensor<2xf32> -> tensor<4xf32>
    cavs.scatter %c : tensor<4xf32>
  }
}
