// cavs-lower-to-runtime makes a function `<model>_<vertex>_<phase>` of each
// cavs.phase, with one runtime call (or kernel call) per op on strided
// memref buffers, every runtime op called through the device's op table.
// The inference program (no ∂F) of a small tree model:
// a lookup (a checked call whose status the function returns), a gather
// read in place when the schedule allows it, a matmul, a fused kernel, a
// scatter and a push of a split part (a subview).
// RUN: cavs-opt %s --pass-pipeline='builtin.module(cavs-optimize{autodiff=false},cavs-lower-fused,cavs.model(cavs-outline-phases),cavs-lower-to-runtime,canonicalize,cse)' | FileCheck %s
// RUN: cavs-opt %s --pass-pipeline='builtin.module(cavs-optimize{autodiff=false},cavs-lower-fused{device=cuda first-kernel=3},cavs.model(cavs-outline-phases),cavs-lower-to-runtime{device=cuda},canonicalize,cse)' | FileCheck %s --check-prefix=CUDA

// Every runtime op is entry i of the device table cavs_call::device (field
// 20; cavs/ops.def): gemm 0 (the table's first word), gather 1, scatter 2, lookup 6, gather_rows 12,
// scatter_rows 13, launch 16, run_rows 18.
// CHECK-NOT:   cavs.model
// CHECK-NOT:   func.func private
// CHECK:       func.func @tree_node_k0(%{{.*}}: i64, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: i64,
// The kernel's rows form: each operand's (pointer, ld) from the packed
// array, the pointer moved to row `begin`, the kernel run on end - begin rows.
// CHECK:       func.func @tree_node_k0_rows(%[[BEGIN:.*]]: i64, %[[END:.*]]: i64, %[[ARGS:.*]]: !llvm.ptr)
// CHECK-NEXT:    %[[COUNT:.*]] = arith.subi %[[END]], %[[BEGIN]] : i64
// CHECK-NEXT:    %[[BASE:.*]] = llvm.load %[[ARGS]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT:    %[[LD_SLOT:.*]] = llvm.getelementptr %[[ARGS]][1] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:    %[[LD:.*]] = llvm.load %[[LD_SLOT]] : !llvm.ptr -> i64
// CHECK-NEXT:    %[[OFFSET:.*]] = arith.muli %[[BEGIN]], %[[LD]] : i64
// CHECK-NEXT:    %[[FIRST:.*]] = llvm.getelementptr %[[BASE]][%[[OFFSET]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK:         call @tree_node_k0(%[[COUNT]], %[[FIRST]], %[[LD]], {{.*}}) : (i64, !llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr, i64) -> ()
// CHECK-NEXT:    return

// CHECK-LABEL: func.func @tree_node_forward_eager(%arg0: !llvm.ptr) -> i32
// CHECK:         %[[FIELD:.*]] = llvm.getelementptr %arg0[20] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:    %[[DEVICE:.*]] = llvm.load %[[FIELD]] : !llvm.ptr -> !llvm.ptr
// CHECK:         %[[ENTRY:.*]] = llvm.getelementptr %[[DEVICE]][12] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    %[[GATHER_ROWS:.*]] = llvm.load %[[ENTRY]]
// CHECK-NEXT:    llvm.call %[[GATHER_ROWS]](%[[DEVICE]], %{{.*}}) : !llvm.ptr, (!llvm.ptr, i64, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr, i64) -> ()
// CHECK:         %[[ENTRY:.*]] = llvm.getelementptr %[[DEVICE]][6]
// CHECK-NEXT:    %[[LOOKUP:.*]] = llvm.load %[[ENTRY]]
// CHECK-NEXT:    %[[STATUS:.*]] = llvm.call %[[LOOKUP]](%[[DEVICE]], {{.*}}) -> i32
// CHECK-NEXT:    return %[[STATUS]] : i32

