cavs.model @side state tensor<4xf32> {
  cavs.vertex @v arity 1 pulls {} pushes {} {
    %s = cavs.gather 0 : tensor<4xf32>
    cavs.scatter %s : tensor<4xf32>
    %r = cavs.reduce_sum %s : tensor<4xf32>
    cavs.loss %r : tensor<f32>
  }
}
