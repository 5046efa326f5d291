// The user documentation keeps up with the program: the man page (docs/cubex.1) names every
// command and every option that `cubex COMMAND --help` prints, the README stays short, and every
// example of README.md and docs/*.md (a fenced block with a `$ cubex ...` line) prints what the
// page shows.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "test_util.hpp"

namespace {

using cubex::test::run_cubex;
using cubex::test::run_shell;
using cubex::test::slurp;
using cubex::test::TempDir;

std::string source(const std::string& rel) {
  return std::string(CUBEX_SOURCE_DIR) + "/" + rel;
}

// The long options (--name) that a help text mentions.
std::set<std::string> long_options(const std::string& help) {
  std::set<std::string> out;
  static const std::regex opt("--([a-z][a-z0-9-]*)");
  for (auto it = std::sregex_iterator(help.begin(), help.end(), opt); it != std::sregex_iterator();
       ++it) {
    out.insert((*it)[1]);
  }
  return out;
}

// In roff a '-' is written '\-'.
std::string roff(const std::string& s) {
  std::string r;
  for (char c : s) {
    if (c == '-')
      r += "\\-";
    else
      r += c;
  }
  return r;
}

// The commands that `cubex --help` lists (two-space indent, a name, then its summary), with
// `pocket` split into its subcommands.
std::vector<std::string> commands() {
  const auto help = run_cubex("--help");
  EXPECT_EQ(help.status, 0) << help.output;
  std::vector<std::string> out;
  static const std::regex line("\n  ([a-z]+) +[^\n]+");
  for (auto it = std::sregex_iterator(help.output.begin(), help.output.end(), line);
       it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[1];
    if (name == "pocket") {
      out.push_back("pocket solve");
      out.push_back("pocket table");
    } else {
      out.push_back(name);
    }
  }
  return out;
}

TEST(Docs, ManPageNamesEveryCommandAndOption) {
  const std::string man = slurp(source("docs/cubex.1"));
  ASSERT_FALSE(man.empty()) << "docs/cubex.1 is missing";
  const auto cmds = commands();
  // solve, verify, pocket solve, pocket table, render, merge at least
  ASSERT_GE(cmds.size(), 6u);
  for (const auto& cmd : cmds) {
    EXPECT_NE(man.find(".B cubex " + cmd), std::string::npos)
        << "docs/cubex.1 has no synopsis line for 'cubex " << cmd << "'";
    const auto help = run_cubex(cmd + " --help");
    EXPECT_EQ(help.status, 0) << cmd << ": " << help.output;
    const auto opts = long_options(help.output);
    EXPECT_FALSE(opts.empty()) << cmd;
    for (const auto& o : opts) {
      EXPECT_NE(man.find("\\-\\-" + roff(o)), std::string::npos)
          << "'cubex " << cmd << " --help' lists --" << o
          << " but the man page docs/cubex.1 does not describe it";
    }
  }
}

TEST(Docs, ReadmeIsShortAndItsLocalLinksExist) {
  const std::string readme = slurp(source("README.md"));
  EXPECT_LE(readme.size(), 15u * 1024) << "README.md is meant to be read in five minutes";
  static const std::regex link("\\]\\(((docs/|LICENSE)[^)#]*)");
  int links = 0;
  for (auto it = std::sregex_iterator(readme.begin(), readme.end(), link);
       it != std::sregex_iterator(); ++it, ++links) {
    const std::string target = (*it)[1];
    EXPECT_TRUE(std::filesystem::exists(source(target))) << "README.md links " << target;
  }
  EXPECT_GE(links, 10);
}

// ---- The examples of the pages ------------------------------------------------------------
//
// An example is a fenced block (```) with at least one line `$ cubex ...` or `$ build/cubex ...`
// (or `$ ./build/cubex ...`).
// Every `$ ` line of it is a command, run in order by sh in a scratch folder that links every
// entry of the repository root (so `puzzles/...` reads the shipped files, and files the
// commands write stay out of the checkout) with `build/cubex` the program under test; the lines
// after a command, up to the next `$ ` line, are its standard output. A line `...` stands for
// any number of lines. Times, rates and `updates:` counts (which depend on the machine and the
// backend), and the node count of a run stopped early (which depends on the threads), are masked
// on both sides. A block after a line `<!-- no-run -->` is not run (a long
// run, or a file that is not shipped); the test says how many it skipped.

struct Command {
  std::string line;                   // without the "$ "
  std::vector<std::string> expected;  // the output the page shows
};

struct Example {
  std::string page;
  int line = 0;  // of the opening fence
  bool no_run = false;
  std::vector<Command> commands;
};

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

bool runs_cubex(const std::string& command) {
  return starts_with(command, "cubex ") || starts_with(command, "build/cubex ") ||
         starts_with(command, "./build/cubex ");
}

// The examples of one page.
std::vector<Example> examples_of(const std::string& page, const std::string& text) {
  std::vector<Example> out;
  const auto lines = split_lines(text);
  bool no_run = false;
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const std::string& l = lines[k];
    if (l.find("<!-- no-run -->") != std::string::npos) {
      no_run = true;
      continue;
    }
    if (!starts_with(l, "```")) {
      if (!l.empty()) no_run = false;  // the marker goes with the block right after it
      continue;
    }
    Example ex;
    ex.page = page;
    ex.line = static_cast<int>(k) + 1;
    ex.no_run = no_run;
    no_run = false;
    bool has_cubex = false;
    for (++k; k < lines.size() && !starts_with(lines[k], "```"); ++k) {
      if (starts_with(lines[k], "$ ")) {
        ex.commands.push_back({lines[k].substr(2), {}});
        has_cubex = has_cubex || runs_cubex(ex.commands.back().line);
      } else if (!ex.commands.empty()) {
        ex.commands.back().expected.push_back(lines[k]);
      }
    }
    if (has_cubex) out.push_back(std::move(ex));
  }
  return out;
}

