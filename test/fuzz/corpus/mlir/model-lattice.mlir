module {
  cavs.model @lattice state tensor<256xf32> {
    cavs.param @char_embed : tensor<64x64xf32> init uniform(-0.10000000149011612, 0.10000000149011612)
    cavs.param @word_embed : tensor<10000x64xf32> init uniform(-0.10000000149011612, 0.10000000149011612)
    cavs.param @W_c : tensor<512x64xf32> init xavier
    cavs.param @U_c : tensor<512x128xf32> init xavier
    cavs.param @b_c : tensor<512xf32> init zeros
    cavs.param @W_w : tensor<384x64xf32> init xavier
    cavs.param @U_w : tensor<384x128xf32> init xavier
    cavs.param @b_w : tensor<384xf32> init zeros
    cavs.param @W_l : tensor<128x64xf32> init xavier
    cavs.param @U_l : tensor<128x128xf32> init xavier
    cavs.param @b_l : tensor<128xf32> init zeros
    cavs.param @W_o : tensor<64x128xf32> init xavier
    cavs.param @b_o : tensor<64xf32> init zeros
    cavs.vertex @char arity 3 pulls {ch = i32, next = i32} pushes {} {
      %0 = cavs.pull "ch" : i32
      %1 = cavs.pull "next" : i32
      %2 = cavs.param_ref @char_embed : tensor<64x64xf32>
      %3 = cavs.lookup %2[%0] : tensor<64x64xf32>, i32 -> tensor<64xf32>
      %4 = cavs.gather 0 : tensor<256xf32>
      %5:2 = cavs.split %4 : tensor<256xf32> -> tensor<128xf32>, tensor<128xf32>
      %6 = cavs.param_ref @W_c : tensor<512x64xf32>
      %7 = cavs.matmul %6, %3 : tensor<512x64xf32>, tensor<64xf32> -> tensor<512xf32>
      %8 = cavs.param_ref @U_c : tensor<512x128xf32>
      %9 = cavs.matmul %8, %5#1 : tensor<512x128xf32>, tensor<128xf32> -> tensor<512xf32>
      %10 = cavs.add %7, %9 : tensor<512xf32>
      %11 = cavs.param_ref @b_c : tensor<512xf32>
      %12 = cavs.add %10, %11 : tensor<512xf32>
      %13:4 = cavs.split %12 : tensor<512xf32> -> tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>
      %14 = cavs.sigmoid %13#1 : tensor<128xf32>
      %15 = cavs.mul %14, %5#0 : tensor<128xf32>
      %16 = cavs.sigmoid %13#0 : tensor<128xf32>
      %17 = cavs.tanh %13#3 : tensor<128xf32>
      %18 = cavs.mul %16, %17 : tensor<128xf32>
      %19 = cavs.add %15, %18 : tensor<128xf32>
      %20 = cavs.gather 1 : tensor<256xf32>
      %21:2 = cavs.split %20 : tensor<256xf32> -> tensor<128xf32>, tensor<128xf32>
      %22 = cavs.param_ref @W_l : tensor<128x64xf32>
      %23 = cavs.matmul %22, %3 : tensor<128x64xf32>, tensor<64xf32> -> tensor<128xf32>
      %24 = cavs.param_ref @U_l : tensor<128x128xf32>
      %25 = cavs.matmul %24, %21#0 : tensor<128x128xf32>, tensor<128xf32> -> tensor<128xf32>
      %26 = cavs.add %23, %25 : tensor<128xf32>
      %27 = cavs.param_ref @b_l : tensor<128xf32>
      %28 = cavs.add %26, %27 : tensor<128xf32>
      %29 = cavs.sigmoid %28 : tensor<128xf32>
      %30 = cavs.gather 2 : tensor<256xf32>
      %31:2 = cavs.split %30 : tensor<256xf32> -> tensor<128xf32>, tensor<128xf32>
      %32 = cavs.param_ref @W_l : tensor<128x64xf32>
      %33 = cavs.matmul %32, %3 : tensor<128x64xf32>, tensor<64xf32> -> tensor<128xf32>
      %34 = cavs.param_ref @U_l : tensor<128x128xf32>
      %35 = cavs.matmul %34, %31#0 : tensor<128x128xf32>, tensor<128xf32> -> tensor<128xf32>
      %36 = cavs.add %33, %35 : tensor<128xf32>
      %37 = cavs.add %36, %27 : tensor<128xf32>
      %38 = cavs.sigmoid %37 : tensor<128xf32>
      %39 = cavs.mul %29, %21#0 : tensor<128xf32>
      %40 = cavs.mul %38, %31#0 : tensor<128xf32>
      %41 = cavs.sum %39, %40 : tensor<128xf32>
      %42 = cavs.add %19, %41 : tensor<128xf32>
      %43 = cavs.sigmoid %13#2 : tensor<128xf32>
      %44 = cavs.tanh %42 : tensor<128xf32>
      %45 = cavs.mul %43, %44 : tensor<128xf32>
      %46 = cavs.concat %42, %45 : tensor<128xf32>, tensor<128xf32> -> tensor<256xf32>
      cavs.scatter %46 : tensor<256xf32>
      %47 = cavs.param_ref @W_o : tensor<64x128xf32>
      %48 = cavs.matmul %47, %45 : tensor<64x128xf32>, tensor<128xf32> -> tensor<64xf32>
      %49 = cavs.param_ref @b_o : tensor<64xf32>
      %50 = cavs.add %48, %49 : tensor<64xf32>
      %51 = cavs.softmax_cross_entropy %50, %1 : tensor<64xf32>, i32
      cavs.loss %51 : tensor<f32>
    }
    cavs.vertex @word arity 1 pulls {w = i32} pushes {} {
      %0 = cavs.pull "w" : i32
      %1 = cavs.param_ref @word_embed : tensor<10000x64xf32>
      %2 = cavs.lookup %1[%0] : tensor<10000x64xf32>, i32 -> tensor<64xf32>
      %3 = cavs.gather 0 : tensor<256xf32>
      %4:2 = cavs.split %3 : tensor<256xf32> -> tensor<128xf32>, tensor<128xf32>
      %5 = cavs.param_ref @W_w : tensor<384x64xf32>
      %6 = cavs.matmul %5, %2 : tensor<384x64xf32>, tensor<64xf32> -> tensor<384xf32>
      %7 = cavs.param_ref @U_w : tensor<384x128xf32>
      %8 = cavs.matmul %7, %4#1 : tensor<384x128xf32>, tensor<128xf32> -> tensor<384xf32>
      %9 = cavs.add %6, %8 : tensor<384xf32>
      %10 = cavs.param_ref @b_w : tensor<384xf32>
      %11 = cavs.add %9, %10 : tensor<384xf32>
      %12:3 = cavs.split %11 : tensor<384xf32> -> tensor<128xf32>, tensor<128xf32>, tensor<128xf32>
      %13 = cavs.sigmoid %12#1 : tensor<128xf32>
      %14 = cavs.mul %13, %4#0 : tensor<128xf32>
      %15 = cavs.sigmoid %12#0 : tensor<128xf32>
      %16 = cavs.tanh %12#2 : tensor<128xf32>
      %17 = cavs.mul %15, %16 : tensor<128xf32>
      %18 = cavs.add %14, %17 : tensor<128xf32>
      %19 = cavs.tanh %18 : tensor<128xf32>
      %20 = cavs.constant dense<0.000000e+00> : tensor<f32>
      %21 = cavs.mul %20, %18 : tensor<f32>, tensor<128xf32> -> tensor<128xf32>
      %22 = cavs.concat %19, %21 : tensor<128xf32>, tensor<128xf32> -> tensor<256xf32>
      cavs.scatter %22 : tensor<256xf32>
    }
  }
}
