// The cavs-lower-to-llvm pipeline takes planned cavs IR all the way to the
// LLVM dialect: kernels and phase functions are llvm.func (the runtime ops
// are called through the device table), and no other dialect is left.
// RUN: cavs-opt %s --pass-pipeline='builtin.module(cavs-optimize,cavs-lower-to-llvm)' | FileCheck %s \
// RUN:   --implicit-check-not=cavs. --implicit-check-not=memref. --implicit-check-not=func.func \
// RUN:   --implicit-check-not=scf. --implicit-check-not=math. --implicit-check-not=unrealized_conversion_cast

// CHECK-DAG:   llvm.func @chain_cell_k0(%{{.*}}: i64, %{{.*}}: !llvm.ptr {llvm.noalias}
// CHECK-DAG:   llvm.func @chain_cell_k0_rows(%{{.*}}: i64, %{{.*}}: i64, %{{.*}}: !llvm.ptr)
// CHECK-DAG:   llvm.mlir.addressof @chain_cell_k0_rows : !llvm.ptr
// CHECK-DAG:   llvm.func @chain_cell_forward_body(%{{.*}}: !llvm.ptr) -> i32
// CHECK-DAG:   llvm.func @chain_cell_backward_lazy(%{{.*}}: !llvm.ptr) -> i32
cavs.model @chain state tensor<4xf32> {
  cavs.param @W : tensor<4x4xf32> init xavier
  cavs.vertex @cell arity 1 pulls {x = tensor<4xf32>} pushes {} {
    %x = cavs.pull "x" : tensor<4xf32>
    %h = cavs.gather 0 : tensor<4xf32>
    %W = cavs.param_ref @W : tensor<4x4xf32>
    %y = cavs.matmul %W, %h : tensor<4x4xf32>, tensor<4xf32> -> tensor<4xf32>
    %s = cavs.add %x, %y : tensor<4xf32>
    %t = cavs.tanh %s : tensor<4xf32>
    cavs.scatter %t : tensor<4xf32>
    %l = cavs.reduce_sum %t : tensor<4xf32>
    cavs.loss %l : tensor<f32>
  }
}
