// The checkpoint file (cubex/output/checkpoint.hpp): counts that would wrap and pending spans
// that do not add up are refused, a consistent state is accepted.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cinttypes>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "cubex/burrtools/xmpuzzle.hpp"
#include "cubex/core/solver.hpp"
#include "cubex/error.hpp"
#include "cubex/limits.hpp"
#include "cubex/output/checkpoint.hpp"
#include "cubex/puzzle.hpp"
#include "cubex/symmetry.hpp"
#include "cubex/util/files.hpp"
#include "cubex/util/json.hpp"
#include "cubex/voxel/model.hpp"
#include "cubex/voxel/read.hpp"
#include "cubex/voxel/write.hpp"
#include "test_util.hpp"
using cubex::test::run_cubex;
using cubex::test::slurp;
using cubex::test::TempDir;
using nlohmann::json;

// ---- checkpoints: counts that cannot wrap, done and pending that add up ------------------------

namespace {

cubex::JobState sample_state() {
  cubex::JobState st;
  st.tree.fingerprint = "f";
  st.tree.items = 3;
  st.tree.options = 4;
  st.tree.order = "sorted";
  st.tree.rule = "mrv";
  st.tree.judge = "group of 2";
  st.tree.cut = 16;
  st.counts.total = 20;
  st.counts.unique = 10;
  st.counts.symmetric = 1;
  st.counts.solutions = 12;
  st.counts.nodes = 100;
  st.counts.updates = 1000;
  st.weight_total = 1;
  st.weight_done = 0.5;
  st.pending.push_back({{1}, {2}, false, 0.25});
  st.pending.push_back({{3}, {}, true, 0.25});
  return st;
}

// The checkpoint of `st` changed by `edit`, its checksum recomputed (as a forger would).
json forged(const cubex::JobState& st, const std::function<void(json&)>& edit) {
  cubex::CheckpointRun run{"p.json", "auto", "bitset", 2};
  json j = cubex::checkpoint_json(st, run);
  edit(j);
  json copy = j;
  copy.erase("checksum");
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : cubex::dump_json(copy)) h = (h ^ c) * 1099511628211ULL;
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, h);
  j["checksum"] = buf;
  return j;
}

std::string refusal(const json& j) {
  try {
    cubex::checkpoint_from_json(j, "c.json");
  } catch (const cubex::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(CheckpointCounts, ConsistentStateIsAccepted) {
  const json j = forged(sample_state(), [](json&) {});
  EXPECT_EQ(refusal(j), "");
  const cubex::JobState back = cubex::checkpoint_from_json(j, "c.json");
  EXPECT_EQ(back.counts.total, 20u);
  EXPECT_EQ(back.pending.size(), 2u);
}

TEST(CheckpointCounts, CountsThatWouldWrapAreRefused) {
  const std::uint64_t most = ~std::uint64_t(0);
  EXPECT_NE(refusal(forged(sample_state(), [&](json& j) { j["counts"]["total"] = most; }))
                .find("counts.total: expected a count below 2^63"),
            std::string::npos);
  EXPECT_NE(refusal(forged(sample_state(), [&](json& j) { j["counts"]["nodes"] = most; }))
                .find("counts.nodes"),
            std::string::npos);
  // Inconsistent counts: more classes than solutions met, a total beyond 2 per class.
  EXPECT_NE(refusal(forged(sample_state(), [](json& j) { j["counts"]["unique"] = 13u; }))
                .find("expected symmetric <= unique <= solutions"),
            std::string::npos);
  EXPECT_NE(refusal(forged(sample_state(), [](json& j) { j["counts"]["total"] = 21u; }))
                .find("unique <= total <= unique x 2"),
            std::string::npos);
  EXPECT_NE(refusal(forged(sample_state(), [](json& j) { j["counts"]["total"] = 9u; })), "");
}

TEST(CheckpointCounts, DroppedPendingSpanIsRefused) {
  const std::string why = refusal(forged(sample_state(), [](json& j) { j["pending"].erase(0); }));
  EXPECT_NE(why.find("a span is missing"), std::string::npos) << why;
  EXPECT_NE(refusal(forged(sample_state(), [](json& j) { j["progress"]["weight_done"] = 1.5; })),
            "");
}
