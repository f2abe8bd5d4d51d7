cavs.model @leaf state tensor<4xf32> {
  cavs.vertex @leaf arity 0 pulls {x = tensor<4xf32>} pushes {} {
    %x = cavs.pull "x" : tensor<4xf32>
    %t = cavs.tanh %x : tensor<4xf32>
    cavs.scatter %t : tensor<4xf32>
  }
}
