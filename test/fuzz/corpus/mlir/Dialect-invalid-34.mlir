cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>} pushes {} {
    %0 = cavs.pull "x" : tensor<3xf32>
    %1 = cavs.concat %0, %0 : tensor<3xf32>, tensor<3xf32> -> tensor<5xf32>
  }
}
