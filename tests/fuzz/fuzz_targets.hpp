// What each libFuzzer target does with one input, shared by the fuzz programs
// (tests/fuzz/fuzz_*.cpp, built with -DCUBEX_FUZZ=ON) and by the regression test that replays the
// seed corpora and every input a fuzzer ever found (tests/test_fuzz_corpus.cpp).
//
// A target feeds one reader arbitrary bytes. The reader may reject them with InputError (or the
// LimitError of a limit): that is a clean end. Any other exception, a crash, a sanitizer report or
// a hang is a finding; so is a broken round-trip property (PropertyFailure). Limits are lowered so
// that every input is handled in milliseconds.
#pragma once

#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/engine.hpp"
#include "cubex/core/solver.hpp"
#include "cubex/error.hpp"
#include "cubex/happycube/puzzle.hpp"
#include "cubex/happycube/reader.hpp"
#include "cubex/knuth/format.hpp"
#include "cubex/limits.hpp"
#include "cubex/pocket/cube.hpp"
#include "cubex/puzzle.hpp"
#include "cubex/util/json.hpp"
#include "cubex/voxel/read.hpp"
#ifdef CUBEX_WITH_BURRTOOLS
#include "cubex/burrtools/xmpuzzle.hpp"
#endif

namespace cubex::fuzz {

struct PropertyFailure : std::logic_error {
  using std::logic_error::logic_error;
};

inline void require(bool ok, const char* what) {
  if (!ok) throw PropertyFailure(what);
}

// Runs `f` with small limits (passed to it); InputError and LimitError are clean rejections.
template <class F>
void clean(F&& f) {
  Limits small;
  small.max_nodes = 200'000;
  small.max_json_depth = 64;
  try {
    f(small);
  } catch (const InputError&) {
  } catch (const LimitError&) {
  }
}

// Solves what a reader accepted, a little way (SolveLimits::max_nodes), with dancing links and,
// where it applies, the bitset backend. The two walk the same tree (the bitset backend without
// pruning), so within the same node limit they find the same solutions; each one found is a
// solution by check_solution and, for a puzzle, by the puzzle's own verifier (which does not
// trust the compiled matrix). Where the bitset backend prunes, its smaller tree has the same
// solutions.
inline void solve_some(const Problem& pb, const Puzzle* puzzle = nullptr) {
  SolveLimits lim;
  lim.max_nodes = 2000;
  std::vector<std::vector<OptionId>> found[2];
  SolveStats st[2];
  int runs = 0;
  const auto run = [&](Solver& solver, std::vector<std::vector<OptionId>>& list) {
    return solver.solve(
        [&](std::span<const OptionId> sol) {
          if (list.size() < 8) list.emplace_back(sol.begin(), sol.end());
          return true;
        },
        lim);
  };
  // The bitset backend's plain tree (no pruning) is the tree of dancing links.
  EngineTuning plain;
  plain.prune = BitsetPrune::kOff;
  for (const Backend b : {Backend::kLinks, Backend::kAuto}) {
    Solver solver(pb, b, plain);
    if (runs == 1 && solver.backend() == Backend::kLinks) break;
    st[runs] = run(solver, found[runs]);
    ++runs;
  }
  if (runs == 2 && detail::bitset_prune_limit(pb) > 0) {
    // Pruning: a smaller tree with the same solutions.
    Solver pruned(pb, Backend::kBitset);
    std::vector<std::vector<OptionId>> list;
    const SolveStats sp = run(pruned, list);
    if (sp.complete && st[0].complete) {
      require(sp.solutions == st[0].solutions, "pruning keeps every solution");
      require(sp.nodes <= st[0].nodes, "pruning never adds nodes");
    }
    for (const std::vector<OptionId>& sol : list)
      require(check_solution(pb, sol).empty(), "a solution found with pruning covers every item");
  }
  require(st[0].nodes <= lim.max_nodes, "the node limit holds");
  require(st[0].complete || st[0].nodes == lim.max_nodes, "a run stops only at the node limit");
  for (const std::vector<OptionId>& sol : found[0]) {
    require(check_solution(pb, sol).empty(), "a solution found covers every item in range");
    if (puzzle) {
      require(puzzle->verify_solution(puzzle->solution_json(sol)).empty(),
              "a solution found passes the puzzle's verifier");
    }
  }
  if (runs == 2) {
    // Within a node limit the two may meet the solutions in a different order (and so count a
    // few more or fewer before the limit); a whole tree has the same nodes and solutions.
    require(st[0].complete == st[1].complete, "both backends stop at the node limit alike");
    if (st[0].complete) {
      require(st[0].nodes == st[1].nodes && st[0].solutions == st[1].solutions,
              "both backends walk the same tree");
      if (st[0].solutions <= 8) {
        for (auto& list : found) {
          for (auto& sol : list) std::sort(sol.begin(), sol.end());
          std::sort(list.begin(), list.end());
        }
        require(found[0] == found[1], "both backends find the same solutions");
      }
    }
  }
}

// Knuth's format. An accepted file survives a round trip through to_knuth: the same matrix.
inline void knuth(std::string_view text) {
  clean([&](const Limits& lim) {
    const KnuthFile f = parse_knuth(text, "fuzz.dlx", lim);
    const KnuthFile g = parse_knuth(to_knuth(f.problem), "round-trip.dlx", lim);
    const Problem& a = f.problem;
    const Problem& b = g.problem;
    require(a.num_items() == b.num_items() && a.num_options() == b.num_options() &&
                a.num_entries() == b.num_entries(),
            "to_knuth keeps the sizes");
    for (ItemId i = 0; i < a.num_items(); ++i) {
      require(a.item(i).name == b.item(i).name && a.item(i).primary == b.item(i).primary &&
                  a.item(i).lo == b.item(i).lo && a.item(i).hi == b.item(i).hi,
              "to_knuth keeps the items");
    }
    for (OptionId o = 0; o < a.num_options(); ++o) {
      const auto x = a.option(o), y = b.option(o);
      require(std::equal(x.begin(), x.end(), y.begin(), y.end()), "to_knuth keeps the options");
    }
    solve_some(a);
  });
}

// The voxel JSON format, from bytes to a compiled puzzle, as `cubex solve FILE.json` reads it.
inline void voxel_json(std::string_view text) {
  clean([&](const Limits& lim) {
    const nlohmann::json doc = parse_json_text(text, "fuzz.json", lim);
    const auto puzzle = voxel::load_json(doc, "fuzz.json", lim);
    // (none when it says, before searching, why it has no solution: cells that do not add up,
    // a piece that fits nowhere)
    require(puzzle->problem().num_options() > 0 || !puzzle->infeasible().empty(),
            "a compiled puzzle has options, or says why it has no solution");
    solve_some(puzzle->problem(), puzzle.get());
  });
}

// The wooden-cube text format, compiled as `cubex solve FILE.txt` does.
inline void voxel_txt(std::string_view text) {
  clean([&](const Limits& lim) {
    voxel::Model m = voxel::model_from_txt(text, "fuzz.txt");
    const auto puzzle = voxel::make_puzzle(std::move(m), "fuzz.txt", false, lim);
    // (none when it says, before searching, why it has no solution: cells that do not add up,
    // a piece that fits nowhere)
    require(puzzle->problem().num_options() > 0 || !puzzle->infeasible().empty(),
            "a compiled puzzle has options, or says why it has no solution");
    solve_some(puzzle->problem(), puzzle.get());
  });
}

// Happy Cube `.hcq`. An accepted file is compiled, and written back with to_hcq reads as the same
// tiles.
inline void hcq(std::string_view text) {
  clean([&](const Limits& lim) {
    happycube::Spec spec = happycube::parse_hcq(text, "fuzz.hcq");
    const happycube::Spec again = happycube::parse_hcq(happycube::to_hcq(spec), "again.hcq");
    require(again.pieces.size() == spec.pieces.size() && again.size == spec.size,
            "to_hcq keeps the tiles");
    for (std::size_t k = 0; k < spec.pieces.size(); ++k) {
      require(again.pieces[k].tile == spec.pieces[k].tile, "to_hcq keeps each tile");
    }
    const auto puzzle = happycube::make_puzzle(std::move(spec), lim);
    solve_some(puzzle->problem(), puzzle.get());
  });
}

// The Happy Cube JSON form, from bytes to a compiled puzzle.
inline void happycube_json(std::string_view text) {
  clean([&](const Limits& lim) {
    const nlohmann::json doc = parse_json_text(text, "fuzz.json", lim);
    const auto puzzle = happycube::make_puzzle(happycube::parse_json(doc, "fuzz.json"), lim);
    solve_some(puzzle->problem(), puzzle.get());
  });
}

// Pocket-cube scrambles. An accepted scramble written back with to_string parses to the same
// turns, and applied to the solved cube gives a state that from_facelets accepts.
inline void pocket_scramble(std::string_view text) {
  clean([&](const Limits&) {
    const std::vector<pocket::Turn> turns = pocket::parse_turns(text);
    require(pocket::parse_turns(pocket::to_string(turns)) == turns, "to_string round trip");
    pocket::Facelets f = pocket::solved_facelets();
    pocket::apply(f, turns);
    try {
      pocket::from_facelets(pocket::to_string(f));
    } catch (const InputError& e) {
      throw PropertyFailure(std::string("a scrambled cube reads as a state: ") + e.what());
    }
  });
}

// Pocket-cube sticker strings. An accepted state drawn again reads back as the same corners.
inline void pocket_facelets(std::string_view text) {
  clean([&](const Limits&) {
    const pocket::Corners c = pocket::from_facelets(text);
    require(pocket::from_facelets(pocket::to_string(pocket::to_facelets(c))) == c,
            "facelets round trip");
  });
}

// BurrTools `.xmpuzzle` (gzip or plain XML), compiled as `cubex solve FILE.xmpuzzle` does. An
// accepted problem written back with to_xml reads as the same pieces and container. Without
// CUBEX_BURRTOOLS the target does nothing.
inline void xmpuzzle(std::string_view bytes) {
#ifdef CUBEX_WITH_BURRTOOLS
  clean([&](const Limits& lim) {
    const std::string text = burrtools::gunzip(bytes, "fuzz.xmpuzzle");
    const burrtools::Loaded a = burrtools::parse_xmpuzzle(text, "fuzz.xmpuzzle", {"", lim});
    const auto puzzle = voxel::make_puzzle(a.model, "fuzz.xmpuzzle", false, lim);
    const burrtools::Loaded b = burrtools::parse_xmpuzzle(
        burrtools::to_xml(a.model, "again.xmpuzzle"), "again.xmpuzzle", {});
    require(normalize(b.model.cells) == normalize(a.model.cells) &&
                b.model.num_must_fill() == a.model.num_must_fill(),
            "to_xml keeps the container");
    require(b.model.pieces.size() == a.model.pieces.size(), "to_xml keeps the pieces");
    for (std::size_t k = 0; k < a.model.pieces.size(); ++k) {
      const voxel::Piece &p = a.model.pieces[k], &q = b.model.pieces[k];
      require(p.cells == q.cells && p.count == q.count && p.fewest() == q.fewest() &&
                  p.colours == q.colours,
              "to_xml keeps each piece");
    }
  });
#else
  (void)bytes;
#endif
}

inline constexpr const char* kVerifyVoxel =
    R"({"name": "2x2x1", "container": {"box": [2, 2, 1]},
        "pieces": [{"name": "L", "layers": [["##", "#."]]}, {"name": "o", "layers": [["#"]]}]})";
