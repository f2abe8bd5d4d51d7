cavs.model @m {
  %0 = cavs.constant dense<1.0> : tensor<f32>
}
