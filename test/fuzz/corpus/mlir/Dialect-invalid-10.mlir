cavs.model @m {
  cavs.vertex @v arity 0 pulls {x = i32} pushes {} {
  }
}
