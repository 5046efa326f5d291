// The voxel model: canonical form, orientations, compilation to exact cover, decoding.
#include <algorithm>
#include <charconv>
#include <map>
#include <numeric>

#include "cubex/limits.hpp"
#include "cubex/voxel/model.hpp"

namespace cubex::voxel {
namespace {

// Knuth's format: 1..8 characters of printable ASCII other than blank, ':' and '|'.
bool knuth_name(const std::string& s) {
  if (s.empty() || s.size() > 8) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char ch) { return ch > ' ' && ch < 127 && ch != ':' && ch != '|'; });
}

std::string cell_name(const Vec3& c, bool digits) {
  if (digits) return {char('0' + c.x), char('0' + c.y), char('0' + c.z)};
  return std::to_string(c.x) + "_" + std::to_string(c.y) + "_" + std::to_string(c.z);
}

// The axis along which `cells` are one cell thick: z (2) first, then y, then x; -1 if none.
int flat_axis(std::span<const Vec3> cells) {
  for (int a = 2; a >= 0; --a) {
    bool flat = true;
    for (const Vec3& c : cells) flat = flat && c[a] == cells.front()[a];
    if (flat) return a;
  }
  return -1;
}

Vec3 unit(int axis) {
  return {axis == 0, axis == 1, axis == 2};
}

}  // namespace

std::string cell_text(const Vec3& c) {
  std::string s = "[";
  s += std::to_string(c.x);
  s += ',';
  s += std::to_string(c.y);
  s += ',';
  s += std::to_string(c.z);
  s += ']';
  return s;
}

int Model::cell_index(const Vec3& c) const {
  auto it = std::lower_bound(cells.begin(), cells.end(), c);
  return it != cells.end() && *it == c ? static_cast<int>(it - cells.begin()) : -1;
}

bool Model::colour_allowed(int piece_colour, int cell_colour) const {
  if (!coloured || piece_colour == 0 || cell_colour == 0) return true;
  return std::find(colour_pairs.begin(), colour_pairs.end(),
                   std::pair{piece_colour, cell_colour}) != colour_pairs.end();
}

bool Model::has_piece_colours() const {
  for (const Piece& p : pieces)
    for (std::uint8_t c : p.colours)
      if (c) return true;
  return false;
}

std::size_t Model::num_must_fill() const {
  return static_cast<std::size_t>(std::count(optional.begin(), optional.end(), 0));
}

