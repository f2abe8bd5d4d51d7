//===- AlignedBufferTest.cpp - the runtime's flat float arrays ------------===//
//
// params/AlignedBuffer.h: arrays start on a cache line, large ones on a
// 2 MiB huge page with the kernel advised to back them with huge pages
// (the "hg" flag of their mapping in /proc/self/smaps), and every array
// starts zeroed.
//
//===----------------------------------------------------------------------===//
#include "params/AlignedBuffer.h"
#include "support/Guard.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

namespace cavs::runtime {
namespace {

uintptr_t address(const float *pointer) {
  return reinterpret_cast<uintptr_t>(pointer);
}

bool allZero(const AlignedBuffer &buffer) {
  return std::all_of(buffer.data(), buffer.data() + buffer.size(),
                     [](float x) { return x == 0.0f; });
}

/// The VmFlags line of the mapping of /proc/self/smaps that holds `at`.
std::string mappingFlags(uintptr_t at) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    uintptr_t begin = 0, end = 0;
    char dash = 0;
    std::istringstream range(line);
    if (range >> std::hex >> begin >> dash >> end && dash == '-') {
      inside = begin <= at && at < end;
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0)
      return line;
  }
  return "";
}

/// Whether this kernel makes transparent huge pages when asked.
bool hugePagesOnRequest() {
  std::ifstream enabled("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  std::getline(enabled, modes);
  return modes.find("[always]") != std::string::npos ||
         modes.find("[madvise]") != std::string::npos;
}

TEST(AlignedBuffer, SmallArraysStartOnACacheLineZeroed) {
  AlignedBuffer buffer(1000);
  ASSERT_EQ(buffer.size(), 1000);
  EXPECT_EQ(address(buffer.data()) % kBufferAlignment, 0u);
  EXPECT_TRUE(allZero(buffer));
  EXPECT_EQ(AlignedBuffer(0).data(), nullptr);
}

TEST(AlignedBuffer, LargeArraysStartOnAHugePageZeroed) {
  const int64_t floats = kHugePageBytes / sizeof(float) * 3 + 17;
  AlignedBuffer buffer(floats);
  EXPECT_EQ(address(buffer.data()) % kHugePageBytes, 0u);
  EXPECT_TRUE(allZero(buffer));
  buffer.data()[floats - 1] = 1.0f; // all of it is ours

  AlignedBuffer moved = std::move(buffer);
  EXPECT_EQ(moved.size(), floats);
  EXPECT_EQ(moved.data()[floats - 1], 1.0f);
}

TEST(AlignedBuffer, LargeArraysAreAdvisedIntoHugePages) {
  if (!hugePagesOnRequest())
    GTEST_SKIP() << "transparent huge pages are off or absent here";
  AlignedBuffer large(kHugePageBytes / sizeof(float) * 2);
  EXPECT_NE(mappingFlags(address(large.data())).find(" hg"), std::string::npos)
      << mappingFlags(address(large.data()));
}

// Tests that a failed allocation says how much it asked for, and that the
// C ABI's guard puts that size into its out-of-memory message.
TEST(AlignedBuffer, FailedAllocationNamesItsSize) {
  constexpr int64_t kFloats = int64_t(1) << 60;
  try {
    AlignedBuffer impossible(kFloats);
    ADD_FAILURE() << "4 EiB were allocated";
  } catch (const AllocationFailure &failure) {
    EXPECT_EQ(failure.bytes(), kFloats * int64_t(sizeof(float)));
  }
  EXPECT_EQ(guard([] {
              AlignedBuffer impossible(kFloats);
              return Status();
            }),
            CAVS_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(lastError(), "out of memory: cannot allocate a buffer of "
                         "4611686018427387904 bytes (4294967296.00 GiB)");
}

} // namespace
} // namespace cavs::runtime
