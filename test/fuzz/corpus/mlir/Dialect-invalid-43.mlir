cavs.model @m {
  cavs.vertex @v arity 0 pulls {} pushes {} {
    cavs.backward {
    }
    %0 = cavs.constant dense<1.0> : tensor<f32>
  }
}
