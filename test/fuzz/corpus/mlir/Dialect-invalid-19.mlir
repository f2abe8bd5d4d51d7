cavs.model @m {
  cavs.param @W : tensor<2x3xf32> init xavier
  cavs.vertex @v arity 0 pulls {} pushes {} {
    %0 = cavs.param_ref @W : tensor<2x2xf32>
  }
}
