// cubex/pocket/cube.hpp - the 2x2x2 Rubik's cube ("pocket cube"): stickers, turns, corner states
// and the compact state index.
//
// Three views of one cube:
//  - Facelets: 24 sticker colours (letters) in the order documented in docs/pocket.md
//    ("Sticker strings"): faces U R F D L B, four stickers each, read row by row as the face is
//    seen from outside (U with B at the top, D with F at the top, R F L B with U at the top).
//  - Corners: which corner sits at each of the 8 positions and how it is twisted.
//  - The compact index 0..3,674,159 of a state with the DBL corner fixed in place: the
//    permutation of the other 7 corners (7! = 5040) times the twist of 6 of them (3^6 = 729;
//    the 7th follows because the twists add up to 0 mod 3).
// The moves are derived from the cube's geometry (cubex/geometry.hpp); nothing is tabulated by
// hand.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cubex::pocket {

inline constexpr int kStickers = 24;
// The face letters in sticker order; the solved cube coloured by face is
// "UUUURRRRFFFFDDDDLLLLBBBB".
inline constexpr std::string_view kFaces = "URFDLB";

using Facelets = std::array<char, kStickers>;

// The solved cube with each face coloured by its own letter.
Facelets solved_facelets();
// True when every face shows one colour (in any whole-cube orientation).
bool is_solved(const Facelets& f);
std::string to_string(const Facelets& f);

// A turn in standard notation: a face U D R L F B or a whole-cube rotation x y z (x follows R,
// y follows U, z follows F), turned clockwise (as seen facing that side) by 1, 2 or 3 quarters.
struct Turn {
  char axis = 'U';
  int quarters = 1;
  friend bool operator==(const Turn&, const Turn&) = default;
};

// Parses a sequence such as "R U2 F' x D2'" (tokens separated by spaces or written together:
// "RUR'U'"); an unknown move throws InputError(source, 1, column, ...).
std::vector<Turn> parse_turns(std::string_view text, const std::string& source = "scramble");
std::string to_string(Turn t);                    // "R", "R2", "R'"
std::string to_string(std::span<const Turn> ts);  // space-separated; "" when empty
// The length of a sequence in a metric: half-turn counts each face turn once, quarter-turn
// counts a half turn twice; whole-cube rotations cost nothing.
int htm_length(std::span<const Turn> ts);
int qtm_length(std::span<const Turn> ts);

void apply(Facelets& f, Turn t);
void apply(Facelets& f, std::span<const Turn> ts);

// Corner positions and corners, numbered alike. DBL (7) is the corner kept in place.
enum Corner : std::uint8_t { URF, UFL, ULB, UBR, DFR, DLF, DRB, DBL };
inline constexpr std::array<std::string_view, 8> kCornerNames = {"URF", "UFL", "ULB", "UBR",
                                                                 "DFR", "DLF", "DRB", "DBL"};

// Position i holds corner perm[i], twisted by twist[i] in 0..2: the corner's U/D-coloured
// sticker lies twist[i] stickers clockwise from the position's U/D sticker.
struct Corners {
  std::array<std::uint8_t, 8> perm{0, 1, 2, 3, 4, 5, 6, 7};
  std::array<std::uint8_t, 8> twist{};
  friend bool operator==(const Corners&, const Corners&) = default;
};

// The state reached from `a` by then applying `b` (b given as the state it makes from solved).
Corners compose(const Corners& a, const Corners& b);

// Stickers of a corner state, each face coloured by its own letter (kFaces).
Facelets to_facelets(const Corners& c);

// Reads 24 sticker colours (any 6 letters, 4 of each; spaces are ignored). The faces are named
// by the corner at the DBL position, whose three stickers fix the D, L and B colours, so a cube
// in any whole-cube orientation is read. Throws InputError(source, ...) naming the problem:
// wrong sticker count, wrong colour counts, a corner no cube has (or its mirror image), a
// corner twice, or twists that do not add up. (A 2x2x2 has no permutation parity constraint:
// every arrangement of the corners can be reached.)
Corners from_facelets(std::string_view stickers, const std::string& source = "--state");

// The compact index. encode requires DBL in place untwisted and the twists adding up to 0.
inline constexpr std::uint32_t kNumStates = 3674160;  // 7! * 3^6
inline constexpr std::uint32_t kNumPerms = 5040;
inline constexpr std::uint32_t kNumTwists = 729;
std::uint32_t encode(const Corners& c);
Corners decode(std::uint32_t index);

// The 9 moves that keep DBL in place: move m = 3 * face + (quarters - 1), face 0 U, 1 R, 2 F.
inline constexpr int kNumMoves = 9;
Turn move_turn(int m);

enum class Metric { kHalfTurn, kQuarterTurn };
std::string_view metric_name(Metric m);  // "htm" / "qtm"
// The moves of a metric: half-turn all 9, quarter-turn the 6 quarter turns.
std::span<const std::uint8_t> metric_moves(Metric m);

// The index reached from `index` by move m, through move tables built on first use.
std::uint32_t apply_move(std::uint32_t index, int m);

}  // namespace cubex::pocket
