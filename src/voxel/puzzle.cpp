// The voxel front end as a Puzzle for the CLI: placements out, placements re-checked.
#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <set>

#include "cubex/error.hpp"
#include "cubex/puzzle/scene.hpp"
#include "cubex/util/json.hpp"
#include "cubex/voxel/assembly.hpp"
#include "cubex/voxel/read.hpp"

namespace cubex::voxel {
namespace {

using nlohmann::json;

json to_json(const Vec3& v) {
  return json::array({v.x, v.y, v.z});
}

json to_json(const Mat3& m) {
  json rows = json::array();
  for (const auto& r : m.m) rows.push_back(json::array({r[0], r[1], r[2]}));
  return rows;
}

// Reads what to_json wrote; returns "" or what is wrong at `path`.
std::string read_ints(const json& j, std::size_t n, std::span<int> out, const std::string& path) {
  if (!j.is_array() || j.size() != n)
    return path + ": expected an array of " + std::to_string(n) + " integers";
  for (std::size_t k = 0; k < n; ++k) {
    const std::optional<std::int64_t> v = json_int(j[k], -1000000, 1000000);
    if (!v) return path + "[" + std::to_string(k) + "]: expected an integer";
    out[k] = static_cast<int>(*v);
  }
  return "";
}

std::string read_vec(const json& j, Vec3& v, const std::string& path) {
  int a[3];
  std::string why = read_ints(j, 3, a, path);
  v = {a[0], a[1], a[2]};
  return why;
}

std::string read_placement(const json& j, ClaimedPlacement& out, const std::string& path) {
  if (!j.is_object()) return path + ": expected a placement object";
  for (const char* key : {"piece", "copy", "rotation", "mirrored", "offset", "cells"}) {
    if (!j.contains(key)) return path + ": expected a \"" + key + "\" key";
  }
  if (!j["piece"].is_string()) return path + ".piece: expected a piece name";
  out.piece = j["piece"].get<std::string>();
  if (!j["copy"].is_number_integer()) return path + ".copy: expected an integer";
  out.copy = static_cast<int>(json_int(j["copy"], 0, 1 << 30).value_or(-1));  // -1: no such copy
  if (!j["mirrored"].is_boolean()) return path + ".mirrored: expected true or false";
  out.mirrored = j["mirrored"].get<bool>();
  const json& r = j["rotation"];
  if (!r.is_array() || r.size() != 3) return path + ".rotation: expected a 3x3 matrix";
  for (std::size_t i = 0; i < 3; ++i) {
    std::string why =
        read_ints(r[i], 3, out.rotation.m[i], path + ".rotation[" + std::to_string(i) + "]");
    if (!why.empty()) return why;
  }
  std::string why = read_vec(j["offset"], out.offset, path + ".offset");
  if (!why.empty()) return why;
  const json& cells = j["cells"];
  if (!cells.is_array()) return path + ".cells: expected an array of cells";
  out.cells.resize(cells.size());
  for (std::size_t k = 0; k < cells.size(); ++k) {
    why = read_vec(cells[k], out.cells[k], path + ".cells[" + std::to_string(k) + "]");
    if (!why.empty()) return why;
  }
  return "";
}

// Cells are placed at their coordinates (tag 0 for must-fill, 1 for optional cells, which must
// stay optional); pieces have no place. A reflection maps a piece to its mirror twin: the piece
// whose allowed orientations are the mirror images of this piece's allowed orientations, with the
// same number of copies. That is the piece itself when pieces may be mirrored or the piece is its
// own mirror image under its motions (a 3-D piece congruent to its mirror by a rotation, a flat
// piece that may be turned over, a one-sided piece with a mirror line), else another piece (Soma's
// two screw pieces; a one-sided pentomino and its primed twin). The mirror used keeps the normal of
// a flat container, so that one-sided pieces stay face up; reflections that turn the plane over
// are then no symmetry of a one-sided chiral piece (cube_symmetry_group() checks every option).
// Twins are paired in order so that the map is an involution.
ItemPlaces item_places(const Model& model, const Compiled& compiled) {
  const Problem& pb = compiled.problem;
  ItemPlaces places;
  places.where.resize(pb.num_items());
  places.reflected.resize(pb.num_items());
  // Tags: must-fill 0 / optional 1, plus twice the cell's colour when colours count.
  auto colour_of = [&](std::size_t c) {
    return model.coloured && !model.cell_colour.empty() ? int(model.cell_colour[c]) : 0;
  };
  for (std::size_t c = 0; c < model.cells.size(); ++c) {
    places.where[compiled.cell_item[c]] =
        std::pair{(model.optional[c] ? 1 : 0) + 2 * colour_of(c), model.cells[c]};
  }
  for (const auto& [key, item] : compiled.colour_items)
    places.where[item] = std::pair{1000 + key.second, key.first};
  if (compiled.holes_item != kNoItem) places.reflected[compiled.holes_item] = compiled.holes_item;
  const std::size_t np = model.pieces.size();
  // A piece as sorted (cell, colour) keys (Turner), colours only where they count; where the
  // coordinates are too large for keys, as the sorted pairs' numbers after a first ~0 (never a
  // key).
  using Shape = std::vector<std::uint64_t>;
  std::vector<std::pair<Vec3, std::uint8_t>> pairs;
  auto shape = [&](std::size_t p, Turner& turner, const Mat3& m) {
    Shape s;
    Vec3 shift;
    if (turner.turn(m, s, shift)) return s;
    const Piece& piece = model.pieces[p];
    const bool colours = model.coloured && !piece.colours.empty();
    pairs.clear();
    for (std::size_t i = 0; i < piece.cells.size(); ++i)
      pairs.push_back({m * piece.cells[i], colours ? piece.colours[i] : std::uint8_t(0)});
    Vec3 lo = pairs[0].first;
    for (const auto& [c, col] : pairs)
      lo = {std::min(lo.x, c.x), std::min(lo.y, c.y), std::min(lo.z, c.z)};
    for (auto& [c, col] : pairs) c = c - lo;
    std::sort(pairs.begin(), pairs.end());
    s.assign(1, ~std::uint64_t(0));
    for (const auto& [c, col] : pairs)
      for (int v : {c.x, c.y, c.z, int(col)}) s.push_back(std::uint64_t(std::uint32_t(v)));
    return s;
  };
  // The mirror: x -> -x, or y -> -y for a container flat in x alone (the normal of a flat
  // container is z, else y, else x, as in allowed_symmetries()).
  auto flat = [&](int axis) {
    for (const Vec3& c : model.cells)
      if (c[axis] != model.cells.front()[axis]) return false;
    return !model.cells.empty();
  };
  const Mat3 mirror =
      flat(0) && !flat(1) && !flat(2) ? Mat3{{{{1, 0, 0}, {0, -1, 0}, {0, 0, 1}}}} : mirror_x();
  std::vector<std::set<Shape>> turned(np);    // the allowed orientations of each piece
  std::vector<std::set<Shape>> mirrored(np);  // their mirror images
  for (std::size_t p = 0; p < np; ++p) {
    const std::uint64_t allowed = allowed_symmetries(model, p);
    const Piece& piece = model.pieces[p];
    Turner turner(piece.cells, model.coloured ? std::span<const std::uint8_t>(piece.colours)
                                              : std::span<const std::uint8_t>());
    for (int k = 0; k < 48; ++k) {
      if (!(allowed >> k & 1)) continue;
      const Mat3& m = cube_symmetries()[std::size_t(k)];
      turned[p].insert(shape(p, turner, m));
      mirrored[p].insert(shape(p, turner, mirror * m));
    }
  }
  std::vector<int> twin(np, -1);
  for (std::size_t p = 0; p < np; ++p) {
    if (model.mirror || turned[p] == mirrored[p]) {
      twin[p] = static_cast<int>(p);
      continue;
    }
    if (twin[p] >= 0) continue;
    for (std::size_t q = p + 1; q < np; ++q) {
      if (twin[q] < 0 && model.pieces[q].count == model.pieces[p].count &&
          model.pieces[q].fewest() == model.pieces[p].fewest() && turned[q] == mirrored[p]) {
        twin[p] = static_cast<int>(q);
        twin[q] = static_cast<int>(p);
        break;
      }
    }
  }
  for (std::size_t p = 0; p < np; ++p) {
    if (twin[p] >= 0 && compiled.piece_item[p] != kNoItem) {
      places.reflected[compiled.piece_item[p]] = compiled.piece_item[twin[p]];
    }
  }
  return places;
}

class VoxelPuzzle final : public Puzzle {
 public:
  VoxelPuzzle(Model model, Compiled compiled, std::string name, std::vector<std::string> notes)
      : model_(std::move(model)),
        compiled_(std::move(compiled)),
        name_(std::move(name)),
        notes_(std::move(notes)) {}

