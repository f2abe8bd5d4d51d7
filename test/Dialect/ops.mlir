// Round trip of every cavs op, also through the generic form.
// RUN: cavs-opt %s | cavs-opt | FileCheck %s
// RUN: cavs-opt %s --mlir-print-op-generic | cavs-opt | FileCheck %s

// CHECK-LABEL: cavs.model @treelstm state tensor<8xf32> {
// CHECK: cavs.param @embed : tensor<100x6xf32> init uniform(-5.000000e-02, 5.000000e-02)
// CHECK: cavs.param @W : tensor<12x6xf32> init xavier
// CHECK: cavs.param @U : tensor<12x4xf32> init constant(2.500000e-01)
// CHECK: cavs.param @b : tensor<12xf32> init zeros
// CHECK: cavs.param @Wo : tensor<5x4xf32> init normal(0.000000e+00, 1.000000e-01)
// CHECK: cavs.param @bo : tensor<5xf32> init ones
// CHECK: cavs.vertex @cell arity 2 pulls {label = i32, word = i32, x = tensor<3xf32>} pushes {h = tensor<4xf32>, p = tensor<5xf32>} {
// CHECK:   %[[W:.*]] = cavs.pull "word" : i32
// CHECK:   %[[L:.*]] = cavs.pull "label" : i32
// CHECK:   %[[X:.*]] = cavs.pull "x" : tensor<3xf32>
// CHECK:   %[[E:.*]] = cavs.param_ref @embed : tensor<100x6xf32>
// CHECK:   %[[EMB:.*]] = cavs.lookup %[[E]][%[[W]]] : tensor<100x6xf32>, i32 -> tensor<6xf32>
// CHECK:   %[[S0:.*]] = cavs.gather 0 : tensor<8xf32>
// CHECK:   %[[S1:.*]] = cavs.gather 1 : tensor<8xf32>
// CHECK:   %[[C0:.*]]:2 = cavs.split %[[S0]] : tensor<8xf32> -> tensor<4xf32>, tensor<4xf32>
// CHECK:   %[[C1:.*]]:2 = cavs.split %[[S1]] : tensor<8xf32> -> tensor<4xf32>, tensor<4xf32>
// CHECK:   %[[HS:.*]] = cavs.sum %[[C0]]#1, %[[C1]]#1 : tensor<4xf32>
// CHECK:   %[[A:.*]] = cavs.matmul %{{.*}}, %[[EMB]] : tensor<12x6xf32>, tensor<6xf32> -> tensor<12xf32>
// CHECK:   %[[AT:.*]] = cavs.matmul %{{.*}}, %[[A]] {transpose_lhs} : tensor<12x6xf32>, tensor<12xf32> -> tensor<6xf32>
// CHECK:   cavs.add %{{.*}}, %{{.*}} : tensor<12xf32>
// CHECK:   cavs.sub %{{.*}}, %{{.*}} : tensor<12xf32>
// CHECK:   cavs.div %{{.*}}, %{{.*}} : tensor<12xf32>, tensor<f32> -> tensor<12xf32>
// CHECK:   cavs.mul %{{.*}}, %{{.*}} : tensor<f32>, tensor<12xf32> -> tensor<12xf32>
// CHECK:   %[[TWO:.*]] = cavs.constant dense<2.000000e+00> : tensor<f32>
// CHECK:   cavs.neg %{{.*}} : tensor<4xf32>
// CHECK:   cavs.sigmoid %{{.*}} : tensor<4xf32>
// CHECK:   cavs.tanh %{{.*}} : tensor<4xf32>
// CHECK:   cavs.relu %{{.*}} : tensor<4xf32>
// CHECK:   cavs.exp %{{.*}} : tensor<4xf32>
// CHECK:   cavs.log %{{.*}} : tensor<4xf32>
// CHECK:   %[[ST:.*]] = cavs.concat %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32> -> tensor<8xf32>
// CHECK:   cavs.scatter %[[ST]] : tensor<8xf32>
// CHECK:   cavs.push "h", %{{.*}} : tensor<4xf32>
// CHECK:   cavs.softmax %{{.*}} : tensor<5xf32>
// CHECK:   cavs.slice %{{.*}}[1] : tensor<5xf32> -> tensor<2xf32>
// CHECK:   %[[LOSS:.*]] = cavs.softmax_cross_entropy %{{.*}}, %[[L]] : tensor<5xf32>, i32
// CHECK:   cavs.loss %[[LOSS]] : tensor<f32>
// CHECK: cavs.vertex @leaf arity 0 pulls {x = tensor<3xf32>} pushes {}
cavs.model @treelstm state tensor<8xf32> {
  cavs.param @embed : tensor<100x6xf32> init uniform(-0.05, 0.05)
  cavs.param @W : tensor<12x6xf32> init xavier
  cavs.param @U : tensor<12x4xf32> init constant(0.25)
  cavs.param @b : tensor<12xf32> init zeros
  cavs.param @Wo : tensor<5x4xf32> init normal(0.0, 0.1)
  cavs.param @bo : tensor<5xf32> init ones
  cavs.vertex @cell arity 2 pulls {word = i32, label = i32, x = tensor<3xf32>} pushes {h = tensor<4xf32>, p = tensor<5xf32>} {
    %w = cavs.pull "word" : i32
    %l = cavs.pull "label" : i32
    %xin = cavs.pull "x" : tensor<3xf32>
    %E = cavs.param_ref @embed : tensor<100x6xf32>
    %x = cavs.lookup %E[%w] : tensor<100x6xf32>, i32 -> tensor<6xf32>
    %s0 = cavs.gather 0 : tensor<8xf32>
    %s1 = cavs.gather 1 : tensor<8xf32>
    %c0, %h0 = cavs.split %s0 : tensor<8xf32> -> tensor<4xf32>, tensor<4xf32>
    %c1, %h1 = cavs.split %s1 : tensor<8xf32> -> tensor<4xf32>, tensor<4xf32>
    %hs = cavs.sum %h0, %h1 : tensor<4xf32>
    %W = cavs.param_ref @W : tensor<12x6xf32>
    %U = cavs.param_ref @U : tensor<12x4xf32>
    %b = cavs.param_ref @b : tensor<12xf32>
    %a = cavs.matmul %W, %x : tensor<12x6xf32>, tensor<6xf32> -> tensor<12xf32>
    %at = cavs.matmul %W, %a {transpose_lhs} : tensor<12x6xf32>, tensor<12xf32> -> tensor<6xf32>
    %u = cavs.matmul %U, %hs : tensor<12x4xf32>, tensor<4xf32> -> tensor<12xf32>
    %z = cavs.add %a, %u : tensor<12xf32>
    %z1 = cavs.sub %z, %b : tensor<12xf32>
    %half = cavs.constant dense<0.5> : tensor<f32>
    %z2 = cavs.div %z1, %half : tensor<12xf32>, tensor<f32> -> tensor<12xf32>
    %z3 = cavs.mul %half, %z2 : tensor<f32>, tensor<12xf32> -> tensor<12xf32>
    %i, %o, %g = cavs.split %z3 : tensor<12xf32> -> tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
    %two = cavs.constant dense<2.0> : tensor<f32>
    %n = cavs.neg %i : tensor<4xf32>
    %si = cavs.sigmoid %n : tensor<4xf32>
    %tg = cavs.tanh %g : tensor<4xf32>
    %r = cavs.relu %o : tensor<4xf32>
    %e = cavs.exp %r : tensor<4xf32>
    %lg0 = cavs.log %e : tensor<4xf32>
    %c = cavs.mul %si, %tg : tensor<4xf32>
    %st = cavs.concat %c, %lg0 : tensor<4xf32>, tensor<4xf32> -> tensor<8xf32>
    cavs.scatter %st : tensor<8xf32>
    cavs.push "h", %c : tensor<4xf32>
    %Wo = cavs.param_ref @Wo : tensor<5x4xf32>
    %lg = cavs.matmul %Wo, %c : tensor<5x4xf32>, tensor<4xf32> -> tensor<5xf32>
    %p = cavs.softmax %lg : tensor<5xf32>
    cavs.push "p", %p : tensor<5xf32>
    %sl = cavs.slice %lg[1] : tensor<5xf32> -> tensor<2xf32>
    %loss = cavs.softmax_cross_entropy %lg, %l : tensor<5xf32>, i32
    cavs.loss %loss : tensor<f32>
  }
  cavs.vertex @leaf arity 0 pulls {x = tensor<3xf32>} pushes {} {
    %x = cavs.pull "x" : tensor<3xf32>
    %s = cavs.concat %x, %x, %x : tensor<3xf32>, tensor<3xf32>, tensor<3xf32> -> tensor<9xf32>
    %t = cavs.slice %s[1] : tensor<9xf32> -> tensor<8xf32>
    cavs.scatter %t : tensor<8xf32>
  }
}

