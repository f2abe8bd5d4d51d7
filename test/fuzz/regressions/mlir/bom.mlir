module {
  cavs.model @treefc state tensor<256xf32> {
    cavs.param @embed : tensor<21701x256xf32> init uniform(-0.05000000074505806, 0.05000000074505806)
    cavs.param @W_l : tensor<256x256xf32> init xavier
    cavs.param @W_r : tensor<256x256xf32> init xavier
    cavs.param @b : tensor<256xf32> init zeros
    cavs.param @W_o : tensor<5x256xf32> init xavier
    cavs.param @b_o : tensor<5xf32> init zeros
    cavs.vertex @leaf arity 0 pulls {label = i32, word = i32} pushes {h = tensor<256xf32>} {
      %0 = cavs.pull "word" : i32
      %1 = cavs.pull "label" : i32
      %2 = cavs.param_ref @embed : tensor<21701x256xf32>
      %3 = cavs.lookup %2[%0] : tensor<21701x256xf32>, i32 -> tensor<256xf32>
      %4 = cavs.param_ref @b : tensor<256xf32>
      %5 = cavs.add %3, %4 : tensor<256xf32>
      %6 = cavs.tanh %5 : tensor<256xf32>
      cavs.scatter %6 : tensor<256xf32>
      cavs.push "h", %6 : tensor<256xf32>
      %7 = cavs.param_ref @W_o : tensor<5x256xf32>
      %8 = cavs.matmul %7, %6 : tensor<5x256xf32>, tensor<256xf32> -> tensor<5xf32>
      %9 = cavs.param_ref @b_o : tensor<5xf32>
      %10 = cavs.add %8, %9 : tensor<5xf32>
      %11 = cavs.softmax_cross_entropy %10, %1 : tensor<5xf32>, i32
      cavs.loss %11 : tensor<f32>
    }
    cavs.vertex @node arity 2 pulls {label = i32} pushes {h = tensor<256xf32>} {
      %0 = cavs.pull "label" : i32
      %1 = cavs.gather 0 : tensor<256xf32>
      %2 = cavs.param_ref @W_l : tensor<256x256xf32>
      %3 = cavs.matmul %2, %1 : tensor<256x256xf32>, tensor<256xf32> -> tensor<256xf32>
      %4 = cavs.gather 1 : tensor<256xf32>
      %5 = cavs.param_ref @W_r : tensor<256x256xf32>
      %6 = cavs.matmul %5, %4 : tensor<256x256xf32>, tensor<256xf32> -> tensor<256xf32>
      %7 = cavs.add %3, %6 : tensor<256xf32>
      %8 = cavs.param_ref @b : tensor<256xf32>
      %9 = cavs.add %7, %8 : tensor<256xf32>
      %10 = cavs.tanh %9 : tensor<256xf32>
      cavs.scatter %10 : tensor<256xf32>
      cavs.push "h", %10 : tensor<256xf32>
      %11 = cavs.param_ref @W_o : tensor<5x256xf32>
      %12 = cavs.matmul %11, %10 : tensor<5x256xf32>, tensor<256xf32> -> tensor<5xf32>
      %13 = cavs.param_ref @b_o : tensor<5xf32>
      %14 = cavs.add %12, %13 : tensor<5xf32>
      %15 = cavs.softmax_cross_entropy %14, %0 : tensor<5xf32>, i32
      cavs.loss %15 : tensor<f32>
    }
  }
}
