// Robustness after parsing (issue 20): output encoding, library limits, line endings, duplicate
// JSON keys, .hcq structure, control characters in names, option values, signals, temporary
// files, binary input and out-of-memory. Each test feeds the input that showed the problem.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "cubex/core/problem.hpp"
#include "cubex/core/solver.hpp"
#include "cubex/error.hpp"
#include "cubex/io/files.hpp"
#include "cubex/io/json.hpp"
#include "cubex/io/knuth.hpp"
#include "cubex/limits.hpp"
#include "cubex/symmetry.hpp"
#include "test_util.hpp"

extern char** environ;

namespace cubex {
namespace {

using test::run_cubex;
using test::slurp;
using test::TempDir;

std::string q(const std::string& s) {
  return "'" + s + "'";
}

bool has_control_byte(const std::string& s) {
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\n' && c != '\t') || u == 0x7f) return true;
  }
  return false;
}

// A 2 x 2 x 1 box from an L tromino and a monocube: 4 solutions without symmetry.
const char* kSmallVoxel =
    R"({"name": "box", "container": {"box": [2, 2, 1]},
        "pieces": [{"name": "L", "layers": [["##", "#."]]}, {"name": "o", "layers": [["#"]]}]})";

// ---------------------------------------------------------------------------------------------
// 1. Bytes that are not UTF-8.

TEST(RobustAfterEncoding, NonUtf8ItemNameInDlxIsRefusedWithItsPlace) {
  TempDir dir;
  const std::string f = dir.file("x.dlx", "A B\xff C\nA\nB\xff C\n");
  const auto r = run_cubex("solve " + q(f) + " --json " + q(dir / "out.json"));
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("x.dlx:1:4: expected an item name in UTF-8, found the byte \\xff"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "out.json"));
}

TEST(RobustAfterEncoding, NonUtf8HcqNameIsRefusedWithItsPlace) {
  TempDir dir;
  std::string hcq = slurp(test::source_file("puzzles/happycube/HC_BQ_01.hcq"));
  hcq.replace(hcq.find("HC_BQ_001"), 9, "caf\xe9");
  const std::string f = dir.file("x.hcq", hcq);
  const auto r = run_cubex("solve " + q(f) + " --json " + q(dir / "o.json"));
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("x.hcq:1:10: expected UTF-8 text, found the byte \\xe9"),
            std::string::npos)
      << r.output;
}

// The input file's own name need not be UTF-8: --json, --checkpoint, --html and --svg write it
// with U+FFFD for each byte that is not (and exit 0, never 1).
TEST(RobustAfterEncoding, NonUtf8FileNameIsWrittenReplaced) {
  TempDir dir;
  const std::string dlx = dir.file("caf\xe9.dlx", "A B\nA\nB\nA B\n");
  const auto r = run_cubex("solve " + q(dlx) + " --all --json " + q(dir / "o.json") +
                           " --checkpoint " + q(dir / "ck.json"));
  ASSERT_EQ(r.status, 0) << r.output;
  const auto j = nlohmann::json::parse(slurp(dir / "o.json"));
  EXPECT_EQ(j["counts"]["total"], 2);
  EXPECT_NE(j["puzzle"]["file"].get<std::string>().find("caf\xef\xbf\xbd.dlx"), std::string::npos);
  EXPECT_EQ(j["puzzle"]["name"], "caf\xef\xbf\xbd.dlx");
  const auto ck = nlohmann::json::parse(slurp(dir / "ck.json"));
  EXPECT_TRUE(ck["complete"].get<bool>());
  // The terminal gets the name escaped.
  EXPECT_NE(r.output.find("caf\\xe9.dlx (exact-cover"), std::string::npos) << r.output;

  const std::string vox = dir.file("\xe9t\xe9.json", R"({"container": {"box": [2, 2, 1]},
      "pieces": [{"name": "L", "layers": [["##", "#."]]}, {"name": "o", "layers": [["#"]]}]})");
  const auto h =
      run_cubex("render " + q(vox) + " --html " + q(dir / "v.html") + " --svg " + q(dir / "v.svg"));
  ASSERT_EQ(h.status, 0) << h.output;
  EXPECT_NE(slurp(dir / "v.html").find("\xef\xbf\xbdt\xef\xbf\xbd"), std::string::npos);
  const std::string svg = slurp(dir / "v.svg");
  EXPECT_TRUE(is_utf8(svg));
}

