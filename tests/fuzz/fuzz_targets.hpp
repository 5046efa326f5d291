// What each libFuzzer target does with one input, shared by the fuzz programs
// (tests/fuzz/fuzz_*.cpp, built with -DCUBEX_FUZZ=ON) and by the regression test that replays the
// seed corpora and every input a fuzzer ever found (tests/test_robust_regress.cpp).
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

#include "cubex/error.hpp"
#include "cubex/happycube/puzzle.hpp"
#include "cubex/happycube/reader.hpp"
#include "cubex/io/json.hpp"
#include "cubex/io/knuth.hpp"
#include "cubex/limits.hpp"
#include "cubex/pocket/cube.hpp"
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

// Runs `f` under small limits; InputError and LimitError are clean rejections.
template <class F>
void clean(F&& f) {
  const Limits saved = limits();
  limits().max_nodes = 200'000;
  limits().max_json_depth = 64;
  try {
    f();
  } catch (const InputError&) {
  } catch (const LimitError&) {
  } catch (...) {
    limits() = saved;
    throw;
  }
  limits() = saved;
}

// Knuth's format. An accepted file survives a round trip through to_knuth: the same matrix.
inline void knuth(std::string_view text) {
  clean([&] {
    const KnuthFile f = parse_knuth(text, "fuzz.dlx");
    const KnuthFile g = parse_knuth(to_knuth(f.problem), "round-trip.dlx");
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
  });
}

// The voxel JSON format, from bytes to a compiled puzzle, as `cubex solve FILE.json` reads it.
inline void voxel_json(std::string_view text) {
  clean([&] {
    const nlohmann::json doc = parse_json_text(text, "fuzz.json");
    const auto puzzle = voxel::load_json(doc, "fuzz.json");
    require(puzzle->problem().num_options() > 0, "a compiled puzzle has options");
  });
}

// The wooden-cube text format, compiled as `cubex solve FILE.txt` does.
inline void voxel_txt(std::string_view text) {
  clean([&] {
    voxel::Model m = voxel::model_from_txt(text, "fuzz.txt");
    const auto puzzle = voxel::make_puzzle(std::move(m), "fuzz.txt", false);
    require(puzzle->problem().num_options() > 0, "a compiled puzzle has options");
  });
}

// Happy Cube `.hcq`. An accepted file is compiled, and written back with to_hcq reads as the same
// tiles.
inline void hcq(std::string_view text) {
  clean([&] {
    happycube::Spec spec = happycube::parse_hcq(text, "fuzz.hcq");
    const happycube::Spec again = happycube::parse_hcq(happycube::to_hcq(spec), "again.hcq");
    require(again.pieces.size() == spec.pieces.size() && again.size == spec.size,
            "to_hcq keeps the tiles");
    for (std::size_t k = 0; k < spec.pieces.size(); ++k) {
      require(again.pieces[k].tile == spec.pieces[k].tile, "to_hcq keeps each tile");
    }
    happycube::make_puzzle(std::move(spec));
  });
}

// The Happy Cube JSON form, from bytes to a compiled puzzle.
inline void happycube_json(std::string_view text) {
  clean([&] {
    const nlohmann::json doc = parse_json_text(text, "fuzz.json");
    happycube::make_puzzle(happycube::parse_json(doc, "fuzz.json"));
  });
}

// Pocket-cube scrambles. An accepted scramble written back with to_string parses to the same
// turns, and applied to the solved cube gives a state that from_facelets accepts.
inline void pocket_scramble(std::string_view text) {
  clean([&] {
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
  clean([&] {
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
  clean([&] {
    const std::string text = burrtools::gunzip(bytes, "fuzz.xmpuzzle");
    const burrtools::Loaded a = burrtools::parse_xmpuzzle(text, "fuzz.xmpuzzle", {});
    const auto puzzle = voxel::make_puzzle(a.model, "fuzz.xmpuzzle", false);
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
};

}  // namespace cubex::fuzz