void canonicalize(Model& model) {
  if (model.cells.empty())
    throw ModelError("container", -1, "expected at least one container cell");
  model.optional.resize(model.cells.size(), 0);
  const bool cell_colours = !model.cell_colour.empty();
  model.cell_colour.resize(model.cells.size(), 0);
  std::vector<std::size_t> order(model.cells.size());
  std::iota(order.begin(), order.end(), 0);
  if (!std::is_sorted(model.cells.begin(), model.cells.end())) {  // (a box comes sorted)
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return model.cells[a] < model.cells[b]; });
  }
  std::vector<Vec3> cells;
  std::vector<std::uint8_t> optional, colour;
  for (std::size_t k : order) {
    if (!cells.empty() && cells.back() == model.cells[k]) {
      throw ModelError(
          "container", -1,
          "expected distinct container cells, found " + cell_text(model.cells[k]) + " twice");
    }
    cells.push_back(model.cells[k]);
    optional.push_back(model.optional[k] ? 1 : 0);
    colour.push_back(model.cell_colour[k]);
  }
  model.cells = std::move(cells);
  model.optional = std::move(optional);
  const bool any_colour =
      std::any_of(colour.begin(), colour.end(), [](std::uint8_t c) { return c; });
  model.cell_colour = cell_colours && any_colour ? std::move(colour) : std::vector<std::uint8_t>{};
  if (model.pieces.empty()) throw ModelError("pieces", -1, "expected at least one piece");
  for (std::size_t p = 0; p < model.pieces.size(); ++p) {
    Piece& piece = model.pieces[p];
    const std::string path = "pieces[" + std::to_string(p) + "]";
    if (piece.cells.empty()) throw ModelError(path, int(p), "expected at least one cell");
    if (piece.count < 1) throw ModelError(path, int(p), "expected a count of at least 1");
    if (piece.min_count > piece.count) {
      throw ModelError(path + ".count", int(p),
                       "expected a count range [min, max] with min <= max, found [" +
                           std::to_string(piece.min_count) + ", " + std::to_string(piece.count) +
                           "]");
    }
    if (!piece.colours.empty()) {
      if (piece.colours.size() != piece.cells.size())
        throw ModelError(path, int(p), "expected one colour per cell");
      // Normalise cells and colours together.
      std::vector<std::pair<Vec3, std::uint8_t>> cc;
      for (std::size_t k = 0; k < piece.cells.size(); ++k)
        cc.push_back({piece.cells[k], piece.colours[k]});
      std::sort(cc.begin(), cc.end());
      const std::vector<Vec3> norm = normalize(piece.cells);
      const Vec3 shift = norm.front() - cc.front().first;
      bool any = false;
      for (std::size_t k = 0; k < cc.size(); ++k) {
        piece.cells[k] = cc[k].first + shift;
        piece.colours[k] = cc[k].second;
        any = any || cc[k].second != 0;
      }
      if (!any) piece.colours.clear();
    }
    piece.cells = normalize(std::move(piece.cells));
    auto dup = std::adjacent_find(piece.cells.begin(), piece.cells.end());
    if (dup != piece.cells.end()) {
      throw ModelError(path, int(p), "expected distinct cells, found a cell twice");
    }
    if (!piece.turn_over.value_or(model.turn_over)) {
      const std::string where = piece.turn_over ? path + ".turn_over" : "turn_over";
      if (flat_axis(model.cells) < 0) {
        throw ModelError(where, int(p),
                         "expected a flat container (one cell thick) for \"turn_over\": false");
      }
      if (model.mirror) {
        throw ModelError(where, int(p),
                         "expected \"turn_over\": false without \"mirror\": true (in a flat "
                         "puzzle, mirroring a piece is turning it over)");
      }
    }
  }
}

std::uint64_t allowed_symmetries(const Model& model, std::size_t p) {
  return allowed_symmetries(model, model.pieces[p]);
}

std::uint64_t allowed_symmetries(const Model& model, const Piece& piece) {
  const std::uint64_t rotations = (std::uint64_t{1} << 24) - 1;
  if (piece.turn_over.value_or(model.turn_over))
    return model.mirror ? (std::uint64_t{1} << 48) - 1 : rotations;
  const int a = flat_axis(model.cells), b = flat_axis(piece.cells);
  if (a < 0 || b < 0) return rotations;  // a solid piece cannot lie in a flat container anyway
  std::uint64_t mask = 0;
  for (int k = 0; k < 24; ++k)
    if (cube_symmetries()[std::size_t(k)] * unit(b) == unit(a)) mask |= std::uint64_t{1} << k;
  return mask;
}

std::vector<Orientation> orientations(std::span<const Vec3> cells, bool mirror) {
  return orientations(cells, mirror ? (std::uint64_t{1} << 48) - 1 : (std::uint64_t{1} << 24) - 1);
}

std::vector<Orientation> orientations(std::span<const Vec3> cells, std::uint64_t allowed) {
  return orientations(cells, std::span<const std::uint8_t>(), allowed);
}

std::vector<Orientation> orientations(std::span<const Vec3> cells,
                                      std::span<const std::uint8_t> colours, bool mirror) {
  return orientations(cells, colours,
                      mirror ? (std::uint64_t{1} << 48) - 1 : (std::uint64_t{1} << 24) - 1);
}

bool sort_by_key(std::span<const Vec3> cells, std::span<const std::uint8_t> colours,
                 std::vector<std::uint64_t>& keys) {
  keys.resize(cells.size());
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const Vec3& c = cells[i];
    if (std::uint32_t(c.x) >= kKeySpan || std::uint32_t(c.y) >= kKeySpan ||
        std::uint32_t(c.z) >= kKeySpan)
      return false;
    keys[i] = std::uint64_t(c.x) << 44 | std::uint64_t(c.y) << 26 | std::uint64_t(c.z) << 8 |
              (colours.empty() ? 0 : colours[i]);
  }
  std::sort(keys.begin(), keys.end());
  return true;
}