TEST(RobustAfterEncoding, DumpJsonReplacesInvalidBytes) {
  const nlohmann::json j = {{"a", std::string("x\xc3(y")}};
  EXPECT_EQ(dump_json(j), "{\"a\":\"x\xef\xbf\xbd(y\"}");
  EXPECT_TRUE(is_utf8("plain \xc3\xa9 \xf0\x9f\x98\x80"));
  EXPECT_FALSE(is_utf8("\xc0\xaf"));          // overlong '/'
  EXPECT_FALSE(is_utf8("\xed\xa0\x80"));      // a surrogate
  EXPECT_FALSE(is_utf8("\xf4\x90\x80\x80"));  // above U+10FFFF
  EXPECT_FALSE(is_utf8("\xe2\x82"));          // cut short
}

// ---------------------------------------------------------------------------------------------
// 2. Library limits.

TEST(RobustAfterLibrary, MultiplicitiesBeyondInt32AreRefused) {
  {
    Problem p;
    EXPECT_THROW(p.add_primary("a", 4294967295u, 4294967295u), ProblemError);
    EXPECT_THROW(p.add_primary("b", 1u << 31, 1u << 31), ProblemError);
    EXPECT_THROW(p.add_primary("c", 3, 2), ProblemError);
    EXPECT_EQ(p.num_items(), 0u);
  }
  // The largest multiplicity taken: three options {a} cannot cover a 2^31-1 times.
  Problem p;
  const ItemId a = p.add_primary("a", kMaxMultiplicity, kMaxMultiplicity);
  for (int k = 0; k < 3; ++k) p.add_option({a});
  Solver s(p);
  const SolveStats st = s.count();
  EXPECT_EQ(st.solutions, 0u);
  EXPECT_TRUE(st.complete);
  // And 0..2^31-1 of three options: every subset, 8 (brute force: 2^3).
  Problem r;
  const ItemId b = r.add_primary("b", 0, kMaxMultiplicity);
  for (int k = 0; k < 3; ++k) r.add_option({b});
  Solver t(r);
  EXPECT_EQ(t.count().solutions, 8u);
}

TEST(RobustAfterLibrary, MatrixNodesAreCountedAsTheSolverLaysThemOut) {
  Problem p;
  const ItemId a = p.add_primary("a"), b = p.add_primary("b"), c = p.add_secondary("c");
  p.add_option({a, c});
  p.add_option({b});
  EXPECT_EQ(matrix_nodes(p), 3u + 2 + 3 + 2);
  EXPECT_EQ(kMaxMatrixNodes, std::uint64_t(std::numeric_limits<std::int32_t>::max()));
}

// Solver s(make_problem()) would keep a reference to a destroyed Problem: it does not compile.
static_assert(std::is_constructible_v<Solver, const Problem&>);
static_assert(!std::is_constructible_v<Solver, Problem&&>);
static_assert(!std::is_constructible_v<Solver, Problem>);
static_assert(!std::is_constructible_v<Solver, Problem&&, Backend>);
static_assert(std::is_constructible_v<SymmetricSolver, const Problem&, ItemGroup>);
static_assert(!std::is_constructible_v<SymmetricSolver, Problem&&, ItemGroup>);

