cavs.model @m {
  cavs.vertex @a arity 0 pulls {x = tensor<2xf32>} pushes {y = tensor<2xf32>} {
    %0 = cavs.pull "x" : tensor<2xf32>
    cavs.push "y", %0 : tensor<2xf32>
  }
  cavs.vertex @b arity 0 pulls {z = tensor<3xf32>} pushes {y = tensor<3xf32>} {
    %0 = cavs.pull "z" : tensor<3xf32>
    cavs.push "y", %0 : tensor<3xf32>
  }
}
