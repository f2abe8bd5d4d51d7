cavs.model @m state tensor<2xf32> {
  cavs.vertex @v arity 1 pulls {} pushes {} {
    %0 = cavs.gather 0 : tensor<2xf32>
    cavs.scatter %0 : tensor<2xf32>
    cavs.scatter %0 : tensor<2xf32>
  }
}
