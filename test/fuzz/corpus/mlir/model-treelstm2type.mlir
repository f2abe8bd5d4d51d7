module {
  cavs.model @treelstm2type state tensor<300xf32> {
    cavs.param @embed : tensor<21701x300xf32> init uniform(-0.05000000074505806, 0.05000000074505806)
    cavs.param @W_o : tensor<5x150xf32> init xavier
    cavs.param @b_o : tensor<5xf32> init zeros
    cavs.param @Wa_iou : tensor<450x300xf32> init xavier
    cavs.param @Ua_iou : tensor<450x150xf32> init xavier
    cavs.param @ba_iou : tensor<450xf32> init zeros
    cavs.param @Wa_f : tensor<150x300xf32> init xavier
    cavs.param @Ua_f : tensor<150x150xf32> init xavier
    cavs.param @ba_f : tensor<150xf32> init zeros
    cavs.param @Wb_iou : tensor<450x300xf32> init xavier
    cavs.param @Ub_iou : tensor<450x150xf32> init xavier
    cavs.param @bb_iou : tensor<450xf32> init zeros
    cavs.param @Wb_f : tensor<150x300xf32> init xavier
    cavs.param @Ub_f : tensor<150x150xf32> init xavier
    cavs.param @bb_f : tensor<150xf32> init zeros
    cavs.vertex @cell_a arity 2 pulls {label = i32, word = i32} pushes {h = tensor<150xf32>} {
      %0 = cavs.pull "word" : i32
      %1 = cavs.pull "label" : i32
      %2 = cavs.param_ref @embed : tensor<21701x300xf32>
      %3 = cavs.lookup %2[%0] : tensor<21701x300xf32>, i32 -> tensor<300xf32>
      %4 = cavs.gather 0 : tensor<300xf32>
      %5:2 = cavs.split %4 : tensor<300xf32> -> tensor<150xf32>, tensor<150xf32>
      %6 = cavs.gather 1 : tensor<300xf32>
      %7:2 = cavs.split %6 : tensor<300xf32> -> tensor<150xf32>, tensor<150xf32>
      %8 = cavs.param_ref @Wa_iou : tensor<450x300xf32>
      %9 = cavs.matmul %8, %3 : tensor<450x300xf32>, tensor<300xf32> -> tensor<450xf32>
      %10 = cavs.sum %5#1, %7#1 : tensor<150xf32>
      %11 = cavs.param_ref @Ua_iou : tensor<450x150xf32>
      %12 = cavs.matmul %11, %10 : tensor<450x150xf32>, tensor<150xf32> -> tensor<450xf32>
      %13 = cavs.add %9, %12 : tensor<450xf32>
      %14 = cavs.param_ref @ba_iou : tensor<450xf32>
      %15 = cavs.add %13, %14 : tensor<450xf32>
      %16:3 = cavs.split %15 : tensor<450xf32> -> tensor<150xf32>, tensor<150xf32>, tensor<150xf32>
      %17 = cavs.param_ref @Wa_f : tensor<150x300xf32>
      %18 = cavs.matmul %17, %3 : tensor<150x300xf32>, tensor<300xf32> -> tensor<150xf32>
      %19 = cavs.param_ref @Ua_f : tensor<150x150xf32>
      %20 = cavs.matmul %19, %5#1 : tensor<150x150xf32>, tensor<150xf32> -> tensor<150xf32>
      %21 = cavs.add %18, %20 : tensor<150xf32>
      %22 = cavs.param_ref @ba_f : tensor<150xf32>
      %23 = cavs.add %21, %22 : tensor<150xf32>
      %24 = cavs.sigmoid %23 : tensor<150xf32>
      %25 = cavs.param_ref @Wa_f : tensor<150x300xf32>
      %26 = cavs.matmul %25, %3 : tensor<150x300xf32>, tensor<300xf32> -> tensor<150xf32>
      %27 = cavs.param_ref @Ua_f : tensor<150x150xf32>
      %28 = cavs.matmul %27, %7#1 : tensor<150x150xf32>, tensor<150xf32> -> tensor<150xf32>
      %29 = cavs.add %26, %28 : tensor<150xf32>
      %30 = cavs.add %29, %22 : tensor<150xf32>
      %31 = cavs.sigmoid %30 : tensor<150xf32>
      %32 = cavs.sigmoid %16#0 : tensor<150xf32>
      %33 = cavs.tanh %16#2 : tensor<150xf32>
      %34 = cavs.mul %32, %33 : tensor<150xf32>
      %35 = cavs.mul %24, %5#0 : tensor<150xf32>
      %36 = cavs.mul %31, %7#0 : tensor<150xf32>
      %37 = cavs.sum %35, %36 : tensor<150xf32>
      %38 = cavs.add %34, %37 : tensor<150xf32>
      %39 = cavs.sigmoid %16#1 : tensor<150xf32>
      %40 = cavs.tanh %38 : tensor<150xf32>
      %41 = cavs.mul %39, %40 : tensor<150xf32>
      %42 = cavs.concat %38, %41 : tensor<150xf32>, tensor<150xf32> -> tensor<300xf32>
      cavs.scatter %42 : tensor<300xf32>
      cavs.push "h", %41 : tensor<150xf32>
      %43 = cavs.param_ref @W_o : tensor<5x150xf32>
      %44 = cavs.matmul %43, %41 : tensor<5x150xf32>, tensor<150xf32> -> tensor<5xf32>
      %45 = cavs.param_ref @b_o : tensor<5xf32>
      %46 = cavs.add %44, %45 : tensor<5xf32>
      %47 = cavs.softmax_cross_entropy %46, %1 : tensor<5xf32>, i32
      cavs.loss %47 : tensor<f32>
    }
    cavs.vertex @cell_b arity 2 pulls {label = i32, word = i32} pushes {h = tensor<150xf32>} {
      %0 = cavs.pull "word" : i32
      %1 = cavs.pull "label" : i32
      %2 = cavs.param_ref @embed : tensor<21701x300xf32>
      %3 = cavs.lookup %2[%0] : tensor<21701x300xf32>, i32 -> tensor<300xf32>
      %4 = cavs.gather 0 : tensor<300xf32>
      %5:2 = cavs.split %4 : tensor<300xf32> -> tensor<150xf32>, tensor<150xf32>
      %6 = cavs.gather 1 : tensor<300xf32>
      %7:2 = cavs.split %6 : tensor<300xf32> -> tensor<150xf32>, tensor<150xf32>
      %8 = cavs.param_ref @Wb_iou : tensor<450x300xf32>
      %9 = cavs.matmul %8, %3 : tensor<450x300xf32>, tensor<300xf32> -> tensor<450xf32>
      %10 = cavs.sum %5#1, %7#1 : tensor<150xf32>
      %11 = cavs.param_ref @Ub_iou : tensor<450x150xf32>
      %12 = cavs.matmul %11, %10 : tensor<450x150xf32>, tensor<150xf32> -> tensor<450xf32>
      %13 = cavs.add %9, %12 : tensor<450xf32>
      %14 = cavs.param_ref @bb_iou : tensor<450xf32>
      %15 = cavs.add %13, %14 : tensor<450xf32>
      %16:3 = cavs.split %15 : tensor<450xf32> -> tensor<150xf32>, tensor<150xf32>, tensor<150xf32>
      %17 = cavs.param_ref @Wb_f : tensor<150x300xf32>
      %18 = cavs.matmul %17, %3 : tensor<150x300xf32>, tensor<300xf32> -> tensor<150xf32>
      %19 = cavs.param_ref @Ub_f : tensor<150x150xf32>
      %20 = cavs.matmul %19, %5#1 : tensor<150x150xf32>, tensor<150xf32> -> tensor<150xf32>
      %21 = cavs.add %18, %20 : tensor<150xf32>
      %22 = cavs.param_ref @bb_f : tensor<150xf32>
      %23 = cavs.add %21, %22 : tensor<150xf32>
      %24 = cavs.sigmoid %23 : tensor<150xf32>
      %25 = cavs.param_ref @Wb_f : tensor<150x300xf32>
      %26 = cavs.matmul %25, %3 : tensor<150x300xf32>, tensor<300xf32> -> tensor<150xf32>
      %27 = cavs.param_ref @Ub_f : tensor<150x150xf32>
      %28 = cavs.matmul %27, %7#1 : tensor<150x150xf32>, tensor<150xf32> -> tensor<150xf32>
      %29 = cavs.add %26, %28 : tensor<150xf32>
      %30 = cavs.add %29, %22 : tensor<150xf32>
      %31 = cavs.sigmoid %30 : tensor<150xf32>
      %32 = cavs.sigmoid %16#0 : tensor<150xf32>
      %33 = cavs.tanh %16#2 : tensor<150xf32>
      %34 = cavs.mul %32, %33 : tensor<150xf32>
      %35 = cavs.mul %24, %5#0 : tensor<150xf32>
      %36 = cavs.mul %31, %7#0 : tensor<150xf32>
      %37 = cavs.sum %35, %36 : tensor<150xf32>
      %38 = cavs.add %34, %37 : tensor<150xf32>
      %39 = cavs.sigmoid %16#1 : tensor<150xf32>
      %40 = cavs.tanh %38 : tensor<150xf32>
      %41 = cavs.mul %39, %40 : tensor<150xf32>
      %42 = cavs.concat %38, %41 : tensor<150xf32>, tensor<150xf32> -> tensor<300xf32>
      cavs.scatter %42 : tensor<300xf32>
      cavs.push "h", %41 : tensor<150xf32>
      %43 = cavs.param_ref @W_o : tensor<5x150xf32>
      %44 = cavs.matmul %43, %41 : tensor<5x150xf32>, tensor<150xf32> -> tensor<5xf32>
      %45 = cavs.param_ref @b_o : tensor<5xf32>
      %46 = cavs.add %44, %45 : tensor<5xf32>
      %47 = cavs.softmax_cross_entropy %46, %1 : tensor<5xf32>, i32
      cavs.loss %47 : tensor<f32>
    }
  }
}
