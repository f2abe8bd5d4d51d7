cavs.model @m {
  cavs.vertex @v arity 0 pulls {} pushes {} {
    %0 = cavs.constant dense_resource<blob> : tensor<2xf32>
  }
}