// CHECK-LABEL: cavs.model @stateless {
// CHECK: cavs.vertex @f arity 0 pulls {} pushes {} {
// CHECK-NEXT: }
cavs.model @stateless {
  cavs.vertex @f arity 0 pulls {} pushes {} {
  }
}

// A declared input the body does not read (its unused pull was erased) is
// still part of the interface.
// CHECK-LABEL: cavs.model @unread_input {
// CHECK: cavs.vertex @f arity 0 pulls {label = i32} pushes {} {
// CHECK-NEXT: }
cavs.model @unread_input {
  cavs.vertex @f arity 0 pulls {label = i32} pushes {} {
  }
}

// CHECK-LABEL: cavs.model @packed
// CHECK: cavs.param_pack @P : tensor<5x3xf32> = [@A, @B]
// CHECK: %[[P:.*]] = cavs.param_ref @P : tensor<5x3xf32>
// CHECK: %{{.*}}:2 = cavs.split %{{.*}} : tensor<5xf32> -> tensor<2xf32>, tensor<3xf32>
// CHECK: %[[F:.*]] = cavs.fused(%{{.*}}, %{{.*}}) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32> {
// CHECK: ^bb0(%[[A:.*]]: tensor<3xf32>, %[[S:.*]]: tensor<f32>):
// CHECK:   %[[T:.*]] = cavs.tanh %[[A]] : tensor<3xf32>
// CHECK:   %[[M:.*]] = cavs.mul %[[T]], %[[S]] : tensor<3xf32>, tensor<f32> -> tensor<3xf32>
// CHECK:   cavs.yield %[[M]] : tensor<3xf32>
// CHECK: }
cavs.model @packed {
  cavs.param @A : tensor<2x3xf32> init xavier
  cavs.param @B : tensor<3x3xf32> init xavier
  cavs.param_pack @P : tensor<5x3xf32> = [@A, @B]
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>, s = tensor<f32>} pushes {y = tensor<3xf32>} {
    %x = cavs.pull "x" : tensor<3xf32>
    %s = cavs.pull "s" : tensor<f32>
    %P = cavs.param_ref @P : tensor<5x3xf32>
    %y = cavs.matmul %P, %x : tensor<5x3xf32>, tensor<3xf32> -> tensor<5xf32>
    %a, %b = cavs.split %y : tensor<5xf32> -> tensor<2xf32>, tensor<3xf32>
    %f = cavs.fused (%b, %s) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32> {
    ^bb0(%u: tensor<3xf32>, %v: tensor<f32>):
      %t = cavs.tanh %u : tensor<3xf32>
      %m = cavs.mul %t, %v : tensor<3xf32>, tensor<f32> -> tensor<3xf32>
      cavs.yield %m : tensor<3xf32>
    }
    cavs.push "y", %f : tensor<3xf32>
  }
}

