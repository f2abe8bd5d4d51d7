cavs.model @m {
  cavs.param @p : tensor<3xf32> init normal(0.0, 0.0)
}