// What may differ from run to run or machine to machine: times, rates, `updates:` counts, and the
// nodes of a run stopped early (`--first`, `--limit`: the other threads' nodes until they stop).
std::string masked(const std::string& line, bool stopped_early = false) {
  static const std::regex rate("[0-9][0-9.,]* ?[kMG]? ?nodes/s");
  static const std::regex time("\\b[0-9][0-9.,]* ?(s|ms|us)\\b");
  static const std::regex updates("updates: [0-9,]+");
  static const std::regex nodes("^nodes: [0-9,]+");
  std::string s = std::regex_replace(line, rate, "<rate>");
  s = std::regex_replace(s, time, "<time>");
  s = std::regex_replace(s, updates, "updates: <n>");
  if (stopped_early) s = std::regex_replace(s, nodes, "nodes: <n>");
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s;
}

// Whether `actual` is what `expected` shows, a line "..." standing for any number of lines.
bool output_matches(std::vector<std::string> expected, std::vector<std::string> actual) {
  for (auto* v : {&expected, &actual})
    while (!v->empty() && masked(v->back()).empty()) v->pop_back();
  bool stopped = false;
  for (const auto& l : expected) stopped = stopped || l.find("(stopped at") != std::string::npos;
  std::map<std::pair<std::size_t, std::size_t>, bool> memo;
  std::function<bool(std::size_t, std::size_t)> from = [&](std::size_t i, std::size_t j) {
    if (i == expected.size()) return j == actual.size();
    const auto key = std::make_pair(i, j);
    if (const auto it = memo.find(key); it != memo.end()) return it->second;
    bool ok;
    if (expected[i] == "...") {
      ok = from(i + 1, j) || (j < actual.size() && from(i, j + 1));
    } else {
      ok = j < actual.size() && masked(expected[i], stopped) == masked(actual[j], stopped) &&
           from(i + 1, j + 1);
    }
    memo[key] = ok;
    return ok;
  };
  return from(0, 0);
}

std::string shell_quote(const std::string& s) {
  std::string r = "'";
  for (char c : s) {
    if (c == '\'')
      r += "'\\''";
    else
      r += c;
  }
  return r + "'";
}

// A scratch folder that looks like the repository root, with build/cubex the program under test.
struct ScratchRoot {
  TempDir dir;
  ScratchRoot() {
    namespace fs = std::filesystem;
    for (const auto& e : fs::directory_iterator(CUBEX_SOURCE_DIR)) {
      const std::string name = e.path().filename().string();
      if (name == "build" || name == ".git") continue;
      fs::create_directory_symlink(e.path(), dir.path / name);
    }
    fs::create_directory(dir.path / "build");
    fs::create_symlink(CUBEX_EXE, dir.path / "build" / "cubex");
  }
};