// SolveLimits::max_nodes: a run enters at most that many nodes, and is complete exactly when the
// whole tree fits; both backends stop at the same place of the same tree.
TEST(RobustAfterLibrary, MaxNodesStopsBothBackendsAtTheSameNode) {
  const KnuthFile f = read_knuth_file(test::xc_file("l9.dlx"));
  for (const Backend b : {Backend::kLinks, Backend::kBitset}) {
    SCOPED_TRACE(b == Backend::kLinks ? "links" : "bitset");
    std::unique_ptr<Solver> s;
    try {
      s = std::make_unique<Solver>(f.problem, b);
    } catch (const std::invalid_argument&) {
      continue;  // no AVX2 here
    }
    const SolveStats full = s->count();
    ASSERT_TRUE(full.complete);
    ASSERT_GT(full.nodes, 10u);
    for (std::uint64_t m : {std::uint64_t{1}, full.nodes / 2, full.nodes - 1, full.nodes}) {
      SolveLimits lim;
      lim.max_nodes = m;
      const SolveStats st = s->count(lim);
      EXPECT_EQ(st.nodes, m);
      EXPECT_EQ(st.complete, m == full.nodes);
      EXPECT_LE(st.solutions, full.solutions);
    }
    SolveLimits lim;
    lim.max_nodes = full.nodes + 1;
    EXPECT_TRUE(s->count(lim).complete);
  }
}

// ---------------------------------------------------------------------------------------------
// 3. Line endings, duplicate keys, .hcq structure, control characters, option values.

std::string with_endings(const std::string& text, const std::string& eol) {
  std::string out;
  for (char c : text) {
    if (c == '\n') {
      out += eol;
    } else {
      out += c;
    }
  }
  return out;
}

std::string solutions_line(const std::string& output) {
  const std::size_t at = output.find("solutions: ");
  return at == std::string::npos ? "" : output.substr(at, output.find('\n', at) - at);
}

TEST(RobustAfterInput, CrCrlfAndLfLineEndingsReadAlike) {
  TempDir dir;
  const std::vector<std::pair<std::string, std::string>> files = {
      // An L tromino and a monocube in their assembled places (a 2 x 2 x 1 box): 4 solutions;
      // read as one line (CR-only, before), a single square piece: 1.
      {".txt", "# box\n0 0 0  1 0 0  0 1 0\n1 1 0\n"},
      {".dlx", slurp(test::xc_file("l9.dlx"))},
      {".hcq", slurp(test::source_file("puzzles/happycube/HC_BQ_01.hcq"))},
  };
  for (const auto& [ext, text] : files) {
    const auto lf = run_cubex("solve " + q(dir.file("lf" + ext, text)) + " --symmetry none");
    ASSERT_EQ(lf.status, 0) << lf.output;
    if (ext == ".txt") {
      EXPECT_EQ(solutions_line(lf.output), "solutions: 4");
    }
    for (const std::string eol : {"\r", "\r\n"}) {
      SCOPED_TRACE(ext + (eol == "\r" ? " CR" : " CRLF"));
      const std::string f = dir.file("x" + ext, with_endings(text, eol));
      const auto r = run_cubex("solve " + q(f) + " --symmetry none");
      ASSERT_EQ(r.status, 0) << r.output;
      EXPECT_EQ(solutions_line(r.output), solutions_line(lf.output));
      // The same matrix: the header line after the name (items, options).
      EXPECT_EQ(
          r.output.substr(r.output.find(" ("), r.output.find('\n') - r.output.find(" (")),
          lf.output.substr(lf.output.find(" ("), lf.output.find('\n') - lf.output.find(" (")));
    }
  }
  // A CR-only error still names the right line.
  const auto bad = run_cubex("solve " + q(dir.file("bad.dlx", "A B\rA\rC\r")));
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.output.find("bad.dlx:3:1:"), std::string::npos) << bad.output;
}