  std::vector<std::string> notes() const override { return notes_; }
  std::string infeasible() const override { return compiled_.infeasible; }

  // A puzzle with spare pieces (a count range): each solution lists the copies it leaves over.
  bool spares() const {
    return std::any_of(model_.pieces.begin(), model_.pieces.end(),
                       [](const Piece& p) { return p.ranged(); });
  }
  // The names of the copies a solution leaves over, a name once per copy, in the pieces' order.
  std::vector<std::string> unused(const std::vector<PlacedPiece>& placed) const {
    std::vector<int> used(model_.pieces.size(), 0);
    for (const PlacedPiece& p : placed) ++used[std::size_t(p.piece)];
    std::vector<std::string> out;
    for (std::size_t k = 0; k < model_.pieces.size(); ++k)
      for (int c = used[k]; c < model_.pieces[k].count; ++c) out.push_back(model_.pieces[k].name);
    return out;
  }
  // "Unused: X, Y.", as Happy Cube's solutions say it ("none" where every piece is used).
  std::string unused_line(const std::vector<PlacedPiece>& placed) const {
    if (!spares()) return {};
    std::string list;
    for (const std::string& n : unused(placed)) list += (list.empty() ? "" : ", ") + printable(n);
    return "Unused: " + (list.empty() ? std::string("none") : list) + ".\n";
  }