Turner::Turner(std::span<const Vec3> cells, std::span<const std::uint8_t> colours)
    : cells_(cells), colours_(colours) {
  if (cells.empty()) return;
  Vec3 hi = lo_ = cells[0];
  for (const Vec3& c : cells) {
    lo_ = {std::min(lo_.x, c.x), std::min(lo_.y, c.y), std::min(lo_.z, c.z)};
    hi = {std::max(hi.x, c.x), std::max(hi.y, c.y), std::max(hi.z, c.z)};
  }
  const std::int64_t ex = std::int64_t(hi.x) - lo_.x, ey = std::int64_t(hi.y) - lo_.y,
                     ez = std::int64_t(hi.z) - lo_.z;
  if (ex >= kKeySpan || ey >= kKeySpan || ez >= kKeySpan) return;
  extent_ = {int(ex), int(ey), int(ez)};
  const std::int64_t volume = (ex + 1) * (ey + 1) * (ez + 1);
  // (A sparse box: the keys sorted. Reading an empty place of the grid costs a few
  // instructions, sorting costs tens per cell.)
  if (volume > 16 * std::int64_t(cells.size()) + 256) return;
  grid_.assign(std::size_t(volume), 0);
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const Vec3 d = cells[i] - lo_;
    grid_[(std::size_t(d.x) * std::size_t(ey + 1) + std::size_t(d.y)) * std::size_t(ez + 1) +
          std::size_t(d.z)] = std::uint16_t(1 + (colours.empty() ? 0 : colours[i]));
  }
}

bool Turner::turn(const Mat3& m, std::vector<std::uint64_t>& keys, Vec3& shift) {
  keys.clear();
  if (cells_.empty()) {
    shift = {};
    return true;
  }
  // Turned axis a is original axis p[a] times s[a] (a signed permutation).
  int p[3], s[3];
  bool permutation = true;
  for (int a = 0; a < 3; ++a) {
    int nonzero = 0;
    for (int b = 0; b < 3; ++b) {
      if (m.m[std::size_t(a)][std::size_t(b)] == 0) continue;
      ++nonzero;
      p[a] = b;
      s[a] = m.m[std::size_t(a)][std::size_t(b)];
    }
    permutation = permutation && nonzero == 1 && (s[a] == 1 || s[a] == -1);
  }
  if (!grid_.empty() && permutation) {
    // The smallest corner of the turned cells: M lo_, less the extent along negated axes.
    const Vec3 t = m * lo_;
    const int e[3] = {extent_.x, extent_.y, extent_.z};
    const std::int64_t stride[3] = {std::int64_t(extent_.y + 1) * (extent_.z + 1), extent_.z + 1,
                                    1};
    shift = Vec3{} - Vec3{t.x - (s[0] < 0 ? e[p[0]] : 0), t.y - (s[1] < 0 ? e[p[1]] : 0),
                          t.z - (s[2] < 0 ? e[p[2]] : 0)};
    std::int64_t start = 0, step[3];
    for (int a = 0; a < 3; ++a) {
      if (s[a] < 0) start += e[p[a]] * stride[p[a]];
      step[a] = s[a] * stride[p[a]];
    }
    // Turned coordinates u0, u1, u2 in increasing order: the keys come sorted.
    for (int u0 = 0; u0 <= e[p[0]]; ++u0) {
      for (int u1 = 0; u1 <= e[p[1]]; ++u1) {
        std::int64_t at = start + u0 * step[0] + u1 * step[1];
        const std::uint64_t row = std::uint64_t(u0) << 44 | std::uint64_t(u1) << 26;
        for (int u2 = 0; u2 <= e[p[2]]; ++u2, at += step[2]) {
          if (const std::uint16_t v = grid_[std::size_t(at)])
            keys.push_back(row | std::uint64_t(u2) << 8 | std::uint64_t(v - 1));
        }
      }
    }
    return true;
  }
  turned_.resize(cells_.size());
  Vec3 lo = m * cells_[0];
  for (std::size_t i = 0; i < cells_.size(); ++i) {
    turned_[i] = m * cells_[i];
    lo = {std::min(lo.x, turned_[i].x), std::min(lo.y, turned_[i].y), std::min(lo.z, turned_[i].z)};
  }
  for (Vec3& c : turned_) c = c - lo;
  if (!sort_by_key(turned_, colours_, keys)) return false;
  shift = Vec3{} - lo;
  return true;
}

