cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {x = tensor<2xf32>} {
    %0 = cavs.pull "x" : tensor<2xf32>
    cavs.push "x", %0 : tensor<2xf32>
    cavs.push "x", %0 : tensor<2xf32>
  }
}
