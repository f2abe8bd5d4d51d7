cavs.model @m {
  cavs.vertex @v arity 0 pulls {} pushes {} {
    cavs.backward {
      %0 = cavs.push_grad "h" : tensor<2xf32>
    }
  }
}
