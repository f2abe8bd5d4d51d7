module {
  cavs.model @chainlstm state tensor<512xf32> {
    cavs.param @embed : tensor<10000x256xf32> init uniform(-0.10000000149011612, 0.10000000149011612)
    cavs.param @W : tensor<1024x256xf32> init xavier
    cavs.param @U : tensor<1024x256xf32> init xavier
    cavs.param @b : tensor<1024xf32> init zeros
    cavs.param @W_o : tensor<10000x256xf32> init xavier
    cavs.param @b_o : tensor<10000xf32> init zeros
    cavs.vertex @step arity 1 pulls {next = i32, word = i32} pushes {h_new = tensor<256xf32>} {
      %0 = cavs.pull "word" : i32
      %1 = cavs.pull "next" : i32
      %2 = cavs.param_ref @embed : tensor<10000x256xf32>
      %3 = cavs.lookup %2[%0] : tensor<10000x256xf32>, i32 -> tensor<256xf32>
      %4 = cavs.gather 0 : tensor<512xf32>
      %5:2 = cavs.split %4 : tensor<512xf32> -> tensor<256xf32>, tensor<256xf32>
      %6 = cavs.param_ref @W : tensor<1024x256xf32>
      %7 = cavs.matmul %6, %3 : tensor<1024x256xf32>, tensor<256xf32> -> tensor<1024xf32>
      %8 = cavs.param_ref @U : tensor<1024x256xf32>
      %9 = cavs.matmul %8, %5#1 : tensor<1024x256xf32>, tensor<256xf32> -> tensor<1024xf32>
      %10 = cavs.add %7, %9 : tensor<1024xf32>
      %11 = cavs.param_ref @b : tensor<1024xf32>
      %12 = cavs.add %10, %11 : tensor<1024xf32>
      %13:4 = cavs.split %12 : tensor<1024xf32> -> tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>
      %14 = cavs.sigmoid %13#1 : tensor<256xf32>
      %15 = cavs.mul %14, %5#0 : tensor<256xf32>
      %16 = cavs.sigmoid %13#0 : tensor<256xf32>
      %17 = cavs.tanh %13#3 : tensor<256xf32>
      %18 = cavs.mul %16, %17 : tensor<256xf32>
      %19 = cavs.add %15, %18 : tensor<256xf32>
      %20 = cavs.sigmoid %13#2 : tensor<256xf32>
      %21 = cavs.tanh %19 : tensor<256xf32>
      %22 = cavs.mul %20, %21 : tensor<256xf32>
      %23 = cavs.concat %19, %22 : tensor<256xf32>, tensor<256xf32> -> tensor<512xf32>
      cavs.scatter %23 : tensor<512xf32>
      cavs.push "h_new", %22 : tensor<256xf32>
      %24 = cavs.param_ref @W_o : tensor<10000x256xf32>
      %25 = cavs.matmul %24, %22 : tensor<10000x256xf32>, tensor<256xf32> -> tensor<10000xf32>
      %26 = cavs.param_ref @b_o : tensor<10000xf32>
      %27 = cavs.add %25, %26 : tensor<10000xf32>
      %28 = cavs.softmax_cross_entropy %27, %1 : tensor<10000xf32>, i32
      cavs.loss %28 : tensor<f32>
    }
  }
}
