// A scattered value that cavs-plan-memory put in the state rows is computed
// there: the leaf's kernel writes the state (its buffer is the call's state,
// field 5, plus state_begin, field 7, rows of 4 floats) and no scatter call
// (device table entry 2) remains.
// RUN: cavs-opt %s --pass-pipeline='builtin.module(cavs-optimize{autodiff=false},cavs-lower-fused,cavs.model(cavs-outline-phases),cavs-lower-to-runtime,canonicalize,cse)' | FileCheck %s

// CHECK-LABEL: func.func @m_leaf_forward_eager
// CHECK-NOT:     llvm.getelementptr %{{.*}}[2] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK:         llvm.getelementptr %arg0[7] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NOT:     llvm.getelementptr %{{.*}}[2] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK:         llvm.getelementptr %arg0[5] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NOT:     llvm.getelementptr %{{.*}}[2] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK:         return
cavs.model @m state tensor<4xf32> {
  cavs.vertex @leaf arity 0 pulls {x = tensor<4xf32>} pushes {} {
    %x = cavs.pull "x" : tensor<4xf32>
    %t = cavs.tanh %x : tensor<4xf32>
    cavs.scatter %t : tensor<4xf32>
  }
}
