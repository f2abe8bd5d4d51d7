cavs.model @cell state tensor<4xf32> {
  cavs.param @W : tensor<4x3xf32> init xavier
  cavs.param @U : tensor<4x4xf32> init xavier
  cavs.param @V : tensor<5x4xf32> init xavier
  cavs.vertex @cell arity 1 pulls {x = tensor<3xf32>, label = i32} pushes {h = tensor<4xf32>} {
    %x = cavs.pull "x" : tensor<3xf32>
    %l = cavs.pull "label" : i32
    %W = cavs.param_ref @W : tensor<4x3xf32>
    %U = cavs.param_ref @U : tensor<4x4xf32>
    %V = cavs.param_ref @V : tensor<5x4xf32>
    %wx = cavs.matmul %W, %x : tensor<4x3xf32>, tensor<3xf32> -> tensor<4xf32>
    %s = cavs.gather 0 : tensor<4xf32>
    %us = cavs.matmul %U, %s : tensor<4x4xf32>, tensor<4xf32> -> tensor<4xf32>
    %a = cavs.add %wx, %us : tensor<4xf32>
    %h = cavs.tanh %a : tensor<4xf32>
    cavs.scatter %h : tensor<4xf32>
    cavs.push "h", %h : tensor<4xf32>
    %logits = cavs.matmul %V, %h : tensor<5x4xf32>, tensor<4xf32> -> tensor<5xf32>
    %loss = cavs.softmax_cross_entropy %logits, %l : tensor<5xf32>, i32
    cavs.loss %loss : tensor<f32>
    cavs.backward {
      %one = cavs.constant dense<1.0> : tensor<f32>
      %dlogits = cavs.softmax_cross_entropy_grad %logits, %l, %one : tensor<5xf32>, i32
      %dh1 = cavs.matmul %V, %dlogits {transpose_lhs} : tensor<5x4xf32>, tensor<5xf32> -> tensor<4xf32>
      cavs.param_grad_outer @V, %dlogits, %h : tensor<5xf32>, tensor<4xf32>
      %dh2 = cavs.state_grad : tensor<4xf32>
      %dh = cavs.sum %dh1, %dh2 : tensor<4xf32>
      %da = cavs.mul %dh, %h : tensor<4xf32>
      %ds = cavs.matmul %U, %da {transpose_lhs} : tensor<4x4xf32>, tensor<4xf32> -> tensor<4xf32>
      cavs.child_grad 0, %ds : tensor<4xf32>
      cavs.param_grad_outer @U, %da, %s : tensor<4xf32>, tensor<4xf32>
      cavs.param_grad_outer @W, %da, %x : tensor<4xf32>, tensor<3xf32>
    }
  }
}