std::vector<Orientation> orientations(std::span<const Vec3> cells,
                                      std::span<const std::uint8_t> colours,
                                      std::uint64_t allowed) {
  std::vector<Orientation> out;
  if (cells.empty()) return out;
  const auto& group = cube_symmetries();
  // Each orientation's cells (with colours) moved to the smallest corner 0, as sorted keys
  // (Turner) where the coordinates allow; found[q] are out[q]'s keys.
  Turner turner(cells, colours);
  std::vector<std::uint64_t> keys;
  std::vector<std::vector<std::uint64_t>> found;
  std::vector<std::pair<Vec3, std::uint8_t>> cc;
  for (int k = 0; k < 48; ++k) {
    if (!(allowed >> k & 1)) continue;
    const Mat3& m = group[std::size_t(k)];
    Orientation o;
    o.symmetry = k;
    if (turner.turn(m, keys, o.shift)) {
      if (std::find(found.begin(), found.end(), keys) != found.end()) continue;
      found.push_back(keys);
      o.cells.resize(keys.size());
      for (std::size_t i = 0; i < keys.size(); ++i) o.cells[i] = key_cell(keys[i]);
      if (!colours.empty()) {
        o.colours.resize(keys.size());
        for (std::size_t i = 0; i < keys.size(); ++i) o.colours[i] = std::uint8_t(keys[i]);
      }
    } else {  // (coordinates beyond the keys' span: by pairs)
      Vec3 lo = m * cells[0];
      for (const Vec3& c : cells) {
        const Vec3 t = m * c;
        lo = {std::min(lo.x, t.x), std::min(lo.y, t.y), std::min(lo.z, t.z)};
      }
      o.shift = Vec3{} - lo;
      cc.clear();
      for (std::size_t i = 0; i < cells.size(); ++i)
        cc.push_back({m * cells[i] - lo, colours.empty() ? std::uint8_t(0) : colours[i]});
      std::sort(cc.begin(), cc.end());
      for (const auto& [c, col] : cc) {
        o.cells.push_back(c);
        if (!colours.empty()) o.colours.push_back(col);
      }
      const bool seen = std::any_of(out.begin(), out.end(), [&](const Orientation& q) {
        return q.cells == o.cells && q.colours == o.colours;
      });
      if (seen) continue;
      found.emplace_back();  // (no keys: told apart by the cells)
    }
    out.push_back(std::move(o));
  }
  return out;
}

