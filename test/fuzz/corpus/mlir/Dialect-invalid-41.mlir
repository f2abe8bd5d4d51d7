cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<6xf32>} pushes {} {
    %0 = cavs.pull "x" : tensor<6xf32>
    cavs.loss %0 : tensor<6xf32>
  }
}
