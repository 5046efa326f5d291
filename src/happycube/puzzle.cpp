// The Happy Cube front end: solutions as placements, instructions and a drawing, and the
// independent verifier.
#include "cubex/happycube/puzzle.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "cubex/error.hpp"
#include "cubex/puzzle/colour.hpp"
#include "cubex/util/json.hpp"

namespace cubex::happycube {
namespace {

nlohmann::json place_json(const Face& f) {
  if (f.place > 0) return f.place;
  return {{"cube", {f.cube.x, f.cube.y, f.cube.z}}, {"side", kSideNames[f.side]}};
}

// The face as {"cube", "side"} for every structure (a single cube's too): the same type
// whatever the puzzle, beside "place" (kept for compatibility).
nlohmann::json face_json(const Face& f) {
  return {{"cube", {f.cube.x, f.cube.y, f.cube.z}}, {"side", kSideNames[f.side]}};
}

std::string place_words(const Face& f) {
  if (f.place > 0) return "place " + std::to_string(f.place);
  return "cube (" + std::to_string(f.cube.x) + "," + std::to_string(f.cube.y) + "," +
         std::to_string(f.cube.z) + "), side " + kSideNames[f.side];
}

int floor_div(int a, int b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

// The shell of a structure computed from the cubes alone (not from the faces the compiler lays
// plates on): a lattice point is on the surface when, of the 8 small cells around it, some lie in
// a unit cube of the structure and some do not.
std::set<Vec3> shell_from_cubes(const std::vector<Vec3>& cubes, int l) {
  const std::set<Vec3> in(cubes.begin(), cubes.end());
  Vec3 lo = cubes[0], hi = cubes[0];
  for (const Vec3& c : cubes) {
    lo = {std::min(lo.x, c.x), std::min(lo.y, c.y), std::min(lo.z, c.z)};
    hi = {std::max(hi.x, c.x), std::max(hi.y, c.y), std::max(hi.z, c.z)};
  }
  std::set<Vec3> shell;
  for (int x = lo.x * l; x <= (hi.x + 1) * l; ++x)
    for (int y = lo.y * l; y <= (hi.y + 1) * l; ++y)
      for (int z = lo.z * l; z <= (hi.z + 1) * l; ++z) {
        int inside = 0;
        for (int d = 0; d < 8; ++d) {
          const Vec3 cell{floor_div(x - (d & 1), l), floor_div(y - (d >> 1 & 1), l),
                          floor_div(z - (d >> 2 & 1), l)};
          inside += in.count(cell) ? 1 : 0;
        }
        if (inside > 0 && inside < 8) shell.insert({x, y, z});
      }
  return shell;
}

std::string point_text(const Vec3& p) {
  return "(" + std::to_string(p.x) + "," + std::to_string(p.y) + "," + std::to_string(p.z) + ")";
}

class HappyCubePuzzle final : public Puzzle {
 public:
  HappyCubePuzzle(Spec spec, const Limits& limits)
      : spec_(std::move(spec)), model_(compile(spec_, false, limits)) {}

  std::string kind() const override { return "happy-cube"; }
  std::string name() const override { return spec_.name; }
  const Problem& problem() const override { return model_.problem; }
  const Model& model() const { return model_; }

  CubeGroup symmetry_group(SymmetryMode mode, const Watch& watch = {}) const override {
    return happycube::symmetry_group(model_, mode, watch);
  }

  nlohmann::json solution_json(std::span<const OptionId> solution) const override {
    nlohmann::json placements = nlohmann::json::array();
    for (const Chosen& ch : resolve(solution)) {
      nlohmann::json cells = nlohmann::json::array();
      for (const Vec3& p : ch.placement->cells) cells.push_back({p.x, p.y, p.z});
      placements.push_back({{"piece", ch.piece},
                            {"place", place_json(model_.faces[ch.placement->face])},
                            {"face", face_json(model_.faces[ch.placement->face])},
                            {"rotations_ccw", ch.rotations_ccw},
                            {"flipped", ch.flipped},
                            {"cells", cells}});
    }
    nlohmann::json out = {{"placements", placements}};
    if (model_.spare()) out["unused"] = unused(solution);
    return out;
  }

  std::string infeasible() const override { return model_.infeasible; }
  std::vector<ItemId> memo_order() const override { return happycube::memo_order(model_); }
  MemoHint memo_hint() const override { return MemoHint::kAlways; }

  std::vector<std::string> notes() const override {
    if (!model_.spare()) return {};
    const std::size_t left = model_.plates - model_.faces.size();
    return {std::to_string(model_.plates) + " plates for " + std::to_string(model_.faces.size()) +
            " faces: " + std::to_string(left) + " plate" + (left == 1 ? "" : "s") + " stay" +
            (left == 1 ? "s" : "") + " unused in each solution (listed with it)"};
  }

  std::vector<std::pair<std::string, ItemId>> piece_items() const override {
    std::vector<std::pair<std::string, ItemId>> out;
    for (std::size_t t = 0; t < model_.types.size(); ++t) {
      std::string names;
      for (const std::string& n : model_.types[t].names) names += (names.empty() ? "" : ",") + n;
      out.emplace_back(names, static_cast<ItemId>(t));  // items 0.. are the tile types
    }
    return out;
  }

  std::string solution_text(std::span<const OptionId> solution) const override {
    return text(solution, false);
  }

  std::string coloured_solution_text(std::span<const OptionId> solution) const override {
    return text(solution, true);
  }

  std::optional<render::Scene> scene(const nlohmann::json& solution) const override {
    const int n = spec_.size;
    render::Scene sc;
    sc.kind = kind();
    sc.title = spec_.name;
    sc.net_size = n;
    const auto& list = solution["placements"];
    for (std::size_t k = 0; k < list.size(); ++k) {
      const auto& pl = list[k];
      const std::string name = pl["piece"].get<std::string>();
      const PieceSpec* spec = nullptr;
      for (const PieceSpec& p : spec_.pieces) {
        if (p.name == name) spec = &p;
      }
      const std::size_t f = *find_face(model_.faces, pl["place"]);
      const Face& face = model_.faces[f];
      const Tile t = orient(spec->tile, pl["rotations_ccw"].get<int>(), pl["flipped"].get<bool>());
      render::ScenePiece piece;
      piece.name = name;
      static constexpr Vec3 kNormal[6] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                          {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
      render::NetPlate plate;
      plate.piece = sc.pieces.size();
      for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c)
          if (t.at(r, c)) piece.cells.push_back(face.point(r, c, n));
      std::sort(piece.cells.begin(), piece.cells.end());
      const Vec3 d = kNormal[face.side];
      piece.out = {double(d.x), double(d.y), double(d.z)};
      const NetSpot spot = net_spot(face, t);
      plate.group = spot.group;
      plate.row = spot.row;
      plate.col = spot.col;
      plate.grid = spot.tile.cells;
      plate.label = face.place > 0 ? std::to_string(face.place) + ": part " + name
                                   : name + " (" + kSideNames[face.side] + ")";
      sc.pieces.push_back(std::move(piece));
      sc.net.push_back(std::move(plate));
    }
    if (spec_.net_places()) {
      sc.net_groups = {""};
    } else {
      for (const Vec3& cube : spec_.structure) sc.net_groups.push_back("cube " + point_text(cube));
      for (const NetGap& g : net_gaps()) {
        sc.net_gaps.push_back({g.group, g.row, g.col, "joins " + point_text(g.other)});
      }
    }
    render::finish(sc);
    return sc;
  }

  std::string verify_solution(const nlohmann::json& solution) const override {
    if (!solution.is_object() || !solution.contains("placements") ||
        !solution["placements"].is_array()) {
      return "expected an object with a \"placements\" array";
    }
    const int n = spec_.size;
    const std::vector<Face> faces = make_faces(n, spec_.structure);
    std::vector<bool> face_used(faces.size(), false);
    std::map<std::string, std::pair<const PieceSpec*, int>> uses;
    for (const PieceSpec& p : spec_.pieces) uses[p.name] = {&p, 0};
    std::map<Vec3, int> covered;

    const auto& list = solution["placements"];
    for (std::size_t k = 0; k < list.size(); ++k) {
      const std::string where = "placements[" + std::to_string(k) + "]";
      const auto& pl = list[k];
      if (!pl.is_object() || !pl.contains("piece") || !pl["piece"].is_string() ||
          !pl.contains("place") || !pl.contains("rotations_ccw") ||
          !pl["rotations_ccw"].is_number_integer() || !pl.contains("flipped") ||
          !pl["flipped"].is_boolean()) {
        return where + ": expected {\"piece\", \"place\", \"rotations_ccw\", \"flipped\"}";
      }
      const std::string piece = pl["piece"].get<std::string>();
      auto use = uses.find(piece);
      if (use == uses.end()) return where + ": no piece is named \"" + piece + "\"";
      const PieceSpec& spec = *use->second.first;
      if (++use->second.second > spec.count) {
        return where + ": piece \"" + piece + "\" is used more than " + std::to_string(spec.count) +
               " time(s)";
      }
      const long rot = pl["rotations_ccw"].get<long>();
      if (rot < 0 || rot > 3)
        return where + ".rotations_ccw: expected 0 to 3, found " + std::to_string(rot);
      const bool flipped = pl["flipped"].get<bool>();
      if (flipped && !spec.may_flip) return where + ": piece \"" + piece + "\" may not be flipped";
      const auto f = find_face(faces, pl["place"]);
      if (!f)
        return where + ".place: expected one of the places of the shape, found " +
               pl["place"].dump();
      if (face_used[*f]) return where + ": " + faces[*f].label() + " is used twice";
      face_used[*f] = true;

      const Tile t = orient(spec.tile, static_cast<int>(rot), flipped);
      std::vector<Vec3> cells;
      for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c)
          if (t.at(r, c)) cells.push_back(faces[*f].point(r, c, n));
      for (const Vec3& p : cells) ++covered[p];
      if (pl.contains("cells")) {
        std::vector<Vec3> listed;
        for (const auto& c : pl["cells"]) {
          constexpr std::int64_t kBig = 1 << 30;  // far outside any shell, and no int overflow
          std::optional<std::int64_t> xyz[3];
          if (c.is_array() && c.size() == 3) {
            for (std::size_t a = 0; a < 3; ++a) xyz[a] = json_int(c[a], -kBig, kBig);
          }
          if (!xyz[0] || !xyz[1] || !xyz[2]) return where + ".cells: expected [x, y, z] points";
          listed.push_back({int(*xyz[0]), int(*xyz[1]), int(*xyz[2])});
        }
        std::sort(listed.begin(), listed.end());
        std::sort(cells.begin(), cells.end());
        if (listed != cells)
          return where + ".cells: not the cells of the piece in this orientation";
      }
    }
    for (std::size_t f = 0; f < faces.size(); ++f) {
      if (!face_used[f]) return faces[f].label() + " has no piece";
    }
    // Every face holds one plate and no plate is used more often than it exists; with as many
    // plates as faces, every plate is then used. The "unused" list, if given, names the rest.
    if (solution.contains("unused")) {
      const auto& listed = solution["unused"];
      std::map<std::string, int> left;
      for (const auto& [name, use] : uses) {
        if (use.first->count > use.second) left[name] = use.first->count - use.second;
      }
      std::map<std::string, int> named;
      if (!listed.is_array()) return "unused: expected an array of piece names";
      for (const auto& u : listed) {
        if (!u.is_string()) return "unused: expected an array of piece names";
        ++named[u.get<std::string>()];
      }
      if (named != left) return "unused: not the plates that the placements leave over";
    }
    const std::set<Vec3> shell = shell_from_cubes(spec_.structure, n - 1);
    for (const auto& [p, k] : covered) {
      if (!shell.count(p)) return "the point " + point_text(p) + " is not on the shell";
      if (k > 1)
        return "the shell point " + point_text(p) + " is covered " + std::to_string(k) + " times";
    }
    for (const Vec3& p : shell) {
      if (!covered.count(p)) return "the shell point " + point_text(p) + " is not covered";
    }
    return {};
  }

 private:
  // A placement named for one copy of its piece type, its orientation relative to that copy's
  // grid as read (copies of a type may have been drawn turned or flipped).
  struct Chosen {
    std::string piece;
    const Placement* placement;
    int rotations_ccw;
    bool flipped;
  };

  // The placements of a solution in face order; copies of a piece type get its names in order.
  std::vector<Chosen> resolve(std::span<const OptionId> solution) const {
    std::vector<const Placement*> pls;
    for (OptionId o : solution)
      if (model_.placements[o].laid()) pls.push_back(&model_.placements[o]);
    std::sort(pls.begin(), pls.end(),
              [](const Placement* a, const Placement* b) { return a->face < b->face; });
    std::vector<std::size_t> next(model_.types.size(), 0);
    std::vector<Chosen> out;
    for (const Placement* p : pls) {
      const PieceType& type = model_.types[p->type];
      const std::size_t copy = next[p->type]++;
      const Tile laid = orient(type.tile, p->rotations_ccw, p->flipped);
      const auto o = orientation_between(type.copy_tiles[copy], laid, type.may_flip);
      out.push_back({type.names[copy], p, o->rotations_ccw, o->flipped});
    }
    return out;
  }

  // The plates a solution leaves unused: the copies of each type past those laid (resolve()
  // names the laid copies first), in input order of the pieces.
  std::vector<std::string> unused(std::span<const OptionId> solution) const {
    std::vector<std::size_t> laid(model_.types.size(), 0);
    for (OptionId o : solution) laid[model_.placements[o].type] += model_.placements[o].laid();
    std::map<std::string, int> left;
    for (std::size_t t = 0; t < model_.types.size(); ++t)
      for (std::size_t k = laid[t]; k < model_.types[t].names.size(); ++k)
        ++left[model_.types[t].names[k]];
    std::vector<std::string> out;
    for (const PieceSpec& p : spec_.pieces) {
      auto it = left.find(p.name);
      for (int k = 0; it != left.end() && k < it->second; ++k) out.push_back(p.name);
    }
    return out;
  }

  static std::optional<std::size_t> find_face(const std::vector<Face>& faces,
                                              const nlohmann::json& place) {
    for (std::size_t f = 0; f < faces.size(); ++f) {
      if (place_json(faces[f]) == place) return f;
    }
    return std::nullopt;
  }

  std::string text(std::span<const OptionId> solution, bool colour) const {
    const std::vector<Chosen> chosen = resolve(solution);
    std::string out;
    for (const Chosen& ch : chosen) {
      out += instruction(ch.piece, ch.rotations_ccw, ch.flipped, model_.faces[ch.placement->face]) +
             "\n";
    }
    if (model_.spare()) {
      std::string list;
      for (const std::string& name : unused(solution)) list += (list.empty() ? "" : ", ") + name;
      out += "Unused: " + (list.empty() ? std::string("none") : list) + ".\n";
    }
    return out + "\n" + drawing(chosen, colour);
  }

  // Where a plate goes in the nets (cubex/puzzle/scene.hpp): the cross of its cube, the block in it,
  // and its cells as seen there. `laid` is the plate as laid on face f (its rows and columns in
  // f's frame); the cross draws every face in the frame of the same face of a single cube, so
  // the grid is found point by point: the shell point under each filled cell, moved to the cube
  // at the origin, read in the single cube's frame. For a single cube the frames are those of
  // the net and the grid stays as laid.
  struct NetSpot {
    int group = 0, row = 0, col = 0;
    Tile tile;
  };
  static constexpr int kNetRow[6] = {0, 1, 1, 1, 2, 3}, kNetCol[6] = {1, 1, 0, 2, 1, 1};

  const Face& unit_face(int side) const {
    for (const Face& u : unit_faces_)
      if (u.side == side) return u;
    return unit_faces_.front();  // not reached: the six faces have the six sides
  }

  NetSpot net_spot(const Face& f, const Tile& laid) const {
    const int n = spec_.size, l = n - 1;
    NetSpot out;
    for (std::size_t i = 0; i < spec_.structure.size(); ++i) {
      if (spec_.structure[i] == f.cube) out.group = static_cast<int>(i);
    }
    const Face& u = unit_face(f.side);
    out.row = kNetRow[u.place - 1];
    out.col = kNetCol[u.place - 1];
    out.tile = Tile(n);
    const Vec3 base{f.cube.x * l, f.cube.y * l, f.cube.z * l};
    auto dot = [](const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; };
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        if (!laid.at(r, c)) continue;
        const Vec3 d = f.point(r, c, n) - base - u.origin;
        out.tile.set(n - 1 - dot(d, u.v), dot(d, u.u), true);
      }
    return out;
  }

