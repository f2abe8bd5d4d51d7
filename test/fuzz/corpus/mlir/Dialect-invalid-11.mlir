cavs.model @m {
  cavs.vertex @v arity 0 pulls {} pushes {y = tensor<2xf32>} {
  }
}
