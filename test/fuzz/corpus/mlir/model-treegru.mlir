module {
  cavs.model @treegru state tensor<150xf32> {
    cavs.param @embed : tensor<21701x300xf32> init uniform(-0.05000000074505806, 0.05000000074505806)
    cavs.param @W_z : tensor<150x300xf32> init xavier
    cavs.param @U_z : tensor<150x150xf32> init xavier
    cavs.param @b_z : tensor<150xf32> init zeros
    cavs.param @W_r : tensor<150x300xf32> init xavier
    cavs.param @U_r : tensor<150x150xf32> init xavier
    cavs.param @b_r : tensor<150xf32> init zeros
    cavs.param @W_h : tensor<150x300xf32> init xavier
    cavs.param @U_h : tensor<150x150xf32> init xavier
    cavs.param @b_h : tensor<150xf32> init zeros
    cavs.param @W_o : tensor<5x150xf32> init xavier
    cavs.param @b_o : tensor<5xf32> init zeros
    cavs.vertex @cell arity 2 pulls {label = i32, word = i32} pushes {h_new = tensor<150xf32>} {
      %0 = cavs.pull "word" : i32
      %1 = cavs.pull "label" : i32
      %2 = cavs.param_ref @embed : tensor<21701x300xf32>
      %3 = cavs.lookup %2[%0] : tensor<21701x300xf32>, i32 -> tensor<300xf32>
      %4 = cavs.gather 0 : tensor<150xf32>
      %5 = cavs.gather 1 : tensor<150xf32>
      %6 = cavs.sum %4, %5 : tensor<150xf32>
      %7 = cavs.param_ref @W_z : tensor<150x300xf32>
      %8 = cavs.matmul %7, %3 : tensor<150x300xf32>, tensor<300xf32> -> tensor<150xf32>
      %9 = cavs.param_ref @U_z : tensor<150x150xf32>
      %10 = cavs.matmul %9, %6 : tensor<150x150xf32>, tensor<150xf32> -> tensor<150xf32>
      %11 = cavs.add %8, %10 : tensor<150xf32>
      %12 = cavs.param_ref @b_z : tensor<150xf32>
      %13 = cavs.add %11, %12 : tensor<150xf32>
      %14 = cavs.sigmoid %13 : tensor<150xf32>
      %15 = cavs.param_ref @W_r : tensor<150x300xf32>
      %16 = cavs.matmul %15, %3 : tensor<150x300xf32>, tensor<300xf32> -> tensor<150xf32>
      %17 = cavs.param_ref @U_r : tensor<150x150xf32>
      %18 = cavs.matmul %17, %4 : tensor<150x150xf32>, tensor<150xf32> -> tensor<150xf32>
      %19 = cavs.param_ref @U_r : tensor<150x150xf32>
      %20 = cavs.matmul %19, %5 : tensor<150x150xf32>, tensor<150xf32> -> tensor<150xf32>
      %21 = cavs.add %16, %18 : tensor<150xf32>
      %22 = cavs.add %16, %20 : tensor<150xf32>
      %23 = cavs.param_ref @b_r : tensor<150xf32>
      %24 = cavs.add %21, %23 : tensor<150xf32>
      %25 = cavs.add %22, %23 : tensor<150xf32>
      %26 = cavs.sigmoid %24 : tensor<150xf32>
      %27 = cavs.sigmoid %25 : tensor<150xf32>
      %28 = cavs.param_ref @W_h : tensor<150x300xf32>
      %29 = cavs.matmul %28, %3 : tensor<150x300xf32>, tensor<300xf32> -> tensor<150xf32>
      %30 = cavs.mul %26, %4 : tensor<150xf32>
      %31 = cavs.mul %27, %5 : tensor<150xf32>
      %32 = cavs.sum %30, %31 : tensor<150xf32>
      %33 = cavs.param_ref @U_h : tensor<150x150xf32>
      %34 = cavs.matmul %33, %32 : tensor<150x150xf32>, tensor<150xf32> -> tensor<150xf32>
      %35 = cavs.add %29, %34 : tensor<150xf32>
      %36 = cavs.param_ref @b_h : tensor<150xf32>
      %37 = cavs.add %35, %36 : tensor<150xf32>
      %38 = cavs.tanh %37 : tensor<150xf32>
      %39 = cavs.constant dense<1.000000e+00> : tensor<f32>
      %40 = cavs.sub %39, %14 : tensor<f32>, tensor<150xf32> -> tensor<150xf32>
      %41 = cavs.mul %40, %6 : tensor<150xf32>
      %42 = cavs.mul %14, %38 : tensor<150xf32>
      %43 = cavs.add %41, %42 : tensor<150xf32>
      cavs.scatter %43 : tensor<150xf32>
      cavs.push "h_new", %43 : tensor<150xf32>
      %44 = cavs.param_ref @W_o : tensor<5x150xf32>
      %45 = cavs.matmul %44, %43 : tensor<5x150xf32>, tensor<150xf32> -> tensor<5xf32>
      %46 = cavs.param_ref @b_o : tensor<5xf32>
      %47 = cavs.add %45, %46 : tensor<5xf32>
      %48 = cavs.softmax_cross_entropy %47, %1 : tensor<5xf32>, i32
      cavs.loss %48 : tensor<f32>
    }
  }
}
