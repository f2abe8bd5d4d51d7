cavs.model @m {
  cavs.param @W : tensor<150x300xf32> init xavier
  cavs.vertex @v arity 0 pulls {x = tensor<150xf32>} pushes {} {
    %0 = cavs.pull "x" : tensor<150xf32>
    %W = cavs.param_ref @W : tensor<150x300xf32>
    %1 = cavs.matmul %W, %0 : tensor<150x300xf32>, tensor<150xf32> -> tensor<150xf32>
  }
}