inline constexpr const char* kVerifyHcq =
    "NAME: HC_BQ_001\nTYPE: HC_BQ_INSTANCE\nNUM_TILES: 6\nTILE_ID_BORDER_PATTERN\n"
    "1 [0, 1, 0, 1, 0; 0, 0, 1, 0, 1; 1, 1, 0, 1, 1; 1, 1, 0, 1, 0]\n"
    "2 [1, 1, 0, 1, 1; 1, 0, 1, 0, 0; 0, 0, 1, 0, 1; 1, 1, 0, 1, 1]\n"
    "3 [1, 0, 1, 0, 0; 0, 0, 1, 0, 0; 0, 0, 1, 0, 1; 1, 1, 0, 1, 1]\n"
    "4 [0, 1, 0, 1, 0; 0, 0, 1, 0, 0; 0, 0, 1, 0, 0; 0, 1, 0, 1, 0]\n"
    "5 [0, 1, 0, 1, 0; 0, 0, 1, 0, 0; 0, 1, 0, 1, 1; 1, 0, 1, 0, 0]\n"
    "6 [0, 1, 0, 1, 0; 0, 0, 1, 0, 0; 0, 1, 0, 1, 0; 0, 0, 1, 0, 0]\nEOF\n";
inline constexpr const char* kVerifyDlx = "A B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n";

