// cavs-lower-fused gives each cavs.fused op its kernel: on the CPU a loop
// function `<model>_<vertex>_k<N>` (rows, then columns; a reduction is a
// value the column loop carries) and its rows form `<...>_k<N>_rows`, on
// CUDA its number in the CUDA source.
// RUN: cavs-opt %s --pass-pipeline='builtin.module(cavs-optimize{autodiff=false},cavs-lower-fused)' | FileCheck %s
// RUN: cavs-opt %s --pass-pipeline='builtin.module(cavs-optimize{autodiff=false},cavs-lower-fused{device=cuda first-kernel=5})' | FileCheck %s --check-prefix=CUDA
// RUN: not cavs-opt %s --pass-pipeline='builtin.module(cavs-lower-fused{device=tpu})' 2>&1 | FileCheck %s --check-prefix=DEVICE
// A second run is refused (it built every kernel again, failing on a
// "redefinition of symbol").
// RUN: not cavs-opt %s --pass-pipeline='builtin.module(cavs-optimize{autodiff=false},cavs-lower-fused,cavs-lower-fused)' 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not cavs-opt %s --pass-pipeline='builtin.module(cavs-optimize{autodiff=false},cavs-lower-fused{device=cuda},cavs-lower-fused)' 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: error: 'cavs.fused' op has its kernel already; cavs-lower-fused runs once
// A kernel number below 0, or past int32, is refused (they were numbered
// -5, -4, ... and wrapped around).
// RUN: not cavs-opt %s --pass-pipeline='builtin.module(cavs-lower-fused{device=cuda first-kernel=-5})' 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: cavs-lower-fused: first-kernel must be a kernel number (0 or more), got -5
// RUN: not cavs-opt %s --pass-pipeline='builtin.module(cavs-optimize{autodiff=false},cavs-lower-fused{device=cuda first-kernel=2147483647})' 2>&1 | FileCheck %s --check-prefix=PAST
// PAST: error: 'cavs.fused' op needs kernel number 2147483648, past int32 (first-kernel 2147483647)

// CHECK:       cavs.fused({{.*}}) {{{.*}}cavs.kernel = @m_v_k0
// CHECK:       cavs.fused({{.*}}) {{{.*}}cavs.kernel = @m_v_k1
// CHECK-LABEL: func.func @m_v_k0(%arg0: i64, %arg1: !llvm.ptr {llvm.noalias}, %arg2: i64, %arg3: !llvm.ptr {llvm.noalias}, %arg4: i64)
// CHECK:         scf.for %[[ROW:.*]] = %c0 to %{{.*}} step %c1 {
// CHECK:           scf.for %[[COL:.*]] = %c0 to %c4 step %c1 {
// CHECK:             math.tanh
// CHECK:             llvm.store
// CHECK-LABEL: func.func @m_v_k0_rows(%{{.*}}: i64, %{{.*}}: i64, %{{.*}}: !llvm.ptr)
// CHECK:         call @m_v_k0(
// CHECK-LABEL: func.func @m_v_k1(
// CHECK:         %[[SUM:.*]] = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %cst) -> (f32) {
// CHECK:           arith.addf %[[ACC]]
// CHECK:         llvm.store %[[SUM]]

// CUDA-NOT:    func.func
// CUDA:        cavs.kernel = 5 : i32
// CUDA:        cavs.kernel = 6 : i32

// DEVICE: error: unknown device 'tpu' (cpu or cuda)
cavs.model @m state tensor<4xf32> {
  cavs.vertex @v arity 1 pulls {} pushes {} {
    %c = cavs.gather 0 : tensor<4xf32>
    %h = cavs.tanh %c : tensor<4xf32>
    cavs.scatter %h : tensor<4xf32>
    %s = cavs.reduce_sum %h : tensor<4xf32>
    cavs.loss %s : tensor<f32>
  }
}
