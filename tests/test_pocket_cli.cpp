// `cubex pocket solve|table` end to end: output, --json, the cache, errors and exit statuses.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cubex/pocket/cube.hpp"
#include "cubex/util/files.hpp"

namespace pk = cubex::pocket;

namespace {

struct CliRun {
  int rc = -1;
  std::string out, err;
};

// One temporary folder for the whole file, removed at exit: its cache/ is the XDG cache of every
// run.
struct WorkDir {
  std::filesystem::path path;
  WorkDir() {
    std::string tmpl =
        (std::filesystem::temp_directory_path() / "cubex_pocket_cli_XXXXXX").string();
    path = ::mkdtemp(tmpl.data());
  }
  ~WorkDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

const std::filesystem::path& work_dir() {
  static const WorkDir dir;
  return dir.path;
}

// Runs `cubex ARGS` (ARGS already quoted for the shell) with the cache in the temporary folder.
CliRun run_cubex(const std::string& args) {
  const auto err = work_dir() / "stderr.txt";
  const std::string cmd = "XDG_CACHE_HOME='" + (work_dir() / "cache").string() +
                          "' '" CUBEX_EXE "' " + args + " 2>'" + err.string() + "'";
  CliRun r;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int status = ::pclose(p);
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = cubex::read_file(err.string());
  return r;
}

bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// The text after "key: " on its line.
std::string field(const std::string& out, const std::string& key) {
  const auto k = out.find(key + ": ");
  if (k == std::string::npos) return "";
  const auto start = k + key.size() + 2;
  return out.substr(start, out.find('\n', start) - start);
}

}  // namespace

TEST(PocketCli, SolvesAScrambleOptimally) {
  const CliRun r = run_cubex("pocket solve \"R U R' U'\"");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(field(r.out, "length"), "4 (half-turn metric, optimal)") << r.out;
  pk::Facelets f = pk::solved_facelets();
  pk::apply(f, pk::parse_turns("R U R' U'"));
  pk::apply(f, pk::parse_turns(field(r.out, "solution")));
  EXPECT_TRUE(pk::is_solved(f)) << r.out;
}

TEST(PocketCli, JsonHasSequenceAndDistance) {
  const std::string out = (work_dir() / "solve.json").string();
  // R2 counts 2 in the quarter-turn metric; F D' R2 B U2 is 7 quarter turns.
  const std::string scramble = "F D' R2 B U2";
  const CliRun r = run_cubex("pocket solve --metric qtm --json '" + out + "' \"" + scramble + "\"");
  ASSERT_EQ(r.rc, 0) << r.err;
  const auto j = nlohmann::json::parse(cubex::read_file(out));
  EXPECT_EQ(j["metric"], "qtm");
  ASSERT_TRUE(j["sequence"].is_array());
  EXPECT_EQ(j["distance"].get<int>(), static_cast<int>(j["sequence"].size()));
  EXPECT_LE(j["distance"].get<int>(), 7);
  pk::Facelets f = pk::solved_facelets();
  pk::apply(f, pk::parse_turns(scramble));
  EXPECT_EQ(j["state"], pk::to_string(f));
  for (const auto& m : j["sequence"]) {
    const auto t = pk::parse_turns(m.get<std::string>());
    ASSERT_EQ(t.size(), 1u);
    EXPECT_NE(t[0].quarters, 2) << "a half turn in a quarter-turn solution";
    pk::apply(f, t);
  }
  EXPECT_TRUE(pk::is_solved(f));
}

TEST(PocketCli, SolvesAStickerState) {
  // The scramble "F R U2" written out in other colours (white up, red right...), spaces ignored.
  pk::Facelets f = pk::solved_facelets();
  pk::apply(f, pk::parse_turns("F R U2"));
  std::string state;
  for (int i = 0; i < pk::kStickers; ++i) {
    if (i && i % 4 == 0) state += ' ';
    state += "WRGYOB"[pk::kFaces.find(f[i])];
  }
  const CliRun r = run_cubex("pocket solve --state '" + state + "'");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(field(r.out, "length"), "3 (half-turn metric, optimal)") << r.out;
  pk::apply(f, pk::parse_turns(field(r.out, "solution")));
  EXPECT_TRUE(pk::is_solved(f)) << r.out;
}

TEST(PocketCli, TablePrintsTheDistribution) {
  const CliRun r = run_cubex("pocket table --metric qtm");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(has(r.out, "      11   1,350,852\n")) << r.out;
  EXPECT_EQ(field(r.out, "total"), "3,674,160");
  EXPECT_EQ(field(r.out, "God's number"), "14");
  const CliRun h = run_cubex("pocket table");
  ASSERT_EQ(h.rc, 0) << h.err;
  EXPECT_EQ(field(h.out, "God's number"), "11");
  EXPECT_TRUE(has(h.out, "      10     623,800\n")) << h.out;
}

TEST(PocketCli, CorruptCacheIsRebuilt) {
  ASSERT_EQ(run_cubex("pocket table --metric htm").rc, 0);  // makes sure the cache exists
  const std::string path = (work_dir() / "cache" / "cubex" / "pocket-htm.v1.table").string();
  std::string bytes = cubex::read_file(path);
  bytes[1000] ^= 0x7;
  cubex::write_file_atomic(path, bytes);
  const CliRun r = run_cubex("pocket table --metric htm");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(has(r.err, "rejected (checksum mismatch), rebuilt")) << r.err;
  EXPECT_EQ(field(r.out, "God's number"), "11");
  const CliRun again = run_cubex("pocket table --metric htm");
  EXPECT_TRUE(again.err.empty()) << again.err;
  EXPECT_TRUE(has(again.out, "table: loaded from")) << again.out;
}

TEST(PocketCli, BadInputExitsTwoAndWritesNothing) {
  const std::string out = (work_dir() / "never.json").string();
  struct Case {
    std::string args, message;
  };
  const Case cases[] = {
      {"pocket solve \"R U Q\"", "scramble:1:5: expected a move"},
      {"pocket solve --state UUUURRRRFFFFDDDDLLLLBBB", "expected 24 stickers"},
      {"pocket solve --state UUURRRRRFFFFDDDDLLLLBBBB", "expected 4 stickers of each colour"},
      {"pocket solve --state UUUFURRRFRFFDDDDLLLLBBBB", "twists add up"},
      {"pocket solve --state UUUUFRRRFRFFDDDDLLLLBBBB", "mirror image"},
      {"pocket solve --metric ftm R", "expected --metric htm or qtm"},
      {"pocket solve", "expected a SCRAMBLE or --state"},
      {"pocket solve R --state UUUURRRRFFFFDDDDLLLLBBBB", "exactly one"},
      {"pocket shuffle", "unknown command 'shuffle'"},
      {"pocket table --frobnicate", "frobnicate"},
  };
  for (const Case& c : cases) {
    const CliRun r = run_cubex(c.args + " --json '" + out + "'");
    EXPECT_EQ(r.rc, 2) << c.args;
    EXPECT_TRUE(has(r.err, c.message)) << c.args << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << c.args << ": " << r.out;
  }
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(PocketCli, HelpDescribesEverything) {
  const CliRun top = run_cubex("pocket --help");
  EXPECT_EQ(top.rc, 0);
  EXPECT_TRUE(has(top.out, "solve") && has(top.out, "table")) << top.out;
  const CliRun solve = run_cubex("pocket solve --help");
  EXPECT_EQ(solve.rc, 0);
  for (const char* s : {"--state", "--metric", "--json", "--no-cache", "SCRAMBLE", "U R F D L B"}) {
    EXPECT_TRUE(has(solve.out, s)) << s;
  }
  const CliRun table = run_cubex("pocket table --help");
  EXPECT_EQ(table.rc, 0);
  for (const char* s : {"--metric", "--json", "God's number"}) EXPECT_TRUE(has(table.out, s)) << s;
  const CliRun all = run_cubex("--help");
  EXPECT_TRUE(has(all.out, "pocket")) << all.out;
}

// --json is checked before any work like every command's outputs: not the table's cache file
// (by its path or through a symbolic link), not a folder, not in a folder that cannot take files.
// Each refusal exits 2 with the reason, prints nothing on standard output and leaves the cache as
// it was.
TEST(PocketCli, JsonOutputIsCheckedBeforeAnyWork) {
  ASSERT_EQ(run_cubex("pocket table --metric htm").rc, 0);  // makes sure the cache exists
  const auto cache = work_dir() / "cache" / "cubex" / "pocket-htm.v1.table";
  const std::string before = cubex::read_file(cache.string());
  const auto link = work_dir() / "table-link.json";
  std::filesystem::remove(link);
  std::filesystem::create_symlink(cache, link);
  const auto locked = work_dir() / "locked";
  std::filesystem::create_directories(locked);
  namespace fs = std::filesystem;
  fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec);
  const bool root = ::geteuid() == 0;  // root writes into any folder
  struct Case {
    std::string out, message;
  };
  std::vector<Case> cases = {
      {cache.string(), "--json " + cache.string() + " names the input file"},
      {link.string(), "--json " + link.string() + " names the input file"},
      {work_dir().string(), "cannot write " + work_dir().string() + ": Is a directory"},
      {(work_dir() / "no" / "such" / "out.json").string(),
       "the folder " + (work_dir() / "no" / "such").string() + " does not exist"},
  };
  if (!root) cases.push_back({(locked / "out.json").string(), "Permission denied"});
  for (const Case& c : cases) {
    for (const std::string& cmd : {std::string("pocket table"), std::string("pocket solve R U")}) {
      const CliRun r = run_cubex(cmd + " --json '" + c.out + "'");
      EXPECT_EQ(r.rc, 2) << cmd << " --json " << c.out << ": " << r.err;
      EXPECT_TRUE(has(r.err, c.message)) << r.err;
      EXPECT_TRUE(r.out.empty()) << r.out;
    }
  }
  EXPECT_EQ(cubex::read_file(cache.string()), before) << "the cache was overwritten";
  EXPECT_FALSE(std::filesystem::exists(locked / "out.json"));
  // With --no-cache no file is read, and --json takes any path it can write.
  const auto fresh = work_dir() / "fresh.json";
  const CliRun ok = run_cubex("pocket table --no-cache --json '" + fresh.string() + "'");
  EXPECT_EQ(ok.rc, 0) << ok.err;
  EXPECT_TRUE(std::filesystem::exists(fresh));
  std::filesystem::permissions(locked, std::filesystem::perms::owner_all);
}