  std::string kind() const override { return "voxel"; }
  std::string name() const override { return name_; }
  const Problem& problem() const override { return compiled_.problem; }

  json solution_json(std::span<const OptionId> solution) const override {
    json placements = json::array();
    for (const PlacedPiece& p : decode(compiled_, solution)) {
      json cells = json::array();
      for (const Vec3& c : p.cells) cells.push_back(to_json(c));
      placements.push_back({{"piece", model_.pieces[std::size_t(p.piece)].name},
                            {"copy", p.copy},
                            {"rotation", to_json(rotation_part(p.symmetry))},
                            {"mirrored", p.symmetry >= 24},
                            {"offset", to_json(p.offset)},
                            {"cells", cells}});
    }
    json out = {{"placements", placements}};
    if (spares()) out["unused"] = unused(decode(compiled_, solution));
    return out;
  }

  std::string solution_text(std::span<const OptionId> solution) const override {
    const std::vector<PlacedPiece> placed = decode(compiled_, solution);
    return draw(model_, placed) + unused_line(placed);
  }

  std::optional<disassembly::Input> assembly(std::span<const OptionId> solution) const override {
    return disassembly::voxel_input(model_, decode(compiled_, solution));
  }

  std::string coloured_solution_text(std::span<const OptionId> solution) const override {
    const std::vector<PlacedPiece> placed = decode(compiled_, solution);
    return draw(model_, placed, true) + unused_line(placed);
  }

  std::optional<render::Scene> scene(const json& solution) const override {
    render::Scene sc;
    sc.kind = kind();
    sc.title = name_;
    sc.container = model_.cells;
    for (const json& pl : solution["placements"]) {
      render::ScenePiece piece;
      piece.name = pl["piece"].get<std::string>();
      for (const Piece& p : model_.pieces) {
        if (p.name == piece.name && p.count > 1)
          piece.name += "#" + std::to_string(pl["copy"].get<int>());
      }
      for (const json& c : pl["cells"])
        piece.cells.push_back({c[0].get<int>(), c[1].get<int>(), c[2].get<int>()});
      std::sort(piece.cells.begin(), piece.cells.end());
      sc.pieces.push_back(std::move(piece));
    }
    render::finish(sc);
    return sc;
  }

  std::string verify_solution(const json& solution) const override {
    if (!solution.is_object() || !solution.contains("placements") ||
        !solution["placements"].is_array()) {
      return "expected an object with a \"placements\" array";
    }
    const json& ps = solution["placements"];
    std::vector<ClaimedPlacement> claimed(ps.size());
    for (std::size_t k = 0; k < ps.size(); ++k) {
      std::string why = read_placement(ps[k], claimed[k], "placements[" + std::to_string(k) + "]");
      if (!why.empty()) return why;
    }
    std::string why = verify(model_, claimed);
    if (!why.empty() || !solution.contains("unused")) return why;
    // The spare pieces listed, if they are: the copies that the placements leave over.
    const json& listed = solution["unused"];
    if (!listed.is_array()) return "unused: expected an array of piece names";
    std::map<std::string, int> left, named;
    for (const Piece& p : model_.pieces) left[p.name] = p.count;
    for (const ClaimedPlacement& c : claimed) --left[c.piece];
    std::erase_if(left, [](const auto& e) { return e.second <= 0; });
    for (const json& u : listed) {
      if (!u.is_string()) return "unused: expected an array of piece names";
      ++named[u.get<std::string>()];
    }
    if (named != left) return "unused: not the pieces that the placements leave over";
    return {};
  }

