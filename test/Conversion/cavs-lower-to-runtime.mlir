// cavs-lower-to-runtime makes a function `<model>_<vertex>_<phase>` of each
// cavs.phase, with one runtime call (or kernel call) per op on strided
// memref buffers. The inference program (no ∂F) of a small tree model:
// a lookup (a checked call whose status the function returns), a gather
// read in place when the schedule allows it, a matmul, a fused kernel, a
// scatter and a push of a split part (a subview).
// RUN: cavs-opt %s --pass-pipeline='builtin.module(cavs-optimize{autodiff=false},cavs-lower-fused,cavs.model(cavs-outline-phases),cavs-lower-to-runtime,canonicalize,cse)' | FileCheck %s
// RUN: cavs-opt %s --pass-pipeline='builtin.module(cavs-optimize{autodiff=false},cavs-lower-fused{device=cuda first-kernel=3},cavs.model(cavs-outline-phases),cavs-lower-to-runtime{device=cuda},canonicalize,cse)' | FileCheck %s --check-prefix=CUDA

// CHECK-NOT:   cavs.model
// CHECK-DAG:   func.func private @cavs_op_lookup(i64, !llvm.ptr, i64, !llvm.ptr, i64, i64, !llvm.ptr, i64) -> i32
// CHECK-DAG:   func.func @tree_node_k0(%{{.*}}: i64, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: i64,

// CHECK-LABEL: func.func @tree_node_forward_eager(%arg0: !llvm.ptr) -> i32
// CHECK:         call @cavs_op_gather_rows(
// CHECK:         %[[STATUS:.*]] = call @cavs_op_lookup(
// CHECK-NEXT:    return %[[STATUS]] : i32

// CHECK-LABEL: func.func @tree_node_forward_body(%arg0: !llvm.ptr) -> i32
// CHECK:         %[[CHILD:.*]] = scf.if %{{.*}} -> (memref<?x4xf32, strided<[?, 1], offset: ?>>) {
// CHECK:           scf.yield %{{.*}} : memref<?x4xf32, strided<[?, 1], offset: ?>>
// CHECK-NEXT:    } else {
// CHECK:           func.call @cavs_op_gather(
// CHECK:         memref.extract_strided_metadata %[[CHILD]]
// CHECK:         call @cavs_op_gemm(
// CHECK:         call @tree_node_k0(
// CHECK:         call @cavs_op_scatter(
// CHECK:         return %{{.*}} : i32

// CHECK-LABEL: func.func @tree_node_forward_lazy(%arg0: !llvm.ptr) -> i32
// CHECK:         memref.subview %{{.*}}[0, 2] [%{{.*}}, 2] [1, 1] : memref<?x4xf32, strided<[?, 1], offset: ?>> to memref<?x2xf32, strided<[?, 1], offset: ?>>
// CHECK:         call @cavs_op_scatter_rows(

// On CUDA every runtime op goes through the device table (cavs_call field
// 18) and a fused op launches its kernel by number.
// CUDA-NOT:    func.func private @cavs_op_
// CUDA-LABEL:  func.func @tree_node_forward_body(%arg0: !llvm.ptr) -> i32
// CUDA:          %[[DEVICE_FIELD:.*]] = llvm.getelementptr %arg0[18]
// CUDA-NEXT:     %[[DEVICE:.*]] = llvm.load %[[DEVICE_FIELD]] : !llvm.ptr -> !llvm.ptr
// CUDA:          %[[ARGS:.*]] = llvm.alloca %{{.*}} x i64
// CUDA:          %[[LAUNCH:.*]] = llvm.getelementptr %[[DEVICE]][16] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CUDA-NEXT:     %[[CALLEE:.*]] = llvm.load %[[LAUNCH]]
// CUDA-NEXT:     llvm.call %[[CALLEE]](%[[DEVICE]], %c3_i32, %{{.*}}, %c4_i64, %[[ARGS]], %c8_i32)
cavs.model @tree state tensor<4xf32> {
  cavs.param @E : tensor<10x4xf32> init xavier
  cavs.param @W : tensor<4x4xf32> init xavier
  cavs.param @b : tensor<4xf32> init zeros
  cavs.vertex @node arity 1 pulls {word = i32} pushes {h = tensor<2xf32>} {
    %w = cavs.pull "word" : i32
    %E = cavs.param_ref @E : tensor<10x4xf32>
    %x = cavs.lookup %E[%w] : tensor<10x4xf32>, i32 -> tensor<4xf32>
    %c = cavs.gather 0 : tensor<4xf32>
    %W = cavs.param_ref @W : tensor<4x4xf32>
    %y = cavs.matmul %W, %c : tensor<4x4xf32>, tensor<4xf32> -> tensor<4xf32>
    %b = cavs.param_ref @b : tensor<4xf32>
    %s = cavs.add %x, %y : tensor<4xf32>
    %t = cavs.add %s, %b : tensor<4xf32>
    %h = cavs.tanh %t : tensor<4xf32>
    cavs.scatter %h : tensor<4xf32>
    %p:2 = cavs.split %h : tensor<4xf32> -> tensor<2xf32>, tensor<2xf32>
    cavs.push "h", %p#1 : tensor<2xf32>
  }
}
