cavs.model @m state tensor<4xf32> {
  cavs.param @W : tensor<4x3xf32> init xavier
  cavs.param @b : tensor<4xf32> init zeros
  cavs.param @E : tensor<10x3xf32> init xavier
  cavs.vertex @cell arity 1 pulls {x = tensor<3xf32>, word = i32} pushes {h = tensor<4xf32>} {
    %x = cavs.pull "x" : tensor<3xf32>
    %w = cavs.pull "word" : i32
    %s = cavs.gather 0 : tensor<4xf32>
    %r = cavs.relu %s : tensor<4xf32>
    cavs.scatter %r : tensor<4xf32>
    cavs.push "h", %r : tensor<4xf32>
    cavs.backward {
      %ds = cavs.state_grad : tensor<4xf32>
      %dh = cavs.push_grad "h" : tensor<4xf32>
      %d = cavs.add %ds, %dh : tensor<4xf32>
      %dr = cavs.relu_grad %r, %d : tensor<4xf32>
      %t = cavs.reduce_sum %dr : tensor<4xf32>
      %dl = cavs.softmax_cross_entropy_grad %r, %w, %t : tensor<4xf32>, i32
      %p = cavs.pad %x[1] : tensor<3xf32> -> tensor<4xf32>
      %q = cavs.add %dl, %p : tensor<4xf32>
      cavs.child_grad 0, %q : tensor<4xf32>
      cavs.pull_grad "x", %x : tensor<3xf32>
      cavs.param_grad @b, %q : tensor<4xf32>
      cavs.param_grad_outer @W, %q, %x : tensor<4xf32>, tensor<3xf32>
      cavs.lookup_grad @E[%w], %x : i32, tensor<3xf32>
    }
  }
}
