// cubex/voxel/model.hpp - polycube packing puzzles: the model, piece orientations, compilation
// to exact cover and decoding of solutions back to placements.
//
// A Model is a container (a set of unit cells, each must-fill or optional) and pieces (a set of
// unit cells and a number of identical copies). It knows nothing about files or the CLI; the
// readers (voxel/read.hpp) build one, and later work (symmetry reduction) reuses it as is.
//
// Conventions, shared with the JSON output and `cubex verify`:
//   * A piece's cells are normalised when it is built (normalize(): smallest x, y, z are 0,
//     sorted), so a piece is the same whatever position it was drawn in.
//   * An orientation is an index k into cube_symmetries(): 0..23 rotations, 24..47 mirrored
//     (only with `mirror`). A placement of piece p with orientation k and offset t covers the
//     cells  cube_symmetries()[k] * c + t  for c in the piece's (normalised) cells.
//   * Compiled problem: one primary item per piece (multiplicity lo = hi = count for identical
//     copies, never labelled copies), one primary item per must-fill cell, one secondary item per
//     optional cell; option o is placements[o]. A single kind of piece that fills a container
//     without optional cells exactly has no item (the cells imply how many copies are used).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cubex/core/problem.hpp"
#include "cubex/geometry.hpp"
#include "cubex/limits.hpp"

namespace cubex::voxel {

struct Piece {
  std::string name;
  std::vector<Vec3> cells;  // normalised (see above)
  int count = 1;            // identical copies (with a range: the most that may be used)
  int min_count = -1;       // the fewest copies a solution uses; -1: all `count` of them
  bool distinct = false;    // never merged with a congruent piece (merge_congruent)
  std::optional<bool> turn_over =
      std::nullopt;  // flat puzzles: this piece's own "turn_over" (else the model's)
  // Colours (BurrTools): parallel to `cells`, 0 = neutral; empty = every cell neutral.
  std::vector<std::uint8_t> colours{};
  // Only for taking assemblies apart (cubex/disassembly): BurrTools' weight (the heavier side
  // stays) and disassembly groups, (group > 0, copies in it) (empty: none).
  int weight = 1;
  std::vector<std::pair<int, int>> groups{};

  int fewest() const { return min_count < 0 ? count : min_count; }
  bool ranged() const { return fewest() != count; }
};

struct Model {
  std::string name;
  std::string comment;
  std::vector<Vec3> cells;             // the container's cells, sorted, distinct
  std::vector<std::uint8_t> optional;  // parallel to cells: 1 = may stay empty
  std::vector<Piece> pieces;
  bool mirror = false;  // pieces may also be used mirrored
  // Flat puzzles (a container one cell thick): false keeps pieces face up, as drawn (one-sided
  // polyominoes): only the rotations that keep a piece's normal on the container's.
  bool turn_over = true;
  // Colour constraints (BurrTools): `cell_colour` is parallel to `cells` (0 = neutral; empty =
  // all neutral). With `coloured`, a piece cell of colour p may lie on a container cell of colour
  // r only when p == 0, r == 0 or {p, r} is in `colour_pairs`; without it colours are ignored.
  std::vector<std::uint8_t> cell_colour;
  bool coloured = false;
  std::vector<std::pair<int, int>> colour_pairs;
  // The most optional cells that may stay empty (BurrTools maxHoles); -1: no limit.
  int max_holes = -1;
  // Pieces merge_congruent() merged into a congruent one, as they were read, each with the name
  // of the piece it joined and the first of the copies it became there (its copy k is that
  // piece's copy first_copy + k): verify() still takes solutions that name them.
  struct Merged {
    Piece piece;
    std::string into;
    int first_copy = 0;
  };
  std::vector<Merged> merged;

  bool colour_allowed(int piece_colour, int cell_colour) const;
  bool has_piece_colours() const;

  // Index of `c` in `cells`, or -1 when it is not a container cell.
  int cell_index(const Vec3& c) const;
  std::size_t num_must_fill() const;
};

// "[x,y,z]", as cells are written in JSON and in messages.
std::string cell_text(const Vec3& c);

// A problem with the model itself (not with how it was written). `piece` is the piece concerned
// (or -1) and `path` its JSON-style place ("pieces[3]", "container"), so that readers can name the
// place in their own file.
class ModelError : public Error {
 public:
  ModelError(std::string path, int piece, const std::string& message)
      : Error(Kind::input, message), path_(std::move(path)), piece_(piece) {}
  const std::string& path() const { return path_; }
  int piece() const { return piece_; }

