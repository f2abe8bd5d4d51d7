cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<6xf32>} pushes {} {
    %0 = cavs.pull "x" : tensor<6xf32>
    %1 = cavs.slice %0 [4] : tensor<6xf32> -> tensor<3xf32>
  }
}