  // The faces of the structure's cubes that join another cube (no plate): one gap in that cube's
  // cross each.
  struct NetGap {
    int group = 0, row = 0, col = 0;
    Vec3 other;
    int side = 0;
  };
  std::vector<NetGap> net_gaps() const {
    static constexpr Vec3 kNormal[6] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                        {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
    std::vector<NetGap> out;
    for (std::size_t i = 0; i < spec_.structure.size(); ++i) {
      for (int side = 0; side < 6; ++side) {
        const Vec3 other = spec_.structure[i] + kNormal[side];
        if (std::find(spec_.structure.begin(), spec_.structure.end(), other) ==
            spec_.structure.end())
          continue;
        const Face& u = unit_face(side);
        out.push_back(
            {static_cast<int>(i), kNetRow[u.place - 1], kNetCol[u.place - 1], other, side});
      }
    }
    return out;
  }

  // The plates as laid out: the cross of the net for every cube of the structure (side by side,
  // each under its caption), every plate drawn with one character per filled cell: its name
  // when all names are one character long, else a letter a, b, c, ... with a key above. A face
  // where the cube joins another one has its side in parentheses and "joins" in the middle. With
  // `colour`, each plate's cells are drawn on its colour (ANSI escapes).
  std::string drawing(const std::vector<Chosen>& chosen, bool colour) const {
    const int n = spec_.size;
    const bool single = spec_.net_places();
    bool short_names = true;
    for (const Chosen& ch : chosen)  // a letter that prints as itself (no control byte)
      short_names &= ch.piece.size() == 1 && ch.piece[0] > ' ' && ch.piece[0] < 0x7f;
    struct Block {
      int row, col;  // in the whole drawing: crosses side by side
      std::string label;
      Tile tile;
      char mark;
      std::string escape;
      bool gap = false;
    };
    std::vector<int> colours;
    if (colour) {
      std::vector<std::vector<Vec3>> cells;
      for (const Chosen& ch : chosen) cells.push_back(ch.placement->cells);
      colours = render::assign_colours(cells);
    }
    static constexpr char kMarks[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    std::string key;
    std::vector<Block> blocks;
    int width = n;
    for (std::size_t k = 0; k < chosen.size(); ++k) {
      const Placement& p = *chosen[k].placement;
      const Face& f = model_.faces[p.face];
      const NetSpot spot =
          net_spot(f, orient(model_.types[p.type].tile, p.rotations_ccw, p.flipped));
      char mark = chosen[k].piece[0];
      if (!short_names) {
        mark = k + 1 < sizeof kMarks ? kMarks[k] : '#';
        key += std::string(key.empty() ? "key: " : ", ") + mark + " = part " + chosen[k].piece;
      }
      Block b{spot.row,
              spot.group * 3 + spot.col,
              single ? std::to_string(f.place) : std::string(kSideNames[f.side]),
              spot.tile,
              mark,
              ""};
      if (colour) b.escape = render::ansi_colour(render::palette()[std::size_t(colours[k])]);
      width = std::max(width, static_cast<int>(b.label.size()));
      blocks.push_back(std::move(b));
    }
    if (!single) {
      for (const NetGap& g : net_gaps()) {
        blocks.push_back({g.row, g.group * 3 + g.col, "(" + std::string(kSideNames[g.side]) + ")",
                          Tile(n), ' ', "", true});
        width = std::max(width, 5);  // "joins"
      }
    }
    int rows = 0, cols = 0;
    for (const Block& b : blocks) {
      rows = std::max(rows, b.row + 1);
      cols = std::max(cols, b.col + 1);
    }
    std::string out = key.empty() ? "" : key + "\n";
    const std::string gap = "  ", group_gap = "    ";
    if (!single) {  // the captions: "cube (0,0,0)" over each cross
      std::string text;
      for (std::size_t g = 0; g < spec_.structure.size(); ++g) {
        std::string caption = "cube " + point_text(spec_.structure[g]);
        const std::size_t span = std::size_t(3 * width) + 2 * gap.size();
        if (caption.size() < span) caption.resize(span, ' ');
        text += (g > 0 ? group_gap : "") + caption;
      }
      while (!text.empty() && text.back() == ' ') text.pop_back();
      out += text + "\n";
    }
    for (int br = 0; br < rows; ++br) {
      for (int line = -1; line < n; ++line) {
        std::string text;
        for (int bc = 0; bc < cols; ++bc) {
          std::string cell(static_cast<std::size_t>(width), ' ');
          for (const Block& b : blocks) {
            if (b.row != br || b.col != bc) continue;
            if (line < 0) {
              cell.replace(0, b.label.size(), b.label);
            } else if (b.gap) {
              if (line == n / 2) cell.replace(0, 5, "joins");
            } else if (colour) {  // the n cells with escapes, then the padding
              std::string painted;
              for (int c = 0; c < n; ++c) {
                painted += b.tile.at(line, c) ? b.escape + b.mark + render::kAnsiReset : ".";
              }
              cell = painted + cell.substr(static_cast<std::size_t>(n));
            } else {
              for (int c = 0; c < n; ++c) cell[c] = b.tile.at(line, c) ? b.mark : '.';
            }
          }
          text += (bc == 0 ? "" : bc % 3 == 0 ? group_gap : gap) + cell;
        }
        while (!text.empty() && text.back() == ' ') text.pop_back();
        out += text + "\n";
      }
    }
    return out;
  }

  Spec spec_;
  Model model_;
  std::vector<Face> unit_faces_ = make_faces(spec_.size, {Vec3{0, 0, 0}});
};

}  // namespace

std::string instruction(const std::string& piece, int rotations_ccw, bool flipped,
                        const Face& face) {
  static const char* const kTimes[4] = {"", "once", "twice", "three times"};
  std::vector<std::string> steps;
  if (flipped) steps.push_back("flip it over");
  if (rotations_ccw % 4 != 0) {
    steps.push_back(std::string("turn it ") + kTimes[rotations_ccw % 4] + " counter-clockwise");
  }
  std::string out = "Take part " + printable(piece);
  if (steps.empty()) return out + " and put it on " + place_words(face) + ".";
  for (const std::string& s : steps) out += ", " + s;
  return out + ", and put it on " + place_words(face) + ".";
}

// Faces are placed at their centres and border points at themselves (doubled coordinates, so
// that a centre is a lattice point for every plate size). A reflection turns every plate over:
// piece items stay, and an option of a plate that may not be flipped has no image, so such
// puzzles keep only the rotations.
CubeGroup symmetry_group(const Model& m, SymmetryMode mode, const Watch& watch) {
  const Problem& pb = m.problem;
  const int n = m.size;
  ItemPlaces places;
  places.where.resize(pb.num_items());
  places.reflected.resize(pb.num_items());
  for (ItemId t : m.type_items) places.reflected[t] = t;
  for (std::size_t f = 0; f < m.faces.size(); ++f) {
    const Face& fc = m.faces[f];
    const Vec3 twice = fc.origin + fc.origin;
    const Vec3 span = fc.u + fc.v;
    places.where[m.face_items[f]] = std::pair{
        0,
        Vec3{twice.x + (n - 1) * span.x, twice.y + (n - 1) * span.y, twice.z + (n - 1) * span.z}};
  }
  for (std::size_t s = 0; s < m.shell.size(); ++s) {
    if (m.point_items[s]) {
      places.where[*m.point_items[s]] = std::pair{1, m.shell[s] + m.shell[s]};
    }
    if (m.hole_items[s]) {
      places.where[*m.hole_items[s]] = std::pair{2, m.shell[s] + m.shell[s]};
    }
  }
  return cube_symmetry_group(pb, places, mode, watch);
}

std::unique_ptr<Puzzle> make_puzzle(Spec spec, const Limits& limits) {
  return std::make_unique<HappyCubePuzzle>(std::move(spec), limits);
}

const Model* model_of(const Puzzle& puzzle) {
  const auto* hc = dynamic_cast<const HappyCubePuzzle*>(&puzzle);
  return hc ? &hc->model() : nullptr;
}

}  // namespace cubex::happycube
