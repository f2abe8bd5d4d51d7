cavs.model @m {
  cavs.param @W : tensor<4x3xf32> init xavier
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>} pushes {} {
    %0 = cavs.pull "x" : tensor<3xf32>
    %W = cavs.param_ref @W : tensor<4x3xf32>
    %1 = cavs.matmul %W, %0 : tensor<4x3xf32>, tensor<3xf32> -> tensor<3xf32>
  }
}
