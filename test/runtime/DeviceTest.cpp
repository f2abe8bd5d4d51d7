//===- DeviceTest.cpp - choosing the device of a model instance -----------===//
//
// Device names, AUTO's fallback, and the clear failures when a GPU is
// asked for but cannot be used: a library without CUDA code, a library
// without CPU code, and (on machines without one) a missing GPU.
//
//===----------------------------------------------------------------------===//
#include "ToyModels.h"

#include "cavs/instance.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using namespace cavs::test;

std::string lastError() { return cavs_last_error_message(); }

TEST(DeviceTest, ParsesDeviceNames) {
  cavs_device_options options{};
  ASSERT_EQ(cavs_device_parse("cpu", &options), CAVS_OK);
  EXPECT_EQ(options.kind, CAVS_DEVICE_CPU);
  ASSERT_EQ(cavs_device_parse("auto", &options), CAVS_OK);
  EXPECT_EQ(options.kind, CAVS_DEVICE_AUTO);
  ASSERT_EQ(cavs_device_parse("cuda", &options), CAVS_OK);
  EXPECT_EQ(options.kind, CAVS_DEVICE_CUDA);
  EXPECT_EQ(options.ordinal, 0);
  ASSERT_EQ(cavs_device_parse("cuda:3", &options), CAVS_OK);
  EXPECT_EQ(options.kind, CAVS_DEVICE_CUDA);
  EXPECT_EQ(options.ordinal, 3);
  EXPECT_EQ(options.allow_tf32, 0);
  for (const char *bad : {"gpu", "cuda:", "cuda:x", "cuda:-1", "cuda:1x",
                          "cudax", "CPU", ""}) {
    EXPECT_EQ(cavs_device_parse(bad, &options), CAVS_ERROR_INVALID_ARGUMENT)
        << bad;
    EXPECT_NE(lastError().find("expected cpu, cuda, cuda:N or auto"),
              std::string::npos)
        << lastError();
  }
  EXPECT_EQ(cavs_device_parse(nullptr, &options), CAVS_ERROR_INVALID_ARGUMENT);
}

TEST(DeviceTest, GpuCountFailsWithAReasonOrCountsGpus) {
  int32_t count = -1;
  const cavs_status status = cavs_cuda_device_count(&count);
  if (status == CAVS_OK) {
    EXPECT_GT(count, 0);
    return;
  }
  EXPECT_EQ(status, CAVS_ERROR_UNSUPPORTED);
  EXPECT_NE(lastError().find("cannot use a GPU"), std::string::npos)
      << lastError();
}

TEST(DeviceTest, ModelWithoutCudaCodeRefusesTheGpu) {
  std::unique_ptr<ToyModel> toy = sumTreeModel();
  cavs_model *model = nullptr;
  const cavs_device_options gpu{CAVS_DEVICE_CUDA, 0, 0};
  EXPECT_EQ(cavs_model_create_on_device(&toy->def, 1, &gpu, &model),
            CAVS_ERROR_UNSUPPORTED);
  EXPECT_EQ(model, nullptr);
  EXPECT_NE(lastError().find("has no CUDA code; compile it with cavsc "
                             "--target=cuda"),
            std::string::npos)
      << lastError();
}

TEST(DeviceTest, IncompleteCudaDescriptorIsRejected) {
  std::unique_ptr<ToyModel> toy = sumTreeModel();
  const cavs_cuda_desc cuda{}; // no image, no phase tables
  toy->def.cuda = &cuda;
  cavs_model *model = nullptr;
  const cavs_device_options gpu{CAVS_DEVICE_CUDA, 0, 0};
  EXPECT_EQ(cavs_model_create_on_device(&toy->def, 1, &gpu, &model),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("its CUDA descriptor lacks"), std::string::npos)
      << lastError();
}

TEST(DeviceTest, AutoPicksTheCpuForAModelWithoutCudaCode) {
  std::unique_ptr<ToyModel> toy = sumTreeModel();
  cavs_model *model = nullptr;
  const cavs_device_options automatic{CAVS_DEVICE_AUTO, 0, 0};
  ASSERT_EQ(cavs_model_create_on_device(&toy->def, 1, &automatic, &model),
            CAVS_OK)
      << lastError();
  EXPECT_EQ(cavs_model_device(model), CAVS_DEVICE_CPU);
  EXPECT_STREQ(cavs_model_device_name(model), "cpu");
  cavs_model_destroy(model);
  // The fallback drops the ordinal of the GPU it would have taken.
  const cavs_device_options thirdGpu{CAVS_DEVICE_AUTO, 3, 0};
  ASSERT_EQ(cavs_model_create_on_device(&toy->def, 1, &thirdGpu, &model),
            CAVS_OK)
      << lastError();
  EXPECT_EQ(cavs_model_device(model), CAVS_DEVICE_CPU);
  cavs_model_destroy(model);
}

TEST(DeviceTest, ModelWithoutCpuCodeRefusesTheCpu) {
  std::unique_ptr<ToyModel> toy = sumTreeModel();
  toy->def.has_cpu = 0;
  cavs_model *model = nullptr;
  EXPECT_EQ(cavs_model_create(&toy->def, 1, &model), CAVS_ERROR_UNSUPPORTED);
  EXPECT_NE(lastError().find("compiled without CPU code"), std::string::npos)
      << lastError();
}

TEST(DeviceTest, RejectsBadOptions) {
  std::unique_ptr<ToyModel> toy = sumTreeModel();
  cavs_model *model = nullptr;
  const cavs_device_options bad{static_cast<cavs_device_kind>(7), 0, 0};
  EXPECT_EQ(cavs_model_create_on_device(&toy->def, 1, &bad, &model),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("unknown device kind 7"), std::string::npos);
  EXPECT_EQ(cavs_model_create_on_device(&toy->def, 1, nullptr, &model),
            CAVS_ERROR_INVALID_ARGUMENT);
  const cavs_device_options secondCpu{CAVS_DEVICE_CPU, 5, 0};
  EXPECT_EQ(cavs_model_create_on_device(&toy->def, 1, &secondCpu, &model),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("device ordinal 5 on the CPU, which is device 0"),
            std::string::npos);
  const cavs_device_options negative{CAVS_DEVICE_AUTO, -1, 0};
  EXPECT_EQ(cavs_model_create_on_device(&toy->def, 1, &negative, &model),
            CAVS_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("device ordinal -1 is negative"),
            std::string::npos);
}

} // namespace