 private:
  std::string path_;
  int piece_;
};

// Sorts the container cells (keeping each one's optional flag) and normalises every piece. Throws
// ModelError for repeated cells, empty pieces, an empty container, a count range with
// min > max or max < 1, or "turn_over": false where the container is not flat or with mirror.
void canonicalize(Model& model);

// The symmetries (indices into cube_symmetries(), as bits) that piece p may be placed with: the
// 24 rotations, 48 with mirror; when the piece may not be turned over in a flat container, the
// rotations that take the piece's normal (+z if it is one cell thick in z, else +y, else +x) to
// the container's (chosen the same way).
std::uint64_t allowed_symmetries(const Model& model, std::size_t p);
// The same for a piece given by itself (one of Model::merged).
std::uint64_t allowed_symmetries(const Model& model, const Piece& piece);

// Merges pieces that are congruent under their allowed motions (the same set of orientations)
// and not marked `distinct` into the first of them, adding up counts and minimum counts. Returns
// one note per merged group: "pieces A and B are congruent: counted as identical". The pieces
// merged away are kept in `model.merged`.
std::vector<std::string> merge_congruent(Model& model);

// Why a canonical model can have no solution, found before any search: the cells do not add up
// (volumes, with count ranges), a piece that must be used fits nowhere (`fits[p]`: whether piece
// p has a placement; empty: not checked), or a checkerboard colouring of the cells that no choice
// of pieces and orientations can match. Empty when none of these applies.
std::string infeasible(const Model& model, const std::vector<bool>& fits);
// Warnings that do not stop the search: pieces whose cells are not face-connected.
std::vector<std::string> warnings(const Model& model);

// One orientation of a piece: its cells after cube_symmetries()[symmetry], translated by `shift`
// so that the smallest x, y, z are 0 (= normalize(M * cells)), sorted.
struct Orientation {
  int symmetry = 0;
  Vec3 shift;
  std::vector<Vec3> cells;
  std::vector<std::uint8_t> colours;  // parallel to cells when the piece has colours
};

// The distinct orientations of `cells` (24 rotations, or 48 symmetries with `mirror`), the
// duplicates of a symmetric piece removed; each is listed with the smallest symmetry index that
// produces it, in increasing order of that index.
std::vector<Orientation> orientations(std::span<const Vec3> cells, bool mirror);
// The same for a coloured piece (`colours` parallel to `cells`): orientations that put the same
// colours on the same cells are one.
std::vector<Orientation> orientations(std::span<const Vec3> cells,
                                      std::span<const std::uint8_t> colours, bool mirror);
std::vector<Orientation> orientations(std::span<const Vec3> cells,
                                      std::span<const std::uint8_t> colours, std::uint64_t allowed);
// The same, restricted to the symmetries whose bits are set in `allowed`.
std::vector<Orientation> orientations(std::span<const Vec3> cells, std::uint64_t allowed);

// Cells as integers that sort as (cell, colour) pairs do: x, y, z (each from 0 to
// kKeySpan - 1) and the colour in 18, 18, 18 and 8 bits.
constexpr std::uint32_t kKeySpan = std::uint32_t{1} << 18;
inline Vec3 key_cell(std::uint64_t key) {
  return {int(key >> 44), int((key >> 26) & (kKeySpan - 1)), int((key >> 8) & (kKeySpan - 1))};
}
// The keys of `cells` with `colours` (parallel, or empty for colour 0), sorted; false (and
// `keys` unspecified) when a coordinate is outside 0 .. kKeySpan - 1.
bool sort_by_key(std::span<const Vec3> cells, std::span<const std::uint8_t> colours,
                 std::vector<std::uint64_t>& keys);

// A piece (cells with colours, parallel, or none) turned by the cube's symmetries. Where its box
// is not much larger than the piece, the turned cells are read off a grid over the box in their
// sorted order; else their keys are sorted.
class Turner {
 public:
  Turner(std::span<const Vec3> cells, std::span<const std::uint8_t> colours);
  // The sorted keys (sort_by_key) of the cells m * c moved to the smallest corner 0, and that
  // move in `shift`; false (nothing set) where a coordinate is outside the keys' span.
  bool turn(const Mat3& m, std::vector<std::uint64_t>& keys, Vec3& shift);

