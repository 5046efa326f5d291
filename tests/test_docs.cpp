// The user documentation keeps up with the program: the man page (docs/cubex.1) names every
// command and every option that `cubex COMMAND --help` prints, and the README stays short.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>
#include <vector>

#include "test_util.hpp"

namespace {

using cubex::test::run_cubex;
using cubex::test::slurp;

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
    // docs/library.md is written with the library's solve layer; every other page must be there.
    if (target == "docs/library.md") continue;
    EXPECT_TRUE(std::filesystem::exists(source(target))) << "README.md links " << target;
  }
  EXPECT_GE(links, 10);
}

}  // namespace
