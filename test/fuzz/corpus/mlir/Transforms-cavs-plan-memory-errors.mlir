cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {} {
    %x = cavs.pull "x" : tensor<2xf32>
  }
}
