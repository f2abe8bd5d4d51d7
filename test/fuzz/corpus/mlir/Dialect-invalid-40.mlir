cavs.model @m {
  cavs.param @E : tensor<10x4xf32> init xavier
  cavs.vertex @v arity 0 pulls {w = i32} pushes {} {
    %0 = cavs.pull "w" : i32
    %E = cavs.param_ref @E : tensor<10x4xf32>
    %1 = cavs.lookup %E[%0] : tensor<10x4xf32>, i32 -> tensor<10xf32>
  }
}
