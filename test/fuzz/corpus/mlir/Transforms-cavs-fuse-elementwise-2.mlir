cavs.model @cycle {
  cavs.vertex @v arity 0 pulls {x = tensor<4xf32>} pushes {y = tensor<4xf32>} {
    %x = cavs.pull "x" : tensor<4xf32>
    %t = cavs.tanh %x : tensor<4xf32>
    %s = cavs.softmax %t : tensor<4xf32>
    %y = cavs.add %t, %s : tensor<4xf32>
    cavs.push "y", %y : tensor<4xf32>
  }
}