  CubeGroup symmetry_group(SymmetryMode mode, const Watch& watch = {}) const override {
    const PhasePoll poll(watch, "finding the symmetries");  // (item_places: a pass over the cells)
    return cube_symmetry_group(compiled_.problem, item_places(model_, compiled_), mode, watch);
  }

  std::string option_label(OptionId o) const override {
    const Placement& pl = compiled_.placements[o];
    if (pl.piece < 0) return "hole at " + cell_text(pl.cells.front());
    std::string s = "piece " + model_.pieces[std::size_t(pl.piece)].name + " symmetry " +
                    std::to_string(pl.symmetry) + (pl.symmetry >= 24 ? " (mirrored)" : "") +
                    " offset " + cell_text(pl.offset) + " cells";
    for (const Vec3& c : pl.cells) s += " " + cell_text(c);
    return s;
  }

  // For counting by memo: the container's cells in a sweep along the box's longest axis (then
  // the next longest), so that the cells covered and those not are split by a small frontier,
  // then the piece items.
  std::vector<ItemId> memo_order() const override {
    const std::vector<Vec3>& cells = model_.cells;
    if (cells.empty()) return {};
    Vec3 lo = cells[0], hi = cells[0];
    for (const Vec3& c : cells) {
      lo = {std::min(lo.x, c.x), std::min(lo.y, c.y), std::min(lo.z, c.z)};
      hi = {std::max(hi.x, c.x), std::max(hi.y, c.y), std::max(hi.z, c.z)};
    }
    std::array<int, 3> axes{0, 1, 2};
    std::stable_sort(axes.begin(), axes.end(),
                     [&](int a, int b) { return hi[a] - lo[a] > hi[b] - lo[b]; });
    std::vector<std::size_t> at(cells.size());
    for (std::size_t k = 0; k < at.size(); ++k) at[k] = k;
    std::sort(at.begin(), at.end(), [&](std::size_t a, std::size_t b) {
      const Vec3& p = cells[a];
      const Vec3& q = cells[b];
      for (int ax : axes) {
        if (p[ax] != q[ax]) return p[ax] < q[ax];
      }
      return false;
    });
    std::vector<ItemId> out;
    for (std::size_t k : at) {
      if (compiled_.cell_item[k] != kNoItem) out.push_back(compiled_.cell_item[k]);
    }
    for (ItemId i : compiled_.piece_item) {
      if (i != kNoItem) out.push_back(i);
    }
    return out;
  }

  // Few shapes in many copies (at least 8 pieces per shape): partial tilings by identical
  // pieces leave the same cells covered again and again.
  MemoHint memo_hint() const override {
    std::size_t pieces = 0;
    for (const auto& p : model_.pieces) pieces += static_cast<std::size_t>(std::max(p.count, 0));
    return !model_.pieces.empty() && pieces >= 8 * model_.pieces.size() ? MemoHint::kTrial
                                                                         : MemoHint::kNever;
  }

  std::vector<std::pair<std::string, ItemId>> piece_items() const override {
    std::vector<std::pair<std::string, ItemId>> out;
    for (std::size_t p = 0; p < model_.pieces.size(); ++p)
      if (compiled_.piece_item[p] != kNoItem)
        out.emplace_back(model_.pieces[p].name, compiled_.piece_item[p]);
    return out;
  }

  const Model& model() const { return model_; }

 private:
  Model model_;
  Compiled compiled_;
  std::string name_;
  std::vector<std::string> notes_;
};

}  // namespace

std::unique_ptr<Puzzle> make_puzzle(Model model, const std::string& file, bool json_paths,
                                    const Limits& limits) {
  std::vector<std::string> notes = merge_congruent(model);
  for (const std::string& w : warnings(model)) notes.push_back("warning: " + w);
  Compiled compiled;
  try {
    compiled = compile(model, limits);
  } catch (const ModelError& e) {
    if (json_paths) throw InputError(file, e.path(), e.what());
    throw InputError(file, e.what());
  }
  std::string name = model.name.empty() ? std::filesystem::path(file).stem().string() : model.name;
  return std::make_unique<VoxelPuzzle>(std::move(model), std::move(compiled), std::move(name),
                                       std::move(notes));
}

}  // namespace cubex::voxel
