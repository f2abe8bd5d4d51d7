cavs.model @m {
  cavs.vertex @v arity 0 pulls {} pushes {} {
    %1 = "cavs.concat"() : () -> tensor<5xf32>
  }
}
