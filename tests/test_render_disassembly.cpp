// A solution's disassembly in the pictures (issue 36, item 4): the moves the viewer plays and the
// SVG strip of steps (render/steps.hpp, render --disassemble).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cubex/cubex.hpp>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "cubex/render/steps.hpp"
#include "cubex/render/svg.hpp"
#include "test_util.hpp"

namespace {

using cubex::Vec3;
using cubex::test::run_cubex;
using cubex::test::slurp;
using cubex::test::source_file;
using cubex::test::TempDir;
using nlohmann::json;

// Scenes of the first `limit` classes of Soma that come apart, with their disassemblies, and the
// disassembler's moves of each.
struct Taken {
  cubex::render::Scene scene;
  cubex::render::Steps steps;
  std::vector<cubex::disassembly::Move> moves;
  std::string level;
};

std::vector<Taken> soma_taken_apart(std::uint64_t limit) {
  auto puzzle = cubex::load(source_file("puzzles/voxel/soma.json"));
  cubex::Options opt;
  opt.threads = 1;
  opt.limit = limit;
  opt.disassemble = true;
  std::vector<Taken> out;
  cubex::solve(*puzzle, opt, [&](const cubex::Solution& s) {
    EXPECT_NE(s.disassembly, nullptr);
    if (!s.disassembly) return false;
    Taken t;
    t.scene = *puzzle->scene(puzzle->solution_json(s.options));
    t.steps = cubex::render::scene_steps(t.scene, *s.disassembly);
    t.moves = s.disassembly->moves();
    t.level = s.disassembly->level_text();
    out.push_back(std::move(t));
    return true;
  });
  return out;
}

// Whether the pieces in `which`, shifted by `at`, share no cell.
bool disjoint(const cubex::render::Scene& sc, const std::vector<Vec3>& at,
              const std::vector<std::size_t>& which) {
  std::set<Vec3> seen;
  for (std::size_t p : which)
    for (const Vec3& c : sc.pieces[p].cells)
      if (!seen.insert(c + at[p]).second) return false;
  return true;
}

Vec3 times(const Vec3& v, int k) {
  return {v.x * k, v.y * k, v.z * k};
}

TEST(RenderDisassembly, TheMovesAreTheDisassemblersInOrder) {
  const auto taken = soma_taken_apart(20);
  ASSERT_EQ(taken.size(), 20u);
  for (const Taken& t : taken) {
    const auto& st = t.steps;
    ASSERT_EQ(st.moves.size(), t.moves.size());
    EXPECT_EQ(st.level, t.level);
    for (std::size_t k = 0; k < st.moves.size(); ++k) {
      const auto& m = st.moves[k];
      const auto& d = t.moves[k];
      EXPECT_EQ(m.pieces.size(), d.pieces.size());
      for (std::size_t i = 0; i < m.pieces.size(); ++i)
        EXPECT_EQ(m.pieces[i], std::size_t(d.pieces[i]));
      EXPECT_EQ(m.distance, d.distance);
      EXPECT_EQ(m.separates, d.separates);
      EXPECT_EQ(m.direction, cubex::disassembly::unit(d.direction));
      // The group is in its part; a move that does not separate travels its distance.
      for (std::size_t p : m.pieces)
        EXPECT_NE(std::find(m.part.begin(), m.part.end(), p), m.part.end());
      if (m.separates) {
        EXPECT_GT(m.travel, m.distance);
      } else {
        EXPECT_EQ(m.travel, m.distance);
      }
      EXPECT_NE(m.text.find(cubex::disassembly::direction_name(d.direction)), std::string::npos)
          << m.text;
    }
  }
}

// Every unit step of every move, as the viewer plays it (by travel) and as the disassembly makes
// it (by distance, within the part being taken apart), is free of overlap; at the end every two
// pieces lie apart along some axis (their boxes do not meet).
TEST(RenderDisassembly, TheViewerReplaysWithoutOverlapAndEndsApart) {
  const auto taken = soma_taken_apart(40);
  ASSERT_EQ(taken.size(), 40u);
  for (const Taken& t : taken) {
    const auto& sc = t.scene;
    const auto& st = t.steps;
    std::vector<std::size_t> all(sc.pieces.size());
    for (std::size_t p = 0; p < all.size(); ++p) all[p] = p;
    std::vector<Vec3> viewer(sc.pieces.size()), real(sc.pieces.size());
    for (std::size_t k = 0; k < st.moves.size(); ++k) {
      const auto& m = st.moves[k];
      for (int s = 1; s <= m.travel; ++s) {
        std::vector<Vec3> at = viewer;
        for (std::size_t p : m.pieces) at[p] = at[p] + times(m.direction, s);
        ASSERT_TRUE(disjoint(sc, at, all)) << "move " << k << " step " << s << ": " << m.text;
      }
      for (int s = 1; s <= m.distance; ++s) {
        std::vector<Vec3> at = real;
        for (std::size_t p : m.pieces) at[p] = at[p] + times(m.direction, s);
        ASSERT_TRUE(disjoint(sc, at, m.part)) << "move " << k << " step " << s << ": " << m.text;
      }
      for (std::size_t p : m.pieces) {
        viewer[p] = viewer[p] + times(m.direction, m.travel);
        real[p] = real[p] + times(m.direction, m.distance);
      }
      EXPECT_EQ(cubex::render::offsets_after(st, all.size(), k + 1, true), viewer);
      EXPECT_EQ(cubex::render::offsets_after(st, all.size(), k + 1, false), real);
    }
    auto box = [&](std::size_t p) {
      std::array<int, 6> b{1 << 20, 1 << 20, 1 << 20, -(1 << 20), -(1 << 20), -(1 << 20)};
      for (const Vec3& c0 : sc.pieces[p].cells) {
        const Vec3 c = c0 + viewer[p];
        for (int a = 0; a < 3; ++a) {
          b[std::size_t(a)] = std::min(b[std::size_t(a)], c[a]);
          b[std::size_t(a + 3)] = std::max(b[std::size_t(a + 3)], c[a]);
        }
      }
      return b;
    };
    for (std::size_t p = 0; p < all.size(); ++p) {
      for (std::size_t q = p + 1; q < all.size(); ++q) {
        const auto bp = box(p), bq = box(q);
        bool apart = false;
        for (std::size_t a = 0; a < 3; ++a) apart = apart || bp[a + 3] < bq[a] || bq[a + 3] < bp[a];
        EXPECT_TRUE(apart) << "pieces " << p << " and " << q << " at level " << t.level;
      }
    }
  }
}

TEST(RenderDisassembly, TheStripHasOneStepPerMove) {
  const auto taken = soma_taken_apart(1);
  ASSERT_EQ(taken.size(), 1u);
  const auto& sc = taken[0].scene;
  const auto& st = taken[0].steps;
  const std::string svg = cubex::render::svg_steps(sc, st, "solution 1");
  std::size_t steps = 0;
  for (std::size_t at = 0; (at = svg.find("<g class=\"step\"", at)) != std::string::npos; ++at)
    ++steps;
  EXPECT_EQ(steps, st.moves.size() + 1);
  EXPECT_NE(svg.find("level " + st.level), std::string::npos);
  for (std::size_t k = 0; k < st.moves.size(); ++k)
    EXPECT_NE(svg.find(std::to_string(k + 1) + ". " + cubex::render::xml_escape(st.moves[k].text)),
              std::string::npos)
        << st.moves[k].text;
  // Every step draws the pieces of its part: step 0 all of them.
  const auto step0 = svg.substr(svg.find("data-step=\"0\""),
                                svg.find("data-step=\"1\"") - svg.find("data-step=\"0\""));
  for (const auto& p : sc.pieces)
    EXPECT_NE(step0.find("data-piece=\"" + p.name + "\""), std::string::npos) << p.name;
  EXPECT_THROW(cubex::render::svg_steps(sc, cubex::render::Steps{}, "x"), std::invalid_argument);
}

json viewer_data(const std::string& page) {
  const std::string mark = "const DATA = ";
  const auto at = page.find(mark);
  if (at == std::string::npos) return nullptr;
  const auto end = page.find(";\n", at);
  return json::parse(page.substr(at + mark.size(), end - at - mark.size()), nullptr, false);
}

TEST(RenderDisassembly, RenderTakesApartForTheViewerAndTheStrip) {
  TempDir tmp;
  const std::string soma = "'" + source_file("puzzles/voxel/soma.json") + "'";
  const std::string html = tmp / "soma.html", svg = tmp / "soma.svg";
  auto r = run_cubex("render " + soma + " --disassemble --limit 3 --html '" + html + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("that come apart"), std::string::npos) << r.output;
  const json data = viewer_data(slurp(html));
  ASSERT_TRUE(data.is_object());
  ASSERT_EQ(data["solutions"].size(), 3u);
  for (const json& s : data["solutions"]) {
    ASSERT_TRUE(s.contains("moves"));
    ASSERT_FALSE(s["moves"].empty());
    EXPECT_TRUE(s["moves"].back()["separates"].get<bool>());
    EXPECT_TRUE(s["level"].is_string());
    for (const json& m : s["moves"]) {
      EXPECT_EQ(m["shift"].size(), 3u);
      for (const json& p : m["pieces"]) EXPECT_LT(p.get<std::size_t>(), s["pieces"].size());
    }
  }
  // Without --disassemble the viewer has no moves.
  r = run_cubex("render " + soma + " --limit 1 --html '" + html + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_FALSE(viewer_data(slurp(html))["solutions"][0].contains("moves"));

  r = run_cubex("render " + soma + " --disassemble --solution 2 --svg '" + svg + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string pic = slurp(svg);
  EXPECT_NE(pic.find("<g class=\"step\" data-step=\"1\""), std::string::npos);
  EXPECT_NE(pic.find("takes apart in "), std::string::npos);

  // Refused: with --from (the solutions are not taken apart) and with --stl.
  r = run_cubex("render " + soma + " --disassemble --from '" + html + "' --svg '" + svg + "'");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--disassemble"), std::string::npos) << r.output;
  r = run_cubex("render " + soma + " --disassemble --stl '" + (tmp / "stl") + "'");
  EXPECT_EQ(r.status, 2) << r.output;
}

}  // namespace