// The puzzles the verify target checks solutions against, one of each kind; the seeds in
// tests/fuzz/corpus/fuzz_verify are `cubex solve FILE --all --json --symmetry none` of them.
inline const std::vector<std::unique_ptr<Puzzle>>& verify_puzzles() {
  static const std::vector<std::unique_ptr<Puzzle>> puzzles = [] {
    std::vector<std::unique_ptr<Puzzle>> v;
    v.push_back(voxel::load_json(nlohmann::json::parse(kVerifyVoxel), "verify.json"));
    v.push_back(happycube::make_puzzle(happycube::parse_hcq(kVerifyHcq, "verify.hcq")));
    v.push_back(make_exact_cover(parse_knuth(kVerifyDlx, "verify.dlx"), "verify.dlx"));
    return v;
  }();
  return puzzles;
}

// `cubex verify` and `cubex render --from`: a solutions document read as JSON, each solution
// checked against each puzzle; a solution the verifier accepts is one render draws, so its scene
// is built too.
inline void verify(std::string_view text) {
  const auto& puzzles = verify_puzzles();
  clean([&](const Limits& lim) {
    const nlohmann::json doc = parse_json_text(text, "fuzz.json", lim);
    if (!doc.is_object() || !doc.contains("solutions") || !doc["solutions"].is_array()) return;
    for (const nlohmann::json& sol : doc["solutions"]) {
      for (const auto& p : puzzles) {
        if (p->verify_solution(sol).empty()) p->scene(sol);
      }
    }
  });
}

// The targets by name (the fuzz program is fuzz_NAME, its corpus tests/fuzz/corpus/fuzz_NAME).
inline constexpr std::pair<const char*, void (*)(std::string_view)> kTargets[] = {
    {"knuth", knuth},
    {"voxel_json", voxel_json},
    {"voxel_txt", voxel_txt},
    {"hcq", hcq},
    {"happycube_json", happycube_json},
    {"pocket_scramble", pocket_scramble},
    {"pocket_facelets", pocket_facelets},
    {"xmpuzzle", xmpuzzle},
    {"verify", verify},
};

}  // namespace cubex::fuzz
