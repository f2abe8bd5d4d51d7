//===- TestSupport.h - shared helpers of the runtime tests ----------------===//
//
// A per-test temporary directory for input files, a matcher-like helper for
// expected failures (status and message text), and checkSchedule, which
// verifies every documented property of a schedule against its batch.
//
//===----------------------------------------------------------------------===//
#ifndef CAVS_TEST_RUNTIME_TESTSUPPORT_H
#define CAVS_TEST_RUNTIME_TESTSUPPORT_H

#include "cavs/runtime.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace cavs::test {

/// A fresh directory under the system temp dir, removed with the fixture;
/// unique per test and process so ctest can run tests in parallel.
class TempDirTest : public ::testing::Test {
protected:
  void SetUp() override;
  void TearDown() override;
  /// Writes `text` to `name` in the temp dir and returns its path.
  std::string writeFile(const std::string &name, const std::string &text);
  std::filesystem::path dir;
};

/// Runs `body`, expecting it to throw cavs::Error with `status` and a message
/// containing every string in `fragments`.
template <typename Body>
void expectError(Body &&body, cavs_status status,
                 std::initializer_list<std::string> fragments) {
  try {
    body();
    ADD_FAILURE() << "expected a cavs::Error (" << cavs_status_string(status)
                  << ")";
  } catch (const Error &error) {
    EXPECT_EQ(error.status(), status)
        << cavs_status_string(error.status()) << ": " << error.what();
    for (const std::string &fragment : fragments)
      EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos)
          << "message '" << error.what() << "' lacks '" << fragment << "'";
  }
}

/// Checks every property cavs/schedule.h promises for `schedule` of `batch`:
/// a permutation of the vertices into rows, tasks tiling the rows, grouping
/// by type, children in earlier levels, maximal batching (level = height),
/// local rows, children rows, views, parent counts and reverse replay.
/// `byLevels`: the tasks must also be the levels (every vertex at its
/// height), as CAVS_SCHEDULE_LEVELS makes them; otherwise each task's level
/// is its index.
void checkSchedule(const GraphBatch &batch, const Schedule &schedule,
                   bool byLevels = true);

/// The height of every vertex (0 without children), computed independently
/// of the scheduler by relaxing until nothing changes.
std::vector<int32_t> referenceHeights(const GraphBatch &batch);

} // namespace cavs::test

#endif // CAVS_TEST_RUNTIME_TESTSUPPORT_H
