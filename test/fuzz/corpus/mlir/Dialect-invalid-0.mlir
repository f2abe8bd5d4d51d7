cavs.model @m state tensor<2x2xf32> {
}
