cavs.model @m {
  cavs.param @p : tensor<f32> init zeros
}