TEST(RobustAfterInput, DuplicateJsonKeysAreRefusedWithTheirPath) {
  auto error = [](const std::string& text) -> std::string {
    try {
      parse_json_text(text, "d.json");
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(error(R"({"a": 1, "a": 2})"),
            "d.json: expected each key once in an object, found \"a\" twice");
  EXPECT_EQ(error(R"({"a": {"b": [1, {"c": 1, "d": [], "c": 2}]}})"),
            "d.json: a.b[1]: expected each key once in an object, found \"c\" twice");
  EXPECT_EQ(error(R"([[0], {"x": [1, 2], "y": {"z": 1, "z": 1}}])"),
            "d.json: [1].y: expected each key once in an object, found \"z\" twice");
  EXPECT_EQ(error(R"({"a": {"k": 1}, "b": {"k": 1}, "c": [{"k": 1}, {"k": 2}]})"), "");

  TempDir dir;
  const std::string vox = dir.file(
      "v.json",
      R"({"container": {"box": [2, 2, 1]}, "pieces": [{"name": "L", "layers": [["##", "#."]]},
                   {"name": "o", "layers": [["#"]], "name": "p"}]})");
  auto r = run_cubex("solve " + q(vox));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("v.json: pieces[1]: expected each key once in an object, found \"name\" "
                          "twice"),
            std::string::npos)
      << r.output;
  std::string hc = slurp(test::source_file("puzzles/happycube/confusius.json"));
  hc.replace(hc.find('{') + 1, 0, "\"size\": 5, ");
  r = run_cubex("solve " + q(dir.file("h.json", hc)));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("h.json: expected each key once in an object, found \"size\" twice"),
            std::string::npos)
      << r.output;
}

TEST(RobustAfterInput, HcqWithoutEofRepeatedHeaderOrWithoutNameIsRefused) {
  const std::string seed = slurp(test::source_file("puzzles/happycube/HC_BQ_01.hcq"));
  TempDir dir;
  struct Case {
    std::string text, want;
  };
  std::string no_eof = seed.substr(0, seed.find("EOF"));
  std::string twice = seed;
  twice.insert(twice.find("TYPE:"), "NAME: again\n");
  std::string no_name = seed.substr(seed.find('\n') + 1);
  const std::vector<Case> cases = {
      {no_eof,
       "t.hcq:12: expected EOF after the last tile, found the end of the file (is the "
       "file truncated?)"},
      {twice, "t.hcq:2:1: expected each header line once, found NAME: again (first on line 1)"},
      {no_name, "t.hcq:1: expected a NAME: header line"},
  };
  for (const Case& c : cases) {
    const auto r = run_cubex("solve " + q(dir.file("t.hcq", c.text)));
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find(c.want), std::string::npos) << r.output;
  }
}

