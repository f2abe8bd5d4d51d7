cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>, M = tensor<3x3xf32>} pushes {} {
    %x = cavs.pull "x" : tensor<3xf32>
    %M = cavs.pull "M" : tensor<3x3xf32>
    %y = cavs.matmul %M, %x : tensor<3x3xf32>, tensor<3xf32> -> tensor<3xf32>
    %s = cavs.reduce_sum %y : tensor<3xf32>
    cavs.loss %s : tensor<f32>
  }
}