// Scalars out of vectors and back: reductions, elements, concat of scalars,
// softplus, and a kernel that ends in reductions.
// CHECK-LABEL: cavs.model @scalars
// CHECK: %[[E:.*]] = cavs.slice %{{.*}}[2] : tensor<4xf32> -> tensor<f32>
// CHECK: %[[S:.*]] = cavs.reduce_sum %{{.*}} : tensor<4xf32>
// CHECK: %[[M:.*]] = cavs.reduce_max %{{.*}} : tensor<4xf32>
// CHECK: cavs.softplus %{{.*}} : tensor<4xf32>
// CHECK: cavs.sqrt %{{.*}} : tensor<4xf32>
// CHECK: cavs.concat %[[E]], %[[S]], %[[M]] : tensor<f32>, tensor<f32>, tensor<f32> -> tensor<3xf32>
// CHECK: %{{.*}}:2 = cavs.fused(%{{.*}}) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<f32>) {
// CHECK:   %[[T:.*]] = cavs.tanh %{{.*}} : tensor<4xf32>
// CHECK:   %[[R:.*]] = cavs.reduce_max %[[T]] : tensor<4xf32>
// CHECK:   cavs.yield %[[T]], %[[R]] : tensor<4xf32>, tensor<f32>
// CHECK: cavs.backward {
// CHECK:   cavs.equal %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
// CHECK:   cavs.pad %{{.*}}[2] : tensor<f32> -> tensor<4xf32>
cavs.model @scalars {
  cavs.vertex @v arity 0 pulls {x = tensor<4xf32>} pushes {c = tensor<3xf32>, t = tensor<4xf32>, m = tensor<f32>} {
    %x = cavs.pull "x" : tensor<4xf32>
    %e = cavs.slice %x[2] : tensor<4xf32> -> tensor<f32>
    %s = cavs.reduce_sum %x : tensor<4xf32>
    %m = cavs.reduce_max %x : tensor<4xf32>
    %p0 = cavs.softplus %x : tensor<4xf32>
    %p = cavs.sqrt %p0 : tensor<4xf32>
    %c = cavs.concat %e, %s, %m : tensor<f32>, tensor<f32>, tensor<f32> -> tensor<3xf32>
    cavs.push "c", %c : tensor<3xf32>
    %k:2 = cavs.fused (%p) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<f32>) {
    ^bb0(%a: tensor<4xf32>):
      %t = cavs.tanh %a : tensor<4xf32>
      %r = cavs.reduce_max %t : tensor<4xf32>
      cavs.yield %t, %r : tensor<4xf32>, tensor<f32>
    }
    cavs.push "t", %k#0 : tensor<4xf32>
    cavs.push "m", %k#1 : tensor<f32>
    cavs.backward {
      %eq = cavs.equal %x, %m : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
      %d = cavs.pad %e[2] : tensor<f32> -> tensor<4xf32>
      %g = cavs.add %eq, %d : tensor<4xf32>
      cavs.pull_grad "x", %g : tensor<4xf32>
    }
  }
}