// "\u001b[2J" clears the screen: piece and puzzle names are printed escaped everywhere.
TEST(RobustAfterInput, ControlCharactersInNamesNeverReachTheTerminal) {
  TempDir dir;
  const std::string vox = dir.file("c.json", R"({"name": "\u001b]0;title\u0007", "container":
      {"box": [2, 2, 1]}, "pieces": [{"name": "\u001b[2J", "layers": [["##", "#."]]},
      {"name": "\u001b", "layers": [["#"]]}]})");
  auto r = run_cubex("solve " + q(vox) + " --all --symmetry none");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_FALSE(has_control_byte(r.output)) << r.output;
  EXPECT_NE(r.output.find("\\x1b[2J"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\\x1b]0;title\\x07 (voxel"), std::string::npos) << r.output;

  std::string hc = slurp(test::source_file("puzzles/happycube/confusius.json"));
  const std::size_t name = hc.find("\"name\": \"") + 9;
  hc.insert(name, "\\u001b[2J");
  r = run_cubex("solve " + q(dir.file("h.json", hc)) + " --first");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_FALSE(has_control_byte(r.output)) << r.output;

  // verify quotes names from the solutions file in its messages: escaped too.
  const std::string out = dir / "o.json";
  ASSERT_EQ(run_cubex("solve " + q(vox) + " --all --json " + q(out)).status, 0);
  auto j = nlohmann::json::parse(slurp(out));
  j["solutions"][0]["placements"][0]["piece"] = "\x1b[31mred";
  std::ofstream(dir / "bad.json") << j.dump();
  r = run_cubex("verify " + q(vox) + " " + q(dir / "bad.json"));
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_FALSE(has_control_byte(r.output)) << r.output;
}

TEST(RobustAfterInput, NegativeAndEmptyOptionValuesAreRefused) {
  TempDir dir;
  const std::string f = test::xc_file("l9.dlx");
  struct Case {
    std::string args, want;
  };
  const std::vector<Case> cases = {
      {"solve " + q(f) + " --limit -1",
       "expected --limit to be a whole number of 0 or more, found '-1'"},
      {"solve " + q(f) + " --threads -1",
       "expected --threads from 0 (all cores) to 4096, found '-1'"},
      {"solve " + q(f) + " --threads=-1", "expected --threads from 0 (all cores) to 4096"},
      {"solve " + q(f) + " --threads 5000",
       "expected --threads from 0 (all cores) to 4096, found '5000'"},
      {"solve " + q(f) + " --threads ''", "expected a value after --threads"},
      {"solve " + q(f) + " --max-nodes -1", "expected --max-nodes to be a whole number"},
      {"solve " + q(f) + " --json ''", "expected a value after --json, found an empty string"},
      {"solve " + q(f) + " --checkpoint ''", "expected a value after --checkpoint"},
      {"render " + q(f) + " --svg x.svg --solution -1", "expected --solution to be a whole number"},
      {"render " + q(f) + " --html ''", "expected a value after --html"},
      {"render " + q(f) + " --svg x.svg --limit -3", "expected --limit to be a whole number"},
      {"merge a.json --json ''", "expected a value after --json"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    const auto r = run_cubex(c.args);
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find(c.want), std::string::npos) << r.output;
  }
}

TEST(RobustAfterInput, OutputNamingTheInputIsRefused) {
  TempDir dir;
  const std::string text = slurp(test::xc_file("l9.dlx"));
  const std::string f = dir.file("p.dlx", text);
  std::filesystem::create_directory(dir / "sub");
  const std::string other_spelling = dir / "sub/../p.dlx";
  ::symlink(f.c_str(), (dir / "link.dlx").c_str());
  for (const std::string& out : {f, other_spelling, dir / "link.dlx"}) {
    SCOPED_TRACE(out);
    auto r = run_cubex("solve " + q(f) + " --json " + q(out));
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find("names the input file"), std::string::npos) << r.output;
    r = run_cubex("solve " + q(f) + " --checkpoint " + q(out));
    EXPECT_EQ(r.status, 2) << r.output;
  }
  const std::string v = dir.file("v.json", kSmallVoxel);
  auto r = run_cubex("render " + q(v) + " --html " + q(v));
  EXPECT_EQ(r.status, 2) << r.output;
  ASSERT_EQ(run_cubex("solve " + q(v) + " --all --json " + q(dir / "s.json")).status, 0);
  r = run_cubex("render " + q(v) + " --from " + q(dir / "s.json") + " --svg " + q(dir / "s.json"));
  EXPECT_EQ(r.status, 2) << r.output;
  r = run_cubex("merge " + q(dir / "s.json") + " --json " + q(dir / "s.json"));
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("names the input file"), std::string::npos) << r.output;
  EXPECT_EQ(slurp(f), text);
  EXPECT_EQ(slurp(v), kSmallVoxel);
}

// ---------------------------------------------------------------------------------------------
// 4. Signals, temporary files, binary input.

