cavs.model @chain_tanh state tensor<4xf32> {
  cavs.vertex @cell arity 1 pulls {} pushes {} {
    %s = cavs.gather 0 : tensor<4xf32>
    %t = cavs.tanh %s : tensor<4xf32>
    cavs.scatter %t : tensor<4xf32>
  }
}
