cavs.model @m {
  cavs.param @p : tensor<3xf32> init uniform(1.0, 0.0)
}
