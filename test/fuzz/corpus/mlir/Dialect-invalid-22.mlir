func.func @outside() {
  %0 = cavs.pull "x" : i32
  return
}
