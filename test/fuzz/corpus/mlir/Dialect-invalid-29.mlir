cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>, y = tensor<3xf32>} pushes {} {
    %0 = cavs.pull "x" : tensor<2xf32>
    %1 = cavs.pull "y" : tensor<3xf32>
    %2 = cavs.add %0, %1 : tensor<2xf32>, tensor<3xf32> -> tensor<2xf32>
  }
}