 private:
  std::span<const Vec3> cells_;
  std::span<const std::uint8_t> colours_;
  Vec3 lo_{}, extent_{};             // the box: lo_ .. lo_ + extent_
  std::vector<std::uint16_t> grid_;  // 1 + colour per cell of the box, 0 where none; or empty
  std::vector<Vec3> turned_;
};

// One option of the compiled problem: piece `piece` in orientation `symmetry` at `offset`.
struct Placement {
  int piece = 0;  // -1: an optional cell left empty (a hole, only with max_holes)
  int symmetry = 0;
  Vec3 offset;
  std::vector<Vec3> cells;  // cube_symmetries()[symmetry] * c + offset, sorted
};

// The piece_item of a piece without an item: a single kind of piece that fills a container
// without optional cells exactly needs none (the cells imply the number of copies).
inline constexpr ItemId kNoItem = static_cast<ItemId>(-1);

struct Compiled {
  Problem problem;
  std::vector<Placement> placements;  // placements[o] is option o
  std::vector<ItemId> piece_item;     // item of each piece (kNoItem: implied, see compile())
  std::vector<ItemId> cell_item;      // item of each container cell (model.cells order)
  // With max_holes: the item counting the holes (0..max_holes), and the optional cells become
  // primary items, each covered by a piece or by a hole option {holes, cell}. Else kNoItem.
  ItemId holes_item = kNoItem;
  // Coloured pieces whose colours tell orientations with the same cells apart get one secondary
  // item per (container cell, piece colour) they use, so that options differ in their items.
  std::vector<std::pair<std::pair<Vec3, int>, ItemId>> colour_items;
  std::string infeasible;  // why there is no solution ("" when search must tell)
};

// Compiles a canonical model. A piece's item is covered fewest()..count times (a secondary item
// for a spare piece, 0..1, in a container without optional cells). A model that cannot have a
// solution (infeasible()) still compiles: `infeasible` says why.
// Item names are valid in Knuth's format: cells are "xyz" (every coordinate a digit 0..9) or
// "x_y_z"; a piece keeps its name when that is a valid, unused item name, else becomes "#k".
Compiled compile(const Model& model, const Limits& limits = {});

// A placement in a decoded solution: which copy of the piece it is.
struct PlacedPiece {
  int piece = 0;
  int copy = 0;
  int symmetry = 0;
  Vec3 offset;
  std::vector<Vec3> cells;  // sorted
};

// Maps a solution (options of compiled.problem) to placed pieces, sorted by piece then copy. The
// copies of a piece are numbered 0..count-1 in the order of their smallest covered cell.
std::vector<PlacedPiece> decode(const Compiled& compiled, std::span<const OptionId> solution);

// The matrix of the "rotation" key: the proper rotation R such that cube_symmetries()[symmetry]
// equals R, or R * mirror_x() for a mirrored orientation (symmetry >= 24).
Mat3 rotation_part(int symmetry);
// The mirror x -> -x.
constexpr Mat3 mirror_x() {
  return Mat3{{{{-1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}};
}

// Re-checks placed pieces against the model from scratch, without the compiler: each placement
// congruent to its piece (its cells are R * c + offset, or R * mirror_x() * c + offset when
// mirrored and the model allows it; face up where pieces may not be turned over), inside the
// container, each copy of a piece used at most once and at least fewest() copies used,
// must-fill cells covered exactly once and optional ones at most once. Returns "" when valid,
// else what is wrong ("placements[2]: ..."). `mirrored[i]` and `rotation[i]` are as in the JSON.
struct ClaimedPlacement {
  std::string piece;
  int copy = 0;
  Mat3 rotation;
  bool mirrored = false;
  Vec3 offset;
  std::vector<Vec3> cells;
};
std::string verify(const Model& model, std::span<const ClaimedPlacement> placements);

// Draws a solution layer by layer (z = 0, 1, ... side by side, rows y, columns x), one letter per
// placed piece ('.' outside the container, '+' an optional cell left empty). Pieces named by
// distinct single letters are drawn with them; other copies and other names get free letters
// A, B, ... in order, explained by a legend line. With `colour`, each piece's letters are drawn on
// its colour (ANSI escapes, render::assign_colours).
std::string draw(const Model& model, std::span<const PlacedPiece> placed, bool colour = false);

}  // namespace cubex::voxel