pid_t spawn(const std::vector<std::string>& args, const std::string& log) {
  std::vector<std::string> argv{CUBEX_EXE};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid = -1;
  EXPECT_EQ(posix_spawn(&pid, CUBEX_EXE, &fa, nullptr, cargv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&fa);
  return pid;
}

// A closed terminal or a cluster's job end sends SIGHUP: the run saves its checkpoint and stops
// as for SIGTERM (exit 130), and --resume takes it up.
TEST(RobustAfterSignals, SighupSavesTheCheckpoint) {
  TempDir dir;
  const std::string ck = dir / "ck.json";
  const pid_t pid = spawn({"solve", test::xc_file("bedlam_sym.dlx"), "--threads", "1",
                           "--checkpoint", ck, "--checkpoint-every", "0.05"},
                          dir / "log");
  for (int k = 0; k < 1000 && !std::filesystem::exists(ck); ++k)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_TRUE(std::filesystem::exists(ck)) << slurp(dir / "log");
  std::filesystem::remove(ck);
  kill(pid, SIGHUP);
  int st = 0;
  waitpid(pid, &st, 0);
  const std::string log = slurp(dir / "log");
  ASSERT_TRUE(WIFEXITED(st)) << "killed by signal " << WTERMSIG(st) << "\n" << log;
  EXPECT_EQ(WEXITSTATUS(st), 130) << log;
  EXPECT_NE(log.find("(interrupted: counted so far)"), std::string::npos) << log;
  const auto saved = nlohmann::json::parse(slurp(ck));  // saved again on the way out
  EXPECT_FALSE(saved["complete"].get<bool>());
}

// A temporary left by a killed writer (SIGKILL) is removed by the next write of the same file;
// one of a running process is not.
TEST(RobustAfterFiles, StaleTemporariesOfDeadWritersAreRemoved) {
  TempDir dir;
  const pid_t child = fork();
  if (child == 0) _exit(0);
  waitpid(child, nullptr, 0);  // a PID that no longer runs
  const std::string stale =
      dir.file(".out.json.cubex-tmp." + std::to_string(child) + ".a1b2c3", std::string(1000, 'x'));
  const std::string live =
      dir.file(".out.json.cubex-tmp." + std::to_string(getpid()) + ".d4e5f6", "y");
  const std::string other = dir.file(".other.json.cubex-tmp." + std::to_string(child) + ".zz", "z");
  write_file_atomic(dir / "out.json", "{}\n");
  EXPECT_EQ(slurp(dir / "out.json"), "{}\n");
  EXPECT_FALSE(std::filesystem::exists(stale));
  EXPECT_TRUE(std::filesystem::exists(live));
  EXPECT_TRUE(std::filesystem::exists(other));  // another file's: left for its own next write
  std::size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path)) {
    (void)e;
    ++files;
  }
  EXPECT_EQ(files, 3u);  // out.json, live, other: no temporary of this write left
}

// /dev/zero (or any binary file) is refused at its first block, not after reading 1 GiB.
TEST(RobustAfterFiles, DevZeroIsRefusedAtOnce) {
  TempDir dir;
  for (const std::string ext : {".dlx", ".json", ".txt", ".hcq"}) {
    const std::string link = dir / ("zero" + ext);
    ASSERT_EQ(::symlink("/dev/zero", link.c_str()), 0);
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = run_cubex("solve " + q(link));
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find(link + ":1:1: expected text, found a NUL byte"), std::string::npos)
        << r.output;
    EXPECT_LT(s, 2.0);  // reading 1 GiB of zeros took several seconds
  }
  try {
    read_text_file(dir.file("b.txt", std::string("1 2 3\n4 5\0 6\n", 12)));
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.column(), 4);
  }
}

// ---------------------------------------------------------------------------------------------
// 5. Out of memory: exit 1 with a message, never an abort. RLIMIT_AS caps the address space of
// the child (ASan reserves terabytes of shadow memory, so this cannot run under it).

#if defined(__SANITIZE_ADDRESS__)
#define CUBEX_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CUBEX_TEST_ASAN 1
#endif
#endif

TEST(RobustAfterMemory, OutOfMemoryEndsWithExit1AndAMessage) {
#ifdef CUBEX_TEST_ASAN
  GTEST_SKIP() << "RLIMIT_AS and AddressSanitizer do not mix";
#else
  TempDir dir;
  // One million cells and a monocube: about 3 million nodes, far more than 60 MB holds once
  // the placements are compiled.
  const std::string big = dir.file(
      "big.json",
      R"({"container": {"box": [100, 100, 100]}, "pieces": [{"name": "o", "layers": [["#"]], "count": 1000000}]})");
  const std::string cmd = "ulimit -v 60000; exec '" + std::string(CUBEX_EXE) + "' solve '" + big +
                          "' --max-nodes 2000000000 --symmetry none 2>&1";
  FILE* p = ::popen(("sh -c \"" + cmd + "\"").c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int st = ::pclose(p);
  ASSERT_TRUE(WIFEXITED(st)) << "killed by a signal (an abort?): " << out;
  EXPECT_EQ(WEXITSTATUS(st), 1) << out;
  EXPECT_NE(out.find("cubex: out of memory while "), std::string::npos) << out;
#endif
}

}  // namespace
}  // namespace cubex
