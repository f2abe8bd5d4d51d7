// The arena is stored block by block (dialects/ArenaLayout.h): here x, y
// and s share columns [0, 256) over their lifetimes and a has [256, 512),
// so there are two blocks of 256 columns. A block's rows are a stride
// apart: its width, one cache line more when that is a multiple of 1 KiB
// (272 floats, not 256), and cavs-plan-memory sizes the arena for the
// blocks: 544 floats a vertex for 512 columns.
// RUN: cavs-opt %s --pass-pipeline='builtin.module(cavs-optimize{autodiff=false})' | FileCheck %s --check-prefix=PLAN
// RUN: cavs-opt %s --pass-pipeline='builtin.module(cavs-optimize{autodiff=false},cavs-lower-fused,cavs.model(cavs-outline-phases),cavs-lower-to-runtime,canonicalize,cse)' | FileCheck %s

// PLAN: cavs.vertex @leaf {{.*}}cavs.arena_floats = 544 : i64

// Block 0 of the call's rows: arena (field 1) + arena_row (field 3) * 272;
// block 1 starts arena_rows (field 2) * 272 floats further.
// CHECK-LABEL: func.func @m_leaf_forward_eager(%arg0: !llvm.ptr) -> i32
// CHECK:         %[[ROWS_FIELD:.*]] = llvm.getelementptr %arg0[2] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:    %[[ARENA_ROWS:.*]] = llvm.load %[[ROWS_FIELD]] : !llvm.ptr -> i64
// CHECK-NEXT:    %[[ROW_FIELD:.*]] = llvm.getelementptr %arg0[3] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:    %[[ARENA_ROW:.*]] = llvm.load %[[ROW_FIELD]] : !llvm.ptr -> i64
// CHECK-NEXT:    %[[ROW_BEGIN:.*]] = arith.muli %[[ARENA_ROW]], %c272_i64 : i64
// CHECK-NEXT:    %[[ARENA_FIELD:.*]] = llvm.getelementptr %arg0[1] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:    %[[ARENA:.*]] = llvm.load %[[ARENA_FIELD]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT:    llvm.getelementptr %[[ARENA]][%[[ROW_BEGIN]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK:         llvm.insertvalue %c272_i64, %{{.*}}[4, 0]
// CHECK:         %[[BLOCK_BEGIN:.*]] = arith.muli %[[ARENA_ROWS]], %c272_i64 : i64
// CHECK-NEXT:    %[[BEGIN:.*]] = arith.addi %[[BLOCK_BEGIN]], %[[ROW_BEGIN]] : i64
// CHECK-NEXT:    llvm.getelementptr %[[ARENA]][%[[BEGIN]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK:         llvm.insertvalue %c272_i64, %{{.*}}[4, 0]
cavs.model @m state tensor<4xf32> {
  cavs.vertex @leaf arity 0 pulls {x = tensor<256xf32>, y = tensor<20xf32>, s = tensor<4xf32>} pushes {a = tensor<256xf32>, b = tensor<20xf32>} {
    %x = cavs.pull "x" : tensor<256xf32>
    %a = cavs.tanh %x : tensor<256xf32>
    cavs.push "a", %a : tensor<256xf32>
    %y = cavs.pull "y" : tensor<20xf32>
    %b = cavs.tanh %y : tensor<20xf32>
    cavs.push "b", %b : tensor<20xf32>
    %s = cavs.pull "s" : tensor<4xf32>
    cavs.scatter %s : tensor<4xf32>
  }
}
