cavs.model @m {
  cavs.param @W : tensor<3x3xf32> init xavier
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>} pushes {} {
    %x = cavs.pull "x" : tensor<2xf32>
    cavs.backward {
      cavs.param_grad_outer @W, %x, %x : tensor<2xf32>, tensor<2xf32>
    }
  }
}
