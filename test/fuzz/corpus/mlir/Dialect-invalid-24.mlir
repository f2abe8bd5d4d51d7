cavs.model @m state tensor<2xf32> {
  cavs.vertex @v arity 2 pulls {} pushes {} {
    %0 = cavs.gather 2 : tensor<2xf32>
    cavs.scatter %0 : tensor<2xf32>
  }
}
