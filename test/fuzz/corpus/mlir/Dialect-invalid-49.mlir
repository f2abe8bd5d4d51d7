cavs.model @m {
  cavs.vertex @v arity 0 pulls {w = i32} pushes {} {
    %w = cavs.pull "w" : i32
    cavs.backward {
      %c = cavs.constant dense<1.0> : tensor<f32>
      cavs.pull_grad "w", %c : tensor<f32>
    }
  }
}
