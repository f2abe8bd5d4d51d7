cavs.model @m {
  cavs.param @E : tensor<10x3xf32> init xavier
  cavs.vertex @v arity 0 pulls {x = tensor<2xf32>, w = i32} pushes {} {
    %x = cavs.pull "x" : tensor<2xf32>
    %w = cavs.pull "w" : i32
    cavs.backward {
      cavs.lookup_grad @E[%w], %x : i32, tensor<2xf32>
    }
  }
}
