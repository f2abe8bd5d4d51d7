// Folders of the cavs dialect remove the identities that autodiff and the
// frontend produce.
// RUN: cavs-opt %s --canonicalize --split-input-file | FileCheck %s

// CHECK-LABEL: cavs.model @identities
// CHECK:      %[[X:.*]] = cavs.pull "x" : tensor<4xf32>
// CHECK-NEXT: cavs.push "add0", %[[X]]
// CHECK-NEXT: cavs.push "zero_add", %[[X]]
// CHECK-NEXT: cavs.push "sub0", %[[X]]
// CHECK-NEXT: cavs.push "mul1", %[[X]]
// CHECK-NEXT: cavs.push "one_mul", %[[X]]
// CHECK-NEXT: cavs.push "div1", %[[X]]
// CHECK-NEXT: cavs.push "negneg", %[[X]]
// CHECK-NEXT: cavs.push "sum1", %[[X]]
// CHECK-NEXT: cavs.push "concat1", %[[X]]
// CHECK-NEXT: cavs.push "slice_all", %[[X]]
cavs.model @identities {
  cavs.vertex @v arity 0 pulls {x = tensor<4xf32>} pushes {add0 = tensor<4xf32>, zero_add = tensor<4xf32>, sub0 = tensor<4xf32>, mul1 = tensor<4xf32>, one_mul = tensor<4xf32>, div1 = tensor<4xf32>, negneg = tensor<4xf32>, sum1 = tensor<4xf32>, concat1 = tensor<4xf32>, slice_all = tensor<4xf32>} {
    %x = cavs.pull "x" : tensor<4xf32>
    %zero = cavs.constant dense<0.0> : tensor<f32>
    %one = cavs.constant dense<1.0> : tensor<4xf32>
    %a = cavs.add %x, %zero : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
    %b = cavs.add %zero, %x : tensor<f32>, tensor<4xf32> -> tensor<4xf32>
    %c = cavs.sub %x, %zero : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
    %d = cavs.mul %x, %one : tensor<4xf32>
    %e = cavs.mul %one, %x : tensor<4xf32>
    %f = cavs.div %x, %one : tensor<4xf32>
    %n = cavs.neg %x : tensor<4xf32>
    %g = cavs.neg %n : tensor<4xf32>
    %h = cavs.sum %x : tensor<4xf32>
    %i = cavs.concat %x : tensor<4xf32> -> tensor<4xf32>
    %j = cavs.slice %x[0] : tensor<4xf32> -> tensor<4xf32>
    cavs.push "add0", %a : tensor<4xf32>
    cavs.push "zero_add", %b : tensor<4xf32>
    cavs.push "sub0", %c : tensor<4xf32>
    cavs.push "mul1", %d : tensor<4xf32>
    cavs.push "one_mul", %e : tensor<4xf32>
    cavs.push "div1", %f : tensor<4xf32>
    cavs.push "negneg", %g : tensor<4xf32>
    cavs.push "sum1", %h : tensor<4xf32>
    cavs.push "concat1", %i : tensor<4xf32>
    cavs.push "slice_all", %j : tensor<4xf32>
  }
}

// -----

// split(concat(a, b)) is (a, b); a slice that is one input of a concat is
// that input; 0 - x and x * 0 are not identities and stay; a scalar plus a
// zero vector still broadcasts and stays.
// CHECK-LABEL: cavs.model @views
// CHECK:      %[[A:.*]] = cavs.pull "a" : tensor<2xf32>
// CHECK-NEXT: %[[B:.*]] = cavs.pull "b" : tensor<3xf32>
// CHECK-NEXT: %[[S:.*]] = cavs.pull "s" : tensor<f32>
// CHECK:      cavs.sub
// CHECK-NEXT: cavs.mul
// CHECK-NEXT: cavs.add
// CHECK-NEXT: cavs.push "p", %[[A]]
// CHECK-NEXT: cavs.push "q", %[[B]]
// CHECK-NEXT: cavs.push "r", %[[B]]
cavs.model @views {
  cavs.vertex @v arity 0 pulls {a = tensor<2xf32>, b = tensor<3xf32>, s = tensor<f32>} pushes {p = tensor<2xf32>, q = tensor<3xf32>, r = tensor<3xf32>, t = tensor<2xf32>, u = tensor<2xf32>, w = tensor<2xf32>} {
    %a = cavs.pull "a" : tensor<2xf32>
    %b = cavs.pull "b" : tensor<3xf32>
    %s = cavs.pull "s" : tensor<f32>
    %zero = cavs.constant dense<0.0> : tensor<2xf32>
    %cat = cavs.concat %a, %b : tensor<2xf32>, tensor<3xf32> -> tensor<5xf32>
    %p, %q = cavs.split %cat : tensor<5xf32> -> tensor<2xf32>, tensor<3xf32>
    %r = cavs.slice %cat[2] : tensor<5xf32> -> tensor<3xf32>
    %t = cavs.sub %zero, %a : tensor<2xf32>
    %u = cavs.mul %a, %zero : tensor<2xf32>
    %w = cavs.add %s, %zero : tensor<f32>, tensor<2xf32> -> tensor<2xf32>
    cavs.push "p", %p : tensor<2xf32>
    cavs.push "q", %q : tensor<3xf32>
    cavs.push "r", %r : tensor<3xf32>
    cavs.push "t", %t : tensor<2xf32>
    cavs.push "u", %u : tensor<2xf32>
    cavs.push "w", %w : tensor<2xf32>
  }
}

// -----

// A pull whose value goes unused is dead code; its input stays declared.
// CHECK-LABEL: cavs.model @unread_pull
// CHECK:       cavs.vertex @v arity 0 pulls {label = i32, x = tensor<2xf32>} pushes {y = tensor<2xf32>} {
// CHECK-NEXT:    %[[X:.*]] = cavs.pull "x" : tensor<2xf32>
// CHECK-NEXT:    cavs.push "y", %[[X]]
// CHECK-NEXT:  }
cavs.model @unread_pull {
  cavs.vertex @v arity 0 pulls {label = i32, x = tensor<2xf32>} pushes {y = tensor<2xf32>} {
    %l = cavs.pull "label" : i32
    %x = cavs.pull "x" : tensor<2xf32>
    cavs.push "y", %x : tensor<2xf32>
  }
}
