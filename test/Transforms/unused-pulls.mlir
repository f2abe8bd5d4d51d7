// Every pass keeps a vertex function with unused pulls valid: the pulls stay
// declared whether their ops survive (a pass may erase an unused, pure pull)
// or were erased before. cavs-opt verifies what each pass produces.
// RUN: cavs-opt %s --cse | FileCheck %s
// RUN: cavs-opt %s --canonicalize | FileCheck %s
// RUN: cavs-opt %s --cavs-merge-matmuls | FileCheck %s
// RUN: cavs-opt %s --cavs-autodiff | FileCheck %s
// RUN: cavs-opt %s --cavs-classify | FileCheck %s
// RUN: cavs-opt %s --cavs-classify --cavs-fuse-elementwise | FileCheck %s
// RUN: cavs-opt %s --cavs-classify --cavs-plan-memory | FileCheck %s

// CHECK-LABEL: cavs.model @m
// CHECK: cavs.vertex @leaf arity 0 pulls {label = i32, unread = tensor<2xf32>, word = i32, x = tensor<3xf32>} pushes {}
// CHECK: cavs.vertex @node arity 2 pulls {label = i32} pushes {}
cavs.model @m state tensor<3xf32> {
  cavs.param @embed : tensor<10x3xf32> init xavier
  cavs.param @W : tensor<3x3xf32> init xavier
  cavs.param @U : tensor<3x3xf32> init xavier
  // 'label' and 'x' are pulled but unused; 'unread' has no pull at all.
  cavs.vertex @leaf arity 0 pulls {label = i32, unread = tensor<2xf32>, word = i32, x = tensor<3xf32>} pushes {} {
    %w = cavs.pull "word" : i32
    %l = cavs.pull "label" : i32
    %x = cavs.pull "x" : tensor<3xf32>
    %E = cavs.param_ref @embed : tensor<10x3xf32>
    %e = cavs.lookup %E[%w] : tensor<10x3xf32>, i32 -> tensor<3xf32>
    %t = cavs.tanh %e : tensor<3xf32>
    cavs.scatter %t : tensor<3xf32>
  }
  cavs.vertex @node arity 2 pulls {label = i32} pushes {} {
    %l = cavs.pull "label" : i32
    %a = cavs.gather 0 : tensor<3xf32>
    %b = cavs.gather 1 : tensor<3xf32>
    %W = cavs.param_ref @W : tensor<3x3xf32>
    %U = cavs.param_ref @U : tensor<3x3xf32>
    %wa = cavs.matmul %W, %a : tensor<3x3xf32>, tensor<3xf32> -> tensor<3xf32>
    %ua = cavs.matmul %U, %a : tensor<3x3xf32>, tensor<3xf32> -> tensor<3xf32>
    %s = cavs.add %wa, %ua : tensor<3xf32>
    %h = cavs.add %s, %b : tensor<3xf32>
    %t = cavs.sigmoid %h : tensor<3xf32>
    cavs.scatter %t : tensor<3xf32>
  }
}
