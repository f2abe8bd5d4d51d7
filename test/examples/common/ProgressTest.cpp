//===- ProgressTest.cpp - the progress bar and the plain progress lines ---===//
//
// The bar on a terminal (redrawn in place, erased at the end) and the lines
// elsewhere (one per interval, each flushed at once: the test reads the
// file through another stream while the bar still holds it), with the
// terminal check injected.
//
//===----------------------------------------------------------------------===//
#include "Progress.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

namespace {

using cavs_examples::ProgressBar;

class ProgressTest : public ::testing::Test {
protected:
  void SetUp() override {
    path_ = testing::TempDir() + "progress-" +
            testing::UnitTest::GetInstance()->current_test_info()->name();
    out_ = std::fopen(path_.c_str(), "w");
    ASSERT_NE(out_, nullptr);
  }
  void TearDown() override { std::fclose(out_); }

  /// What reached the file, without flushing `out_`.
  std::string written() const {
    std::ifstream in(path_);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  std::string path_;
  std::FILE *out_ = nullptr;
};

/// Longer than the 20 ms interval of the tests of plain lines.
void pause() { std::this_thread::sleep_for(std::chrono::milliseconds(30)); }

TEST_F(ProgressTest, TerminalRedrawsABarInPlaceAndErasesIt) {
  {
    ProgressBar bar("epoch 1", 4, 10, out_, /*terminal=*/true);
    bar.update(1, "loss/tree 2.500"); // the first state at once
    bar.update(2, "loss/tree 2.000"); // within 0.1 s of it: not drawn
    bar.update(4, "loss/tree 1.500"); // the last state at once
    const std::string text = written();
    EXPECT_EQ(text.find('\n'), std::string::npos) << text;
    EXPECT_NE(text.find("\r\033[Kepoch 1 [########......................]  "
                        "25%"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("loss/tree 2.000"), std::string::npos) << text;
    EXPECT_NE(text.find("[##############################] 100%"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.substr(text.size() - 15), "loss/tree 1.500") << text;
  }
  const std::string text = written();
  EXPECT_EQ(text.substr(text.size() - 4), "\r\033[K") << "erased at the end";
}

TEST_F(ProgressTest, ElsewherePrintsAFlushedLineEveryInterval) {
  ProgressBar bar("epoch 2", 8, 0.02, out_, /*terminal=*/false);
  pause();
  bar.update(2, "loss/tree 2.500");
  pause();
  bar.update(8, "loss/tree 2.000");
  bar.finish();
  const std::string text = written();
  EXPECT_EQ(text.find('\r'), std::string::npos) << text;
  EXPECT_EQ(text.find('\033'), std::string::npos) << text;
  std::istringstream lines(text);
  std::string first, second, rest;
  ASSERT_TRUE(std::getline(lines, first)) << text;
  ASSERT_TRUE(std::getline(lines, second)) << text;
  EXPECT_FALSE(std::getline(lines, rest)) << text;
  EXPECT_EQ(first.rfind("epoch 2: 2/8 (25%), ", 0), 0u) << first;
  EXPECT_NE(first.find(" s, eta "), std::string::npos) << first;
  EXPECT_EQ(first.substr(first.size() - 15), "loss/tree 2.500");
  EXPECT_EQ(second.rfind("epoch 2: 8/8 (100%), ", 0), 0u) << second;
}

// An interval under a clock tick prints every update (it rounded to zero,
// which turned progress off).
TEST_F(ProgressTest, ElsewhereTinyIntervalPrintsEveryUpdate) {
  ProgressBar bar("epoch 1", 2, 1e-10, out_, /*terminal=*/false);
  pause();
  bar.update(1, "loss/tree 1.000");
  pause();
  bar.update(2, "loss/tree 1.000");
  bar.finish();
  const std::string text = written();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2) << text;
}

TEST_F(ProgressTest, ElsewhereNothingWithinTheInterval) {
  // Intervals past int64 nanoseconds (9.2e9 s) too: they overflowed into
  // negative ones, and every update printed.
  for (double seconds : {10.0, 1e10, 1e300}) {
    ProgressBar bar("epoch 1", 3, seconds, out_, /*terminal=*/false);
    for (int64_t done = 1; done <= 3; ++done)
      bar.update(done, "loss/word 5.000");
    bar.finish();
    EXPECT_EQ(written(), "") << seconds;
  }
}

TEST_F(ProgressTest, ZeroIntervalIsSilentEverywhere) {
  for (bool terminal : {true, false}) {
    ProgressBar bar("epoch 1", 3, 0, out_, terminal);
    pause();
    bar.update(1, "loss/tree 1.000");
    bar.update(3, "loss/tree 1.000");
  }
  EXPECT_EQ(written(), "");
}

} // namespace
