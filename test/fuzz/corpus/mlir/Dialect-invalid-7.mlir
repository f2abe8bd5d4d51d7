cavs.model @m {
  cavs.param @p : tensor<3xf64> init zeros
}
