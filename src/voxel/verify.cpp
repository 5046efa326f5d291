// Re-checking a solution from scratch: the compiler's placement list is not used.
#include <algorithm>
#include <map>

#include "cubex/voxel/model.hpp"

namespace cubex::voxel {
namespace {

// A signed permutation matrix with determinant +1 (one of the 24 rotations of the cube).
bool is_rotation(const Mat3& r) {
  for (int i = 0; i < 3; ++i) {
    int row = 0, col = 0;
    for (int j = 0; j < 3; ++j) {
      if (r.m[i][j] < -1 || r.m[i][j] > 1) return false;
      row += r.m[i][j] != 0;
      col += r.m[j][i] != 0;
    }
    if (row != 1 || col != 1) return false;
  }
  return r.det() == 1;
}

}  // namespace

std::string verify(const Model& model, std::span<const ClaimedPlacement> placements) {
  std::map<std::string, std::size_t> by_name;
  for (std::size_t p = 0; p < model.pieces.size(); ++p) by_name.emplace(model.pieces[p].name, p);
  std::vector<std::vector<int>> copy_at(model.pieces.size());  // placement index of each copy
  for (std::size_t p = 0; p < model.pieces.size(); ++p)
    copy_at[p].assign(std::size_t(model.pieces[p].count), -1);
  std::vector<int> covered_by(model.cells.size(), -1);

  for (std::size_t i = 0; i < placements.size(); ++i) {
    const ClaimedPlacement& cl = placements[i];
    const std::string where = "placements[" + std::to_string(i) + "]";
    auto found = by_name.find(cl.piece);
    // A piece merged into a congruent one (a solution written before merging, or with the
    // pieces kept distinct): checked with its own cells, counted as copies of the one it joined.
    const Model::Merged* alias = nullptr;
    for (const Model::Merged& m : model.merged)
      if (found == by_name.end() && m.piece.name == cl.piece) alias = &m;
    if (found == by_name.end() && alias) found = by_name.find(alias->into);
    if (found == by_name.end())
      return where + ": expected a piece of the puzzle, found '" + cl.piece + "'";
    const std::size_t p = found->second;
    const Piece& piece = alias ? alias->piece : model.pieces[p];
    if (cl.copy < 0 || cl.copy >= piece.count) {
      return where + ": expected a copy of '" + piece.name + "' between 0 and " +
             std::to_string(piece.count - 1) + ", found " + std::to_string(cl.copy);
    }
    const int copy = cl.copy + (alias ? alias->first_copy : 0);
    int& slot = copy_at[p][std::size_t(copy)];
    if (slot >= 0) {
      return where + ": '" + piece.name + "' copy " + std::to_string(cl.copy) +
             " is placed twice (also placements[" + std::to_string(slot) + "])";
    }
    slot = int(i);
    if (!is_rotation(cl.rotation))
      return where + ": expected a rotation of the cube, found another matrix";
    if (cl.mirrored && !model.mirror)
      return where + ": mirrored, but the puzzle does not allow mirror images";
    const Mat3 m = cl.mirrored ? cl.rotation * mirror_x() : cl.rotation;
    const std::uint64_t allowed = allowed_symmetries(model, piece);
    bool may = false;
    for (std::size_t k = 0; k < 48; ++k)
      may = may || (cube_symmetries()[k] == m && (allowed >> k & 1));
    if (!may) return where + ": '" + piece.name + "' is turned over, but it may not be";
    std::vector<Vec3> want;
    for (const Vec3& c : piece.cells) want.push_back(m * c + cl.offset);
    for (std::size_t j = 0; j < piece.colours.size(); ++j) {
      const int k = model.cell_index(want[j]);
      const int under = k < 0 || model.cell_colour.empty() ? 0 : model.cell_colour[std::size_t(k)];
      if (!model.colour_allowed(piece.colours[j], under)) {
        return where + ": cell " + cell_text(want[j]) + " has colour " + std::to_string(under) +
               ", where '" + piece.name + "' may not put its colour " +
               std::to_string(piece.colours[j]);
      }
    }
    std::sort(want.begin(), want.end());
    std::vector<Vec3> listed = cl.cells;
    std::sort(listed.begin(), listed.end());
    if (listed != want) {
      return where + ": its cells are not '" + piece.name +
             "' turned by its rotation and moved by its offset";
    }
    for (const Vec3& c : listed) {
      const int k = model.cell_index(c);
      if (k < 0) return where + ": cell " + cell_text(c) + " is outside the container";
      if (covered_by[std::size_t(k)] >= 0) {
        return where + ": cell " + cell_text(c) + " is also covered by placements[" +
               std::to_string(covered_by[std::size_t(k)]) + "]";
      }
      covered_by[std::size_t(k)] = int(i);
    }
  }
  for (std::size_t p = 0; p < model.pieces.size(); ++p) {
    const Piece& piece = model.pieces[p];
    if (piece.fewest() == piece.count) {
      for (std::size_t c = 0; c < copy_at[p].size(); ++c)
        if (copy_at[p][c] < 0) {
          return "expected every piece placed, found '" + piece.name + "' copy " +
                 std::to_string(c) + " missing";
        }
      continue;
    }
    const auto placed =
        std::count_if(copy_at[p].begin(), copy_at[p].end(), [](int s) { return s >= 0; });
    if (placed < piece.fewest()) {
      return "expected at least " + std::to_string(piece.fewest()) + " copies of '" + piece.name +
             "' placed, found " + std::to_string(placed);
    }
  }
  for (std::size_t k = 0; k < model.cells.size(); ++k)
    if (!model.optional[k] && covered_by[k] < 0) {
      return "expected every must-fill cell covered, found " + cell_text(model.cells[k]) + " empty";
    }
  if (model.max_holes >= 0) {
    int holes = 0;
    for (std::size_t k = 0; k < model.cells.size(); ++k)
      holes += model.optional[k] && covered_by[k] < 0;
    if (holes > model.max_holes) {
      return "expected at most " + std::to_string(model.max_holes) +
             " optional cells left empty, found " + std::to_string(holes);
    }
  }
  return "";
}

}  // namespace cubex::voxel
