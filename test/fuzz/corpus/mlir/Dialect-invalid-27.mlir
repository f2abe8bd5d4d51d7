cavs.model @m state tensor<2xf32> {
  cavs.vertex @v arity 0 pulls {x = tensor<3xf32>} pushes {} {
    %0 = cavs.pull "x" : tensor<3xf32>
    cavs.scatter %0 : tensor<3xf32>
  }
}
