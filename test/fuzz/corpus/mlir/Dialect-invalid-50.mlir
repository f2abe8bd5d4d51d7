cavs.model @m {
  cavs.param @b : tensor<3xf32> init zeros
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {} {
    %x = cavs.pull "x" : tensor<2xf32>
    cavs.backward {
      cavs.param_grad @b, %x : tensor<2xf32>
    }
  }
}
