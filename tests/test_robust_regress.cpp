// Replays, through the same code as the libFuzzer targets (tests/fuzz/fuzz_targets.hpp), every
// seed of tests/fuzz/corpus/fuzz_NAME and every input that ever broke a reader, kept in
// tests/fuzz/regressions/fuzz_NAME (add a fuzzer's crash file there). Each must be read or
// rejected with an InputError, with the round-trip properties holding; this runs in the normal
// suite and under the sanitizers (tools/test.sh), without clang.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "cubex/io/json.hpp"
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

}  // namespace
}  // namespace cubex