// CHECK-LABEL: func.func @tree_node_forward_body(%arg0: !llvm.ptr) -> i32
// CHECK-NEXT:    %[[ROWS_FORM:.*]] = constant @tree_node_k0_rows : (i64, i64, !llvm.ptr) -> ()
// The arena is stored block by block (slots that overlap share a block):
// the call's rows of block [1, 5) start at arena (field 1) + arena_rows
// (field 2) * 1 + arena_row (field 3) * 4, and lie 4 floats apart.
// CHECK:         %[[ROWS_FIELD:.*]] = llvm.getelementptr %arg0[2] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:    %[[ARENA_ROWS:.*]] = llvm.load %[[ROWS_FIELD]] : !llvm.ptr -> i64
// CHECK-NEXT:    %[[ROW_FIELD:.*]] = llvm.getelementptr %arg0[3] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:    %[[ARENA_ROW:.*]] = llvm.load %[[ROW_FIELD]] : !llvm.ptr -> i64
// CHECK-NEXT:    %[[ROW_BEGIN:.*]] = arith.muli %[[ARENA_ROW]], %c4_i64 : i64
// CHECK-NEXT:    %[[BEGIN:.*]] = arith.addi %[[ARENA_ROWS]], %[[ROW_BEGIN]] : i64
// CHECK-NEXT:    %[[ARENA_FIELD:.*]] = llvm.getelementptr %arg0[1] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:    %[[ARENA:.*]] = llvm.load %[[ARENA_FIELD]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT:    %[[BLOCK:.*]] = llvm.getelementptr %[[ARENA]][%[[BEGIN]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK:         llvm.insertvalue %c4_i64, %{{.*}}[4, 0]
// Block [5, 9) starts 5 rows of the arena in.
// CHECK:         %[[BLOCK_BEGIN:.*]] = arith.muli %[[ARENA_ROWS]], %c5_i64 : i64
// CHECK-NEXT:    %[[BEGIN:.*]] = arith.addi %[[BLOCK_BEGIN]], %[[ROW_BEGIN]] : i64
// CHECK-NEXT:    llvm.getelementptr %[[ARENA]][%[[BEGIN]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK:         %[[SLOT:.*]] = memref.subview %{{.*}}[0, 0] [%{{.*}}, 4] [1, 1] : memref<?x8xf32, strided<[?, 1], offset: ?>> to memref<?x4xf32, strided<[?, 1], offset: ?>>
// The children's rows in place or a copy: a branch, lowered in the pass.
// CHECK:         cf.cond_br %{{.*}}, ^[[VIEW:.*]], ^[[COPY:[^ ]*]]
// CHECK-NEXT:  ^[[VIEW]]:
// CHECK:         cf.br ^[[JOIN:.*]](%{{.*}} : memref<?x4xf32, strided<[?, 1], offset: ?>>)
// CHECK-NEXT:  ^[[COPY]]:
// CHECK:         llvm.getelementptr %{{.*}}[1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK:         llvm.call
// CHECK-NEXT:    cf.br ^[[JOIN]](%[[SLOT]] : memref<?x4xf32, strided<[?, 1], offset: ?>>)
// CHECK-NEXT:  ^[[JOIN]](%[[CHILD:.*]]: memref<?x4xf32, strided<[?, 1], offset: ?>>):
// CHECK:         memref.extract_strided_metadata %[[CHILD]]
// CHECK:         llvm.call %{{.*}}(%{{.*}}, %c0_i32, %c1_i32, {{.*}}) : !llvm.ptr, (!llvm.ptr, i32, i32, i64, i64, i64, f32, !llvm.ptr, i64, !llvm.ptr, i64, f32, !llvm.ptr, i64) -> ()
// The fused kernel: run_rows with its rows form, the rows, the width 4 and
// its 8 operands packed on the stack.
// CHECK:         %[[ADDRESS:.*]] = builtin.unrealized_conversion_cast %[[ROWS_FORM]] : (i64, i64, !llvm.ptr) -> () to !llvm.ptr
// CHECK-NEXT:    %[[ARGS:.*]] = llvm.alloca %c8_i64 x i64 : (i64) -> !llvm.ptr
// CHECK:         %[[RUN_ROWS_ENTRY:.*]] = llvm.getelementptr %[[TABLE:.*]][18] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    %[[RUN_ROWS:.*]] = llvm.load %[[RUN_ROWS_ENTRY]]
// CHECK-NEXT:    llvm.call %[[RUN_ROWS]](%[[TABLE]], %[[ADDRESS]], %{{.*}}, %c4_i64, %[[ARGS]], %c8_i32) : !llvm.ptr, (!llvm.ptr, !llvm.ptr, i64, i64, !llvm.ptr, i32) -> ()
// CHECK:         llvm.getelementptr %{{.*}}[2] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK:         return %{{.*}} : i32

// CHECK-LABEL: func.func @tree_node_forward_lazy(%arg0: !llvm.ptr) -> i32
// CHECK:         memref.subview %{{.*}}[0, 2] [%{{.*}}, 2] [1, 1] : memref<?x4xf32, strided<[?, 1], offset: ?>> to memref<?x2xf32, strided<[?, 1], offset: ?>>
// CHECK:         llvm.getelementptr %{{.*}}[13] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr

// On CUDA a fused op launches its kernel by number, its operands in an
// array of 8-byte values.
// CUDA-NOT:    func.func @tree_node_k0
// CUDA-LABEL:  func.func @tree_node_forward_body(%arg0: !llvm.ptr) -> i32
// CUDA:          %[[DEVICE_FIELD:.*]] = llvm.getelementptr %arg0[20]
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