struct Outcome {
  int run = 0, skipped = 0;
  std::vector<std::string> failures;  // one message per command whose output differs
};

// Runs every example of the page text (README.md or docs/NAME.md).
void check_page(const std::string& page, const std::string& text, Outcome& out) {
  for (const Example& ex : examples_of(page, text)) {
    if (ex.no_run) {
      ++out.skipped;
      continue;
    }
    ++out.run;
    ScratchRoot root;
    for (const Command& c : ex.commands) {
      std::string line = c.line;
      if (starts_with(line, "cubex ")) line = "build/" + line;
      const auto t0 = std::chrono::steady_clock::now();
      const auto r = run_shell("cd " + shell_quote(root.dir.path.string()) + " && { " + line +
                               " ; } 2>/dev/null");
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (output_matches(c.expected, split_lines(r.output))) continue;
      std::ostringstream msg;
      msg << page << ":" << ex.line << ": `$ " << c.line << "` (" << s << " s) printed\n"
          << r.output << "--- where the page shows\n";
      for (const auto& e : c.expected) msg << e << "\n";
      out.failures.push_back(msg.str());
    }
  }
}

std::vector<std::string> pages() {
  std::vector<std::string> out{"README.md"};
  for (const auto& e : std::filesystem::directory_iterator(source("docs"))) {
    if (e.path().extension() == ".md") out.push_back("docs/" + e.path().filename().string());
  }
  std::sort(out.begin() + 1, out.end());
  return out;
}

TEST(DocsExamples, EveryExamplePrintsWhatThePageShows) {
  Outcome o;
  for (const auto& page : pages()) check_page(page, slurp(source(page)), o);
  for (const auto& f : o.failures) ADD_FAILURE() << f;
  std::printf("docs examples: %d run, %d skipped (<!-- no-run -->)\n", o.run, o.skipped);
  EXPECT_GE(o.run, 3) << "README.md alone has three examples";
}

// The check itself: an example whose output is edited fails, masked times and `...` do not.
TEST(DocsExamples, AnEditedOutputFails) {
  const std::string page =
      "```\n"
      "$ cubex solve puzzles/dlx/knuth-example.dlx --all --backend links\n"
      "Solution 1:\n"
      "C E F\n"
      "A D\n"
      "B G\n"
      "\n"
      "knuth-example.dlx (exact-cover, 7 items, 6 options)\n"
      "solutions: 1\n"
      "unique: 1 (the puzzle has no symmetry to count up to)\n"
      "nodes: 6, updates: 99, 12.5 s, 0.3 M nodes/s\n"
      "```\n";
  Outcome good;
  check_page("good.md", page, good);
  EXPECT_EQ(good.run, 1);
  EXPECT_TRUE(good.failures.empty()) << good.failures.front();

  std::string edited = page;
  edited.replace(edited.find("solutions: 1"), 12, "solutions: 2");
  Outcome bad;
  check_page("bad.md", edited, bad);
  ASSERT_EQ(bad.failures.size(), 1u);
  EXPECT_NE(bad.failures[0].find("bad.md:1: `$ cubex solve"), std::string::npos) << bad.failures[0];

  std::string skipped = page;
  skipped.replace(skipped.find("C E F\nA D\nB G\n"), 14, "...\n");
  Outcome dots;
  check_page("dots.md", "<!-- no-run -->\n" + edited + "\n" + skipped, dots);
  EXPECT_EQ(dots.skipped, 1);
  EXPECT_EQ(dots.run, 1);
  EXPECT_TRUE(dots.failures.empty()) << dots.failures.front();

  // A node count is not masked: the tree is part of what the page shows (dancing links here, so
  // that the count is the same on every CPU).
  std::string nodes = page;
  nodes.replace(nodes.find("nodes: 6"), 8, "nodes: 5");
  Outcome n;
  check_page("nodes.md", nodes, n);
  EXPECT_EQ(n.failures.size(), 1u);
}

}  // namespace
