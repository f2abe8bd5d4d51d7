//===- JsonTest.cpp - JsonObject: members, escaping, non-finite numbers ---===//
#include "Json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace {

using cavs_examples::JsonObject;

TEST(JsonObjectTest, MembersInOrderOnOneLine) {
  JsonObject inner;
  inner.number("forward", 1.5).integer("steps", -3);
  JsonObject outer;
  outer.text("event", "epoch")
      .integer("epoch", 2)
      .number("lr", 0.05)
      .object("phases", inner)
      .object("empty", JsonObject());
  EXPECT_EQ(outer.str(), R"({"event": "epoch", "epoch": 2, "lr": 0.05, )"
                         R"("phases": {"forward": 1.5, "steps": -3}, )"
                         R"("empty": {}})");
}

TEST(JsonObjectTest, NumbersKeepSevenDigitsAndNonFiniteOnesAreNull) {
  JsonObject line;
  line.number("pi", 3.14159265358979)
      .number("big", 1e300)
      .number("nan", std::nan(""))
      .number("inf", std::numeric_limits<double>::infinity())
      .number("minus_inf", -std::numeric_limits<double>::infinity());
  EXPECT_EQ(line.str(), R"({"pi": 3.141593, "big": 1e+300, "nan": null, )"
                        R"("inf": null, "minus_inf": null})");
}

TEST(JsonObjectTest, StringsAreEscaped) {
  JsonObject line;
  line.text("quote\"key", "back\\slash \"quoted\"\n\ttab\x01 é");
  EXPECT_EQ(line.str(), R"({"quote\"key": "back\\slash \"quoted\"\u000a)"
                        R"(\u0009tab\u0001 é"})");
}

} // namespace
