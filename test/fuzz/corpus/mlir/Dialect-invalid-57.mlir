cavs.model @m {
  cavs.param @A : tensor<2x3xf32> init xavier
  cavs.vertex @v arity 0 pulls {} pushes {} {
  }
  cavs.param_pack @P : tensor<2x3xf32> = [@v]
}
