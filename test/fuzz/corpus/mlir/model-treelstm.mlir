module {
  cavs.model @treelstm state tensor<300xf32> {
    cavs.param @embed : tensor<21701x300xf32> init uniform(-0.05000000074505806, 0.05000000074505806)
    cavs.param @W_iou : tensor<450x300xf32> init xavier
    cavs.param @b_iou : tensor<450xf32> init zeros
    cavs.param @U_iou : tensor<450x150xf32> init xavier
    cavs.param @c_iou : tensor<450xf32> init zeros
    cavs.param @U_f : tensor<150x150xf32> init xavier
    cavs.param @b_f : tensor<150xf32> init zeros
    cavs.param @W_o : tensor<5x150xf32> init xavier
    cavs.param @b_o : tensor<5xf32> init zeros
    cavs.vertex @leaf arity 0 pulls {label = i32, word = i32} pushes {h_new = tensor<150xf32>} {
      %0 = cavs.pull "word" : i32
      %1 = cavs.pull "label" : i32
      %2 = cavs.param_ref @embed : tensor<21701x300xf32>
      %3 = cavs.lookup %2[%0] : tensor<21701x300xf32>, i32 -> tensor<300xf32>
      %4 = cavs.param_ref @W_iou : tensor<450x300xf32>
      %5 = cavs.matmul %4, %3 : tensor<450x300xf32>, tensor<300xf32> -> tensor<450xf32>
      %6 = cavs.param_ref @b_iou : tensor<450xf32>
      %7 = cavs.add %5, %6 : tensor<450xf32>
      %8:3 = cavs.split %7 : tensor<450xf32> -> tensor<150xf32>, tensor<150xf32>, tensor<150xf32>
      %9 = cavs.sigmoid %8#0 : tensor<150xf32>
      %10 = cavs.tanh %8#2 : tensor<150xf32>
      %11 = cavs.mul %9, %10 : tensor<150xf32>
      %12 = cavs.sigmoid %8#1 : tensor<150xf32>
      %13 = cavs.tanh %11 : tensor<150xf32>
      %14 = cavs.mul %12, %13 : tensor<150xf32>
      %15 = cavs.concat %11, %14 : tensor<150xf32>, tensor<150xf32> -> tensor<300xf32>
      cavs.scatter %15 : tensor<300xf32>
      cavs.push "h_new", %14 : tensor<150xf32>
      %16 = cavs.param_ref @W_o : tensor<5x150xf32>
      %17 = cavs.matmul %16, %14 : tensor<5x150xf32>, tensor<150xf32> -> tensor<5xf32>
      %18 = cavs.param_ref @b_o : tensor<5xf32>
      %19 = cavs.add %17, %18 : tensor<5xf32>
      %20 = cavs.softmax_cross_entropy %19, %1 : tensor<5xf32>, i32
      cavs.loss %20 : tensor<f32>
    }
    cavs.vertex @node arity 2 pulls {label = i32} pushes {h_new = tensor<150xf32>} {
      %0 = cavs.pull "label" : i32
      %1 = cavs.gather 0 : tensor<300xf32>
      %2:2 = cavs.split %1 : tensor<300xf32> -> tensor<150xf32>, tensor<150xf32>
      %3 = cavs.gather 1 : tensor<300xf32>
      %4:2 = cavs.split %3 : tensor<300xf32> -> tensor<150xf32>, tensor<150xf32>
      %5 = cavs.sum %2#1, %4#1 : tensor<150xf32>
      %6 = cavs.param_ref @U_iou : tensor<450x150xf32>
      %7 = cavs.matmul %6, %5 : tensor<450x150xf32>, tensor<150xf32> -> tensor<450xf32>
      %8 = cavs.param_ref @c_iou : tensor<450xf32>
      %9 = cavs.add %7, %8 : tensor<450xf32>
      %10:3 = cavs.split %9 : tensor<450xf32> -> tensor<150xf32>, tensor<150xf32>, tensor<150xf32>
      %11 = cavs.param_ref @U_f : tensor<150x150xf32>
      %12 = cavs.matmul %11, %2#1 : tensor<150x150xf32>, tensor<150xf32> -> tensor<150xf32>
      %13 = cavs.param_ref @b_f : tensor<150xf32>
      %14 = cavs.add %12, %13 : tensor<150xf32>
      %15 = cavs.sigmoid %14 : tensor<150xf32>
      %16 = cavs.param_ref @U_f : tensor<150x150xf32>
      %17 = cavs.matmul %16, %4#1 : tensor<150x150xf32>, tensor<150xf32> -> tensor<150xf32>
      %18 = cavs.add %17, %13 : tensor<150xf32>
      %19 = cavs.sigmoid %18 : tensor<150xf32>
      %20 = cavs.sigmoid %10#0 : tensor<150xf32>
      %21 = cavs.tanh %10#2 : tensor<150xf32>
      %22 = cavs.mul %20, %21 : tensor<150xf32>
      %23 = cavs.mul %15, %2#0 : tensor<150xf32>
      %24 = cavs.mul %19, %4#0 : tensor<150xf32>
      %25 = cavs.sum %23, %24 : tensor<150xf32>
      %26 = cavs.add %22, %25 : tensor<150xf32>
      %27 = cavs.sigmoid %10#1 : tensor<150xf32>
      %28 = cavs.tanh %26 : tensor<150xf32>
      %29 = cavs.mul %27, %28 : tensor<150xf32>
      %30 = cavs.concat %26, %29 : tensor<150xf32>, tensor<150xf32> -> tensor<300xf32>
      cavs.scatter %30 : tensor<300xf32>
      cavs.push "h_new", %29 : tensor<150xf32>
      %31 = cavs.param_ref @W_o : tensor<5x150xf32>
      %32 = cavs.matmul %31, %29 : tensor<5x150xf32>, tensor<150xf32> -> tensor<5xf32>
      %33 = cavs.param_ref @b_o : tensor<5xf32>
      %34 = cavs.add %32, %33 : tensor<5xf32>
      %35 = cavs.softmax_cross_entropy %34, %0 : tensor<5xf32>, i32
      cavs.loss %35 : tensor<f32>
    }
  }
}