Compiled compile(const Model& model, const Limits& limits) {
  Compiled out;
  // The stop flag, polled every few thousand cells or placements (cubex/stop.hpp).
  PhasePoll naming(limits.watch, "naming the cells", model.cells.size());
  std::vector<bool> fits(model.pieces.size(), false);
  std::size_t optional_cells = model.cells.size() - model.num_must_fill();
  const bool count_holes = model.max_holes >= 0 && std::size_t(model.max_holes) < optional_cells;

  // Grid over the container's bounding box: index of each cell, or -1.
  Vec3 lo = model.cells.front(), hi = model.cells.front();
  for (const Vec3& c : model.cells) {
    lo = {std::min(lo.x, c.x), std::min(lo.y, c.y), std::min(lo.z, c.z)};
    hi = {std::max(hi.x, c.x), std::max(hi.y, c.y), std::max(hi.z, c.z)};
  }
  const Vec3 dim = hi - lo + Vec3{1, 1, 1};
  std::vector<int> grid(std::size_t(dim.x) * dim.y * dim.z, -1);
  auto at = [&](const Vec3& c) -> int& {
    const Vec3 d = c - lo;
    return grid[(std::size_t(d.z) * dim.y + d.y) * dim.x + d.x];
  };
  for (std::size_t k = 0; k < model.cells.size(); ++k) at(model.cells[k]) = int(k);
  auto inside = [&](const Vec3& c) {
    return c.x >= lo.x && c.y >= lo.y && c.z >= lo.z && c.x <= hi.x && c.y <= hi.y && c.z <= hi.z &&
           at(c) >= 0;
  };

  // Items: pieces first, then the cells in layer order (z, y, x), as in Knuth's files.
  const bool digits = lo.x >= 0 && lo.y >= 0 && lo.z >= 0 && hi.x <= 9 && hi.y <= 9 && hi.z <= 9;
  std::vector<std::string> names(model.cells.size());
  for (std::size_t k = 0; k < model.cells.size(); ++k) {
    names[k] = cell_name(model.cells[k], digits);
    naming.step();
  }
  // Whether `s` names a cell: it reads as a cell's coordinates, written back the same way.
  auto taken = [&](const std::string& s) {
    Vec3 c{};
    if (digits) {
      if (s.size() != 3) return false;
      c = {s[0] - '0', s[1] - '0', s[2] - '0'};
    } else {
      const char* p = s.data();
      const char* end = s.data() + s.size();
      for (int a = 0; a < 3; ++a) {
        if (a > 0 && (p == end || *p++ != '_')) return false;
        int v = 0;
        const auto r = std::from_chars(p, end, v);
        if (r.ec != std::errc()) return false;
        p = r.ptr;
        (a == 0 ? c.x : a == 1 ? c.y : c.z) = v;
      }
      if (p != end) return false;
    }
    return cell_name(c, digits) == s && inside(c);
  };
  std::vector<std::string> piece_names;
  for (std::size_t p = 0; p < model.pieces.size(); ++p) {
    std::string n = model.pieces[p].name;
    const bool ok = knuth_name(n) && !taken(n) &&
                    std::find(piece_names.begin(), piece_names.end(), n) == piece_names.end();
    if (!ok) {
      n = "#" + std::to_string(p);
      while (taken(n) || std::find(piece_names.begin(), piece_names.end(), n) != piece_names.end())
        n = "#" + n;
    }
    piece_names.push_back(n);
  }
  // One kind of piece filling a container without optional cells exactly (25 Y-pentacubes,
  // 9 L-tricubes): every exact cover of the cells uses `count` copies, so the piece's item would
  // only repeat what the cells say. It is left out: the matrix has no multiplicity, and the
  // faster bitset backend takes it.
  bool implied = model.pieces.size() == 1 && !model.pieces[0].ranged();
  for (std::uint8_t o : model.optional) implied = implied && !o;
  implied = implied && model.cells.size() == model.pieces[0].cells.size() *
                                                 static_cast<std::size_t>(model.pieces[0].count);
  // A spare piece (0..1) is a secondary item where every placement covers a must-fill cell (no
  // optional cells), so that a puzzle with spares stays plain exact cover for the bitset backend.
  const bool all_must =
      std::find(model.optional.begin(), model.optional.end(), 1) == model.optional.end();
  for (std::size_t p = 0; p < model.pieces.size(); ++p) {
    const Piece& pc = model.pieces[p];
    const auto hi = std::uint32_t(pc.count), lo = std::uint32_t(pc.fewest());
    if (implied) {
      out.piece_item.push_back(kNoItem);
    } else if (lo == 0 && hi == 1 && all_must) {
      out.piece_item.push_back(out.problem.add_secondary(piece_names[p]));
    } else {
      out.piece_item.push_back(out.problem.add_primary(piece_names[p], lo, hi));
    }
  }
  if (count_holes) {
    std::string n = "holes";
    while (taken(n) || std::find(piece_names.begin(), piece_names.end(), n) != piece_names.end())
      n = "#" + n;
    out.holes_item = out.problem.add_primary(n, 0, std::uint32_t(model.max_holes));
  }
  // The cells in layer order, read off the grid (z, then y, then x).
  std::vector<std::size_t> order;
  order.reserve(model.cells.size());
  PhasePoll items_poll(limits.watch, "making the cells' items", grid.size() + model.cells.size());
  for (int z = lo.z; z <= hi.z; ++z)
    for (int y = lo.y; y <= hi.y; ++y)
      for (int x = lo.x; x <= hi.x; ++x) {
        items_poll.step();
        if (const int k = at({x, y, z}); k >= 0) order.push_back(std::size_t(k));
      }
  out.cell_item.resize(model.cells.size());
  out.problem.reserve_items(out.problem.num_items() + model.cells.size());
  for (std::size_t k : order) {
    out.cell_item[k] = model.optional[k] && !count_holes ? out.problem.add_secondary(names[k])
                                                         : out.problem.add_primary(names[k]);
    items_poll.step();
  }
  auto cell_colour = [&](const Vec3& c) {
    return model.cell_colour.empty() ? 0 : int(model.cell_colour[std::size_t(at(c))]);
  };
  // Coloured pieces whose orientations put different colours on the same cells: their options
  // also name (cell, colour) secondary items, so that no two options cover the same items.
  std::vector<std::vector<Orientation>> orients(model.pieces.size());
  std::vector<bool> marked(model.pieces.size(), false);
  std::map<std::pair<Vec3, int>, ItemId> colour_item;
  for (std::size_t p = 0; p < model.pieces.size(); ++p) {
    const Piece& piece = model.pieces[p];
    orients[p] = orientations(piece.cells,
                              model.coloured ? std::span<const std::uint8_t>(piece.colours)
                                             : std::span<const std::uint8_t>(),
                              allowed_symmetries(model, p));
    for (std::size_t a = 0; a < orients[p].size() && !marked[p]; ++a)
      for (std::size_t b = a + 1; b < orients[p].size(); ++b)
        if (orients[p][a].cells == orients[p][b].cells) marked[p] = true;
    if (!marked[p]) continue;
    for (const Vec3& c : model.cells)
      for (std::uint8_t col : piece.colours) {
        if (!col || colour_item.count({c, col})) continue;
        const ItemId id = out.problem.add_secondary(names[std::size_t(model.cell_index(c))] + "c" +
                                                    std::to_string(col));
        colour_item[{c, col}] = id;
      }
  }
  out.colour_items.assign(colour_item.begin(), colour_item.end());

  // Options: every orientation at every translation that stays inside the container. The
  // translations that fit are found first (with the matrix's size, stopping where it would
  // outgrow the limit), then the options are written into storage made once.
  std::vector<ItemId> items;
  std::uint64_t translations = 0;  // at most what the placement loop tries, for the phase board
  for (std::size_t p = 0; p < model.pieces.size(); ++p)
    translations += orients[p].size() * grid.size();
  PhasePoll placing(limits.watch, "compiling the placements", translations);
  // Per orientation, each cell's place in the grid relative to the translation's (a translation
  // inside the box keeps every cell inside it: only the grid says whether a cell is the
  // container's).
  std::vector<std::size_t> offset;
  struct Fit {
    std::uint32_t piece, orientation;
    Vec3 at;
    std::size_t base;  // the grid's index of `at`
  };
  std::vector<Fit> fitted;
  std::uint64_t entries = 0;
  for (std::size_t p = 0; p < model.pieces.size(); ++p) {
    for (std::size_t k = 0; k < orients[p].size(); ++k) {
      const Orientation& o = orients[p][k];
      Vec3 size{};
      for (const Vec3& c : o.cells)
        size = {std::max(size.x, c.x), std::max(size.y, c.y), std::max(size.z, c.z)};
      offset.resize(o.cells.size());
      for (std::size_t i = 0; i < o.cells.size(); ++i)
        offset[i] = (std::size_t(o.cells[i].z) * dim.y + std::size_t(o.cells[i].y)) * dim.x +
                    std::size_t(o.cells[i].x);
      std::size_t width = o.cells.size() + (out.piece_item[p] != kNoItem);
      if (marked[p])
        for (std::uint8_t col : o.colours) width += col != 0;
      for (int z = lo.z; z + size.z <= hi.z; ++z)
        for (int y = lo.y; y + size.y <= hi.y; ++y)
          for (int x = lo.x; x + size.x <= hi.x; ++x) {
            placing.step();
            const Vec3 t{x, y, z};
            const int* base =
                &grid[(std::size_t(z - lo.z) * dim.y + std::size_t(y - lo.y)) * dim.x +
                      std::size_t(x - lo.x)];
            bool fits = true;
            for (std::size_t i = 0; i < o.cells.size() && fits; ++i) fits = base[offset[i]] >= 0;
            for (std::size_t i = 0; fits && i < o.colours.size(); ++i)
              fits = model.colour_allowed(o.colours[i], cell_colour(o.cells[i] + t));
            if (!fits) continue;
            fitted.push_back({std::uint32_t(p), std::uint32_t(k), t, std::size_t(base - grid.data())});
            entries += width;
            // Stop as soon as the matrix outgrows the limit, before memory runs out.
            if (const std::uint64_t nodes = out.problem.num_items() + entries + fitted.size() + 2;
                nodes > limits.max_nodes)
              throw ModelError("pieces[" + std::to_string(p) + "]", int(p),
                               too_many_nodes(nodes, limits));
          }
    }
  }
  const std::size_t holes = count_holes ? model.cells.size() - model.num_must_fill() : 0;
  out.problem.reserve_options(fitted.size() + holes, entries + 2 * holes);
  out.placements.reserve(fitted.size() + holes);
  PhasePoll writing(limits.watch, "compiling the placements", fitted.size());
  for (std::size_t q = 0; q < fitted.size(); ++q) {
    writing.step();
    const Fit& f = fitted[q];
    const std::size_t p = f.piece;
    const Orientation& o = orients[p][f.orientation];
    fits[p] = true;
    if (q == 0 || f.orientation != fitted[q - 1].orientation || p != fitted[q - 1].piece) {
      offset.resize(o.cells.size());
      for (std::size_t i = 0; i < o.cells.size(); ++i)
        offset[i] = (std::size_t(o.cells[i].z) * dim.y + std::size_t(o.cells[i].y)) * dim.x +
                    std::size_t(o.cells[i].x);
    }
    Placement pl;
    pl.piece = int(p);
    pl.symmetry = o.symmetry;
    pl.offset = o.shift + f.at;
    pl.cells.resize(o.cells.size());
    items.clear();
    if (out.piece_item[p] != kNoItem) items.push_back(out.piece_item[p]);
    for (std::size_t i = 0; i < o.cells.size(); ++i) {
      const Vec3 c = o.cells[i] + f.at;
      pl.cells[i] = c;
      items.push_back(out.cell_item[std::size_t(grid[f.base + offset[i]])]);
      if (marked[p] && o.colours[i]) items.push_back(colour_item.at({c, o.colours[i]}));
    }
    out.problem.add_option(items);
    out.placements.push_back(std::move(pl));
  }
  if (count_holes) {
    for (std::size_t k = 0; k < model.cells.size(); ++k) {
      if (!model.optional[k]) continue;
      out.problem.add_option({out.holes_item, out.cell_item[k]});
      Placement hole;
      hole.piece = -1;
      hole.cells = {model.cells[k]};
      out.placements.push_back(std::move(hole));
    }
  }
  out.infeasible = infeasible(model, fits);
  return out;
}

std::vector<PlacedPiece> decode(const Compiled& compiled, std::span<const OptionId> solution) {
  std::vector<PlacedPiece> out;
  for (OptionId o : solution) {
    const Placement& pl = compiled.placements[o];
    if (pl.piece < 0) continue;  // a hole
    out.push_back({pl.piece, 0, pl.symmetry, pl.offset, pl.cells});
  }
  std::sort(out.begin(), out.end(), [](const PlacedPiece& a, const PlacedPiece& b) {
    return std::tie(a.piece, a.cells.front()) < std::tie(b.piece, b.cells.front());
  });
  for (std::size_t k = 1; k < out.size(); ++k) {
    if (out[k].piece == out[k - 1].piece) out[k].copy = out[k - 1].copy + 1;
  }
  return out;
}

Mat3 rotation_part(int symmetry) {
  const Mat3& m = cube_symmetries()[std::size_t(symmetry)];
  return symmetry < 24 ? m : m * mirror_x();  // mirror_x is its own inverse
}

}  // namespace cubex::voxel
