// Replays, through the same code as the libFuzzer targets (tests/fuzz/fuzz_targets.hpp), every
// seed of tests/fuzz/corpus/fuzz_NAME and every input that ever broke a reader, kept in
// tests/fuzz/regressions/fuzz_NAME (add a fuzzer's crash file there). Each must be read or
// rejected with an InputError, with the round-trip properties holding; this runs in the normal
// suite and under the sanitizers (tools/test.sh), without clang.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "cubex/util/json.hpp"
#include "fuzz/fuzz_targets.hpp"
#include "test_util.hpp"

namespace cubex {
namespace {

namespace fs = std::filesystem;

std::size_t replay(const std::string& folder) {
  std::size_t files = 0;
  for (const auto& [name, run] : fuzz::kTargets) {
    const fs::path dir =
        fs::path(CUBEX_SOURCE_DIR) / "tests/fuzz" / folder / ("fuzz_" + std::string(name));
    if (!fs::exists(dir)) continue;
    for (const auto& e : fs::directory_iterator(dir)) {
      SCOPED_TRACE(e.path().string());
      const std::string text = test::slurp(e.path().string());
      EXPECT_NO_THROW(run(text));
      ++files;
    }
  }
  return files;
}

TEST(RobustRegress, SeedCorpora) {
  EXPECT_GE(replay("corpus"), 7u);
}

TEST(RobustRegress, FoundInputs) {
  EXPECT_GE(replay("regressions"), 2u);
}

// The first finding: nlohmann reports a number beyond double range as out_of_range, which the
// CLI took for an internal error (status 1); now it is bad input with its line and column.
TEST(RobustRegress, NumberBeyondDoubleRange) {
  for (const char* text : {"[1e400]", "[-1e999]", "{\"a\":\n 12e1234567}"}) {
    SCOPED_TRACE(text);
    try {
      parse_json_text(text, "n.json");
      FAIL() << "accepted";
    } catch (const InputError& e) {
      EXPECT_NE(e.message().find("expected a number within the range of a double"),
                std::string::npos);
      EXPECT_GE(e.column(), 2);
    }
  }
  EXPECT_EQ(parse_json_text("[1e300, 1e-400, 99999999999999999999]", "ok.json").size(), 3u);
}

// Non-negative JSON integers are unsigned in nlohmann: get<long>() read 18446744073709551615 as
// -1, a valid coordinate, so a piece with a cell at 2^64 - 1 was accepted as one at -1.
TEST(RobustRegress, HugeUnsignedIntegersAreNotNegative) {
  EXPECT_EQ(json_int(nlohmann::json::parse("18446744073709551615"), -1000, 1000), std::nullopt);
  EXPECT_EQ(json_int(nlohmann::json::parse("9223372036854775808"), -1000, 1000), std::nullopt);
  EXPECT_EQ(json_int(nlohmann::json::parse("-5"), -1000, 1000), -5);
  EXPECT_EQ(json_int(nlohmann::json::parse("7"), 1, 1000), 7);
  EXPECT_EQ(json_int(nlohmann::json::parse("0"), 1, 1000), std::nullopt);
  EXPECT_EQ(json_int(nlohmann::json::parse("7.0"), 1, 1000), std::nullopt);
  const nlohmann::json voxel = nlohmann::json::parse(R"({"container": {"box": [2, 1, 1]},
      "pieces": [{"name": "a", "cells": [[0,0,0], [18446744073709551615,0,0]]}]})");
  try {
    voxel::model_from_json(voxel, "u.json");
    FAIL() << "accepted a cell at 2^64 - 1";
  } catch (const InputError& e) {
    EXPECT_EQ(e.json_path(), "pieces[0].cells[1][0]");
  }
  const nlohmann::json hc = nlohmann::json::parse(
      R"({"kind": "happy-cube", "size": 5, "structure": [[0,0,0], [18446744073709551615,0,0]]})");
  try {
    happycube::parse_json(hc, "u.json");
    FAIL() << "accepted a cube at 2^64 - 1";
  } catch (const InputError& e) {
    EXPECT_EQ(e.json_path(), "structure[1][0]");
  }
}

}  // namespace
}  // namespace cubex
