// cavs-plan-memory gives each per-vertex value columns in the arena or the
// task scratch, sharing columns between values that are never live at once.
// RUN: cavs-opt %s --cavs-plan-memory --split-input-file | FileCheck %s

// Execution order: x, W, wx (eager) | s, a, t, scatter (body) | split, push
// (lazy). x dies at wx, so t reuses its columns; s and a live within a task
// (scratch); wx feeds the body phase and lives through it; the split parts
// are views of t.
// CHECK-LABEL: cavs.model @simple
// CHECK:      cavs.vertex @v {{.*}} attributes {cavs.arena_floats = 8 : i64, cavs.scratch_floats = 8 : i64}
// CHECK:      cavs.pull "x" {{{.*}}cavs.slots = [#cavs.slot<arena, 0, 4>]}
// CHECK-NEXT: cavs.param_ref @W {cavs.batching = #cavs.batching<eager>}
// CHECK-NEXT: cavs.matmul {{.*}}cavs.slots = [#cavs.slot<arena, 4, 4>]}
// CHECK-NEXT: cavs.gather 0 {{{.*}}cavs.slots = [#cavs.slot<scratch, 0, 4>]}
// CHECK-NEXT: cavs.add {{.*}}cavs.slots = [#cavs.slot<scratch, 4, 4>]}
// CHECK-NEXT: cavs.tanh {{.*}}cavs.slots = [#cavs.slot<arena, 0, 4>]}
// CHECK-NEXT: cavs.scatter {{.*}} {cavs.batching = #cavs.batching<body>}
// CHECK-NEXT: cavs.split {{.*}}cavs.slots = [#cavs.slot<arena, 0, 2>, #cavs.slot<arena, 2, 2>]}
cavs.model @simple state tensor<4xf32> {
  cavs.param @W : tensor<4x4xf32> init xavier
  cavs.vertex @v arity 1 pulls {x = tensor<4xf32>} pushes {y = tensor<2xf32>} {
    %x = cavs.pull "x" {cavs.batching = #cavs.batching<eager>} : tensor<4xf32>
    %W = cavs.param_ref @W {cavs.batching = #cavs.batching<eager>} : tensor<4x4xf32>
    %wx = cavs.matmul %W, %x {cavs.batching = #cavs.batching<eager>} : tensor<4x4xf32>, tensor<4xf32> -> tensor<4xf32>
    %s = cavs.gather 0 {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    %a = cavs.add %wx, %s {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    %t = cavs.tanh %a {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    cavs.scatter %t {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    %p:2 = cavs.split %t {cavs.batching = #cavs.batching<lazy>} : tensor<4xf32> -> tensor<2xf32>, tensor<2xf32>
    cavs.push "y", %p#1 {cavs.batching = #cavs.batching<lazy>} : tensor<2xf32>
  }
}

// -----

// A body value that ∂F reads lives in the arena until backward; a body
// value of ∂F used only within the task goes to the scratch; an eager value
// of ∂F that the body phase reads lives through that phase.
// CHECK-LABEL: cavs.model @saved
// CHECK:      attributes {cavs.arena_floats = 6 : i64, cavs.scratch_floats = 4 : i64}
// CHECK:      cavs.gather 0 {{{.*}}cavs.slots = [#cavs.slot<arena, 0, 2>]}
// CHECK-NEXT: cavs.tanh {{.*}}cavs.slots = [#cavs.slot<arena, 2, 2>]}
// CHECK:      cavs.backward {
// CHECK-NEXT:   cavs.mul {{.*}}cavs.slots = [#cavs.slot<arena, 4, 2>]}
// CHECK-NEXT:   cavs.state_grad {{{.*}}cavs.slots = [#cavs.slot<scratch, 0, 2>]}
// CHECK-NEXT:   cavs.mul {{.*}}cavs.slots = [#cavs.slot<scratch, 2, 2>]}
// CHECK-NEXT:   cavs.child_grad
cavs.model @saved state tensor<2xf32> {
  cavs.vertex @v arity 1 pulls {} pushes {} {
    %s = cavs.gather 0 {cavs.batching = #cavs.batching<body>} : tensor<2xf32>
    %t = cavs.tanh %s {cavs.batching = #cavs.batching<body>} : tensor<2xf32>
    cavs.scatter %t {cavs.batching = #cavs.batching<body>} : tensor<2xf32>
    cavs.backward {
      %k = cavs.mul %t, %s {cavs.batching = #cavs.batching<eager>} : tensor<2xf32>
      %g = cavs.state_grad {cavs.batching = #cavs.batching<body>} : tensor<2xf32>
      %m = cavs.mul %g, %k {cavs.batching = #cavs.batching<body>} : tensor<2xf32>
      cavs.child_grad 0, %m {cavs.batching = #cavs.batching<body>} : tensor<2xf32>
    }
  }
}

// -----

// Parts of a parameter are read in place and take no slot, however deeply
// sliced; an element of a per-vertex vector is a one-column view.
// CHECK-LABEL: cavs.model @parts
// CHECK:      attributes {cavs.arena_floats = 4 : i64, cavs.scratch_floats = 0 : i64}
// CHECK:      cavs.split %{{.*}} {cavs.batching = #cavs.batching<eager>} : tensor<4xf32> -> tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: cavs.slice %{{.*}}[1] {cavs.batching = #cavs.batching<eager>} : tensor<2xf32> -> tensor<f32>
// CHECK-NEXT: cavs.pull "x" {{{.*}}cavs.slots = [#cavs.slot<arena, 0, 3>]}
// CHECK-NEXT: cavs.slice %{{.*}}[2] {{{.*}}cavs.slots = [#cavs.slot<arena, 2, 1>]}
// CHECK-NEXT: cavs.mul {{.*}}cavs.slots = [#cavs.slot<arena, 3, 1>]}
cavs.model @parts {
  cavs.param @b : tensor<4xf32> init zeros
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>} pushes {y = tensor<f32>} {
    %b = cavs.param_ref @b {cavs.batching = #cavs.batching<eager>} : tensor<4xf32>
    %h:2 = cavs.split %b {cavs.batching = #cavs.batching<eager>} : tensor<4xf32> -> tensor<2xf32>, tensor<2xf32>
    %e = cavs.slice %h#1[1] {cavs.batching = #cavs.batching<eager>} : tensor<2xf32> -> tensor<f32>
    %x = cavs.pull "x" {cavs.batching = #cavs.batching<eager>} : tensor<3xf32>
    %x2 = cavs.slice %x[2] {cavs.batching = #cavs.batching<eager>} : tensor<3xf32> -> tensor<f32>
    %y = cavs.mul %x2, %e {cavs.batching = #cavs.batching<eager>} : tensor<f32>
    cavs.push "y", %y {cavs.batching = #cavs.batching<eager>} : tensor<f32>
  }
}

// -----

// Inputs of a concat that an op of its block computes (kernels, products,
// inner concats) are placed in the concat's columns, so the concat copies
// nothing for them; a gathered input keeps a slot of its own (a gather may
// read the state in place and write nothing). The concat of a concat ends
// in the outer one's slot.
// CHECK-LABEL: cavs.model @concat_in_place
// CHECK:      attributes {cavs.arena_floats = 0 : i64, cavs.scratch_floats = 10 : i64}
// CHECK:      cavs.gather 0 {{{.*}}cavs.slots = [#cavs.slot<scratch, 0, 4>]}
// CHECK-NEXT: cavs.split {{.*}}cavs.slots = [#cavs.slot<scratch, 0, 2>, #cavs.slot<scratch, 2, 2>]}
// CHECK-NEXT: cavs.tanh {{.*}}cavs.slots = [#cavs.slot<scratch, 4, 2>]}
// CHECK-NEXT: cavs.sigmoid {{.*}}cavs.slots = [#cavs.slot<scratch, 6, 2>]}
// CHECK-NEXT: cavs.concat {{.*}}cavs.slots = [#cavs.slot<scratch, 4, 4>]}
// CHECK-NEXT: cavs.concat {{.*}}cavs.slots = [#cavs.slot<scratch, 4, 6>]}
cavs.model @concat_in_place state tensor<4xf32> {
  cavs.vertex @v arity 1 pulls {} pushes {y = tensor<6xf32>} {
    %s = cavs.gather 0 {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    %p:2 = cavs.split %s {cavs.batching = #cavs.batching<body>} : tensor<4xf32> -> tensor<2xf32>, tensor<2xf32>
    %a = cavs.tanh %p#0 {cavs.batching = #cavs.batching<body>} : tensor<2xf32>
    %b = cavs.sigmoid %p#1 {cavs.batching = #cavs.batching<body>} : tensor<2xf32>
    %ab = cavs.concat %a, %b {cavs.batching = #cavs.batching<body>} : tensor<2xf32>, tensor<2xf32> -> tensor<4xf32>
    %abs = cavs.concat %ab, %p#0 {cavs.batching = #cavs.batching<body>} : tensor<4xf32>, tensor<2xf32> -> tensor<6xf32>
    cavs.scatter %ab {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    cavs.push "y", %abs {cavs.batching = #cavs.batching<body>} : tensor<6xf32>
  }
}

// -----

// A slot of whole cache lines (16 floats) starts on one, so the kernels'
// vector loads and stores over it do not straddle two lines: t skips the
// columns after x, and a slot of another size (z) packs into the gap left.
// The arena's width is then a multiple of 16 too, so every row's slots
// stay aligned.
// CHECK-LABEL: cavs.model @aligned
// CHECK:      attributes {cavs.arena_floats = 48 : i64, cavs.scratch_floats = 32 : i64}
// CHECK:      cavs.pull "x" {{{.*}}cavs.slots = [#cavs.slot<arena, 0, 3>]}
// CHECK-NEXT: cavs.gather 0 {{{.*}}cavs.slots = [#cavs.slot<scratch, 0, 32>]}
// CHECK-NEXT: cavs.tanh {{.*}}cavs.slots = [#cavs.slot<arena, 16, 32>]}
// CHECK-NEXT: cavs.scatter
// CHECK-NEXT: cavs.tanh {{.*}}cavs.slots = [#cavs.slot<arena, 3, 3>]}
cavs.model @aligned state tensor<32xf32> {
  cavs.vertex @v arity 1 pulls {x = tensor<3xf32>} pushes {t = tensor<32xf32>, z = tensor<3xf32>} {
    %x = cavs.pull "x" {cavs.batching = #cavs.batching<eager>} : tensor<3xf32>
    %s = cavs.gather 0 {cavs.batching = #cavs.batching<body>} : tensor<32xf32>
    %t = cavs.tanh %s {cavs.batching = #cavs.batching<body>} : tensor<32xf32>
    cavs.scatter %t {cavs.batching = #cavs.batching<body>} : tensor<32xf32>
    %z = cavs.tanh %x {cavs.batching = #cavs.batching<lazy>} : tensor<3xf32>
    cavs.push "t", %t {cavs.batching = #cavs.batching<lazy>} : tensor<32xf32>
    cavs.push "z", %z {cavs.batching = #cavs.batching<lazy>} : tensor<3xf32>
  }
}

// -----

// The value F scatters is computed in the vertices' state rows (a state
// slot; the lowering then copies nothing) when every phase that defines or
// reads it sees those rows at one stride: any phase for arity 0 (its
// vertices' rows are consecutive), the body phases otherwise (a task's rows
// are). Not when a whole-type phase of an inner vertex reads it (@simple's
// lazy push), nor for a gathered value, which may be a view of the
// children's rows.
// CHECK-LABEL: cavs.model @scatter_in_state
// CHECK:      cavs.vertex @leaf {{.*}} attributes {cavs.arena_floats = 4 : i64, cavs.scratch_floats = 0 : i64}
// CHECK:      cavs.tanh {{.*}}cavs.slots = [#cavs.slot<state, 0, 4>]}
// CHECK:      cavs.vertex @node
// CHECK:      cavs.tanh {{.*}}cavs.slots = [#cavs.slot<state, 0, 4>]}
// CHECK:      cavs.backward {
// CHECK:        cavs.mul {{.*}}cavs.slots = [#cavs.slot<scratch,
// CHECK:      cavs.vertex @relay
// CHECK:      cavs.gather 0 {{{.*}}cavs.slots = [#cavs.slot<scratch, 0, 4>]}
cavs.model @scatter_in_state state tensor<4xf32> {
  cavs.vertex @leaf arity 0 pulls {x = tensor<4xf32>} pushes {y = tensor<4xf32>} {
    %x = cavs.pull "x" {cavs.batching = #cavs.batching<eager>} : tensor<4xf32>
    %t = cavs.tanh %x {cavs.batching = #cavs.batching<eager>} : tensor<4xf32>
    cavs.scatter %t {cavs.batching = #cavs.batching<eager>} : tensor<4xf32>
    cavs.push "y", %t {cavs.batching = #cavs.batching<lazy>} : tensor<4xf32>
  }
  cavs.vertex @node arity 1 pulls {} pushes {} {
    %s = cavs.gather 0 {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    %a = cavs.tanh %s {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    cavs.scatter %a {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    cavs.backward {
      %g = cavs.state_grad {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
      %m = cavs.mul %g, %a {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
      cavs.child_grad 0, %m {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    }
  }
  cavs.vertex @relay arity 1 pulls {} pushes {} {
    %s = cavs.gather 0 {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
    cavs.scatter %s {cavs.batching = #cavs.batching<body>} : tensor<4xf32>
  }
}

// -----

// A product's vector that is a parameter, or a part of one, has no slot
// (it is read in place, leading dimension 0, which a gemm refuses): an
// identity kernel of the product's class copies it into one, in F and in
// the weight gradient of dF alike.
// CHECK-LABEL: cavs.model @product_of_parameters
// CHECK:      %[[B:.*]] = cavs.param_ref @b
// CHECK:      %[[COPY:.*]] = cavs.fused(%[[B]]) {cavs.batching = #cavs.batching<body>, cavs.slots = [#cavs.slot<{{arena|scratch}}, {{[0-9]+}}, 3>]}
// CHECK-NEXT: ^bb0(%[[ARG:.*]]: tensor<3xf32>):
// CHECK-NEXT:   cavs.yield %[[ARG]] : tensor<3xf32>
// CHECK:      cavs.matmul %{{.*}}, %[[COPY]]
// CHECK:      %[[PART:.*]] = cavs.fused(%{{.*}}) {cavs.batching = #cavs.batching<eager>
// CHECK:      cavs.matmul %{{.*}}, %[[PART]]
// CHECK:      cavs.backward
// CHECK:      %[[COPY2:.*]] = cavs.fused(%[[B]]) {cavs.batching = #cavs.batching<lazy>
// CHECK:      cavs.param_grad_outer @W, %{{.*}}, %[[COPY2]]
cavs.model @product_of_parameters {
  cavs.param @W : tensor<2x3xf32> init xavier
  cavs.param @b : tensor<3xf32> init zeros
  cavs.param @c : tensor<6xf32> init zeros
  cavs.vertex @v arity 0 pulls {} pushes {y = tensor<2xf32>, z = tensor<2xf32>} {
    %b = cavs.param_ref @b {cavs.batching = #cavs.batching<eager>} : tensor<3xf32>
    %w = cavs.param_ref @W {cavs.batching = #cavs.batching<eager>} : tensor<2x3xf32>
    %y = cavs.matmul %w, %b {cavs.batching = #cavs.batching<body>} : tensor<2x3xf32>, tensor<3xf32> -> tensor<2xf32>
    cavs.push "y", %y {cavs.batching = #cavs.batching<body>} : tensor<2xf32>
    %c = cavs.param_ref @c {cavs.batching = #cavs.batching<eager>} : tensor<6xf32>
    %c0, %c1 = cavs.split %c {cavs.batching = #cavs.batching<eager>} : tensor<6xf32> -> tensor<3xf32>, tensor<3xf32>
    %z = cavs.matmul %w, %c1 {cavs.batching = #cavs.batching<eager>} : tensor<2x3xf32>, tensor<3xf32> -> tensor<2xf32>
    cavs.push "z", %z {cavs.batching = #cavs.batching<eager>} : tensor<2xf32>
    cavs.backward {
      %g = cavs.push_grad "y" {cavs.batching = #cavs.batching<lazy>} : tensor<2xf32>
      cavs.param_grad_outer @W, %g, %b {cavs.batching = #cavs.batching<lazy>} : tensor<2xf32>, tensor<3xf32>
    }
  }
}
