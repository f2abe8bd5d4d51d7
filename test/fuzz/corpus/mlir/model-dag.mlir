module {
  cavs.model @dag state tensor<128xf32> {
    cavs.param @W_x : tensor<128x64xf32> init xavier
    cavs.param @W_p : tensor<128x128xf32> init xavier
    cavs.param @b : tensor<128xf32> init zeros
    cavs.param @W_o : tensor<10x128xf32> init normal(0.000000e+00, 0.0099999997764825821)
    cavs.param @b_o : tensor<10xf32> init zeros
    cavs.vertex @node arity 2 pulls {label = i32, x = tensor<64xf32>} pushes {probs = tensor<10xf32>} {
      %0 = cavs.pull "x" : tensor<64xf32>
      %1 = cavs.pull "label" : i32
      %2 = cavs.gather 0 : tensor<128xf32>
      %3 = cavs.gather 1 : tensor<128xf32>
      %4 = cavs.param_ref @W_x : tensor<128x64xf32>
      %5 = cavs.matmul %4, %0 : tensor<128x64xf32>, tensor<64xf32> -> tensor<128xf32>
      %6 = cavs.sum %2, %3 : tensor<128xf32>
      %7 = cavs.constant dense<2.000000e+00> : tensor<f32>
      %8 = cavs.div %6, %7 : tensor<128xf32>, tensor<f32> -> tensor<128xf32>
      %9 = cavs.param_ref @W_p : tensor<128x128xf32>
      %10 = cavs.matmul %9, %8 : tensor<128x128xf32>, tensor<128xf32> -> tensor<128xf32>
      %11 = cavs.add %5, %10 : tensor<128xf32>
      %12 = cavs.param_ref @b : tensor<128xf32>
      %13 = cavs.add %11, %12 : tensor<128xf32>
      %14 = cavs.relu %13 : tensor<128xf32>
      cavs.scatter %14 : tensor<128xf32>
      %15 = cavs.param_ref @W_o : tensor<10x128xf32>
      %16 = cavs.matmul %15, %14 : tensor<10x128xf32>, tensor<128xf32> -> tensor<10xf32>
      %17 = cavs.param_ref @b_o : tensor<10xf32>
      %18 = cavs.add %16, %17 : tensor<10xf32>
      %19 = cavs.softmax %18 : tensor<10xf32>
      cavs.push "probs", %19 : tensor<10xf32>
      %20 = cavs.softmax_cross_entropy %18, %1 : tensor<10xf32>, i32
      cavs.loss %20 : tensor<f32>
    }
  }
}
