cavs.model @m {
  cavs.vertex @v arity 0 pulls {} pushes {} {
    %1 = cavs.sum : tensor<3xf32>
  }
}
