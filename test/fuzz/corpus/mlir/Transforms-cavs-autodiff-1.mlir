cavs.model @classifier {
  cavs.param @W : tensor<5x3xf32> init xavier
  cavs.param @b : tensor<5xf32> init zeros
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>, label = i32} pushes {} {
    %x = cavs.pull "x" : tensor<3xf32>
    %l = cavs.pull "label" : i32
    %W = cavs.param_ref @W : tensor<5x3xf32>
    %b = cavs.param_ref @b : tensor<5xf32>
    %y = cavs.matmul %W, %x : tensor<5x3xf32>, tensor<3xf32> -> tensor<5xf32>
    %z = cavs.add %y, %b : tensor<5xf32>
    %loss = cavs.softmax_cross_entropy %z, %l : tensor<5xf32>, i32
    cavs.loss %loss : tensor<f32>
  }
}
