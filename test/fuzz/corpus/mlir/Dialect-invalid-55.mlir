cavs.model @m {
  cavs.param @A : tensor<2x3xf32> init xavier
  cavs.param @B : tensor<2x4xf32> init xavier
  cavs.param_pack @P : tensor<4x3xf32> = [@A, @B]
}
