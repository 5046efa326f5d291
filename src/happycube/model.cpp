// The Happy Cube model: plate orientations, the faces of a structure and the exact-cover matrix.
#include "cubex/happycube/model.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

#include "cubex/limits.hpp"

namespace cubex::happycube {
namespace {

Vec3 scaled(const Vec3& p, int k) {
  return {p.x * k, p.y * k, p.z * k};
}

Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

Vec3 unit(int axis, int sign) {
  Vec3 e;
  (axis == 0 ? e.x : axis == 1 ? e.y : e.z) = sign;
  return e;
}

// The frame of side `side` of the unit cube at `cube` for the general structures: the drawn side
// faces inward, "up" is +z (or +y on the faces normal to z).
Face generic_face(const Vec3& cube, int side, int l) {
  const int axis = side / 2, sign = side % 2 == 0 ? 1 : -1;
  const Vec3 inward = unit(axis, -sign);
  Face f;
  f.cube = cube;
  f.side = side;
  f.v = axis == 2 ? unit(1, 1) : unit(2, 1);
  f.u = cross(f.v, inward);
  int o[3];
  for (int b = 0; b < 3; ++b) {
    const int lo = cube[b] * l, hi = (cube[b] + 1) * l;
    if (b == axis) {
      o[b] = sign > 0 ? hi : lo;
    } else {
      o[b] = f.u[b] + f.v[b] > 0 ? lo : hi;
    }
  }
  f.origin = {o[0], o[1], o[2]};
  return f;
}

// The six places of the net (see model.hpp), as {side, origin, u, v} for the cube at the origin.
struct NetFrame {
  int side;
  Vec3 origin, u, v;  // origin in units of L
};
constexpr NetFrame kNet[6] = {
    {2, {0, 1, 0}, {1, 0, 0}, {0, 0, 1}},   // 1: back wall y = L
    {5, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}},   // 2: base z = 0
    {1, {0, 0, 1}, {0, 0, -1}, {0, 1, 0}},  // 3: left wall x = 0
    {0, {1, 0, 0}, {0, 0, 1}, {0, 1, 0}},   // 4: right wall x = L
    {3, {0, 0, 1}, {1, 0, 0}, {0, 0, -1}},  // 5: front wall y = 0
    {4, {0, 1, 1}, {1, 0, 0}, {0, -1, 0}},  // 6: top z = L
};

std::string point_item(const Vec3& p) {
  std::string s(1, 'c');
  s.append(std::to_string(p.x)).append(1, '_').append(std::to_string(p.y)).append(1, '_');
  return s.append(std::to_string(p.z));
}

std::string face_item(const Face& f, std::size_t index) {
  std::string s(1, 'F');
  if (f.place > 0) return s.append(std::to_string(f.place));
  return s.append(std::to_string(index)).append(kSideNames[f.side]);
}

// Pieces with the same set of allowed grids are physically the same piece.
std::vector<std::string> signature(const std::vector<Orientation>& orients) {
  std::vector<std::string> grids;
  for (const Orientation& o : orients) grids.emplace_back(o.tile.cells.begin(), o.tile.cells.end());
  std::sort(grids.begin(), grids.end());
  return grids;
}

}  // namespace

Tile orient(const Tile& t, int rotations_ccw, bool flipped) {
  const int n = t.n;
  Tile cur(n);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) cur.set(r, flipped ? n - 1 - c : c, t.at(r, c));
  for (int k = 0; k < ((rotations_ccw % 4) + 4) % 4; ++k) {
    Tile next(n);
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) next.set(n - 1 - c, r, cur.at(r, c));
    cur = std::move(next);
  }
  return cur;
}

std::vector<Orientation> distinct_orientations(const Tile& t, bool may_flip) {
  std::vector<Orientation> out;
  for (int f = 0; f < (may_flip ? 2 : 1); ++f) {
    for (int k = 0; k < 4; ++k) {
      Tile g = orient(t, k, f == 1);
      const bool seen =
          std::any_of(out.begin(), out.end(), [&](const Orientation& o) { return o.tile == g; });
      if (!seen) out.push_back({k, f == 1, std::move(g)});
    }
  }
  return out;
}

std::optional<Orientation> orientation_between(const Tile& from, const Tile& to, bool may_flip) {
  for (Orientation& o : distinct_orientations(from, may_flip)) {
    if (o.tile == to) return std::move(o);
  }
  return std::nullopt;
}

std::string Face::label() const {
  if (place > 0) return "place " + std::to_string(place);
  return "cube (" + std::to_string(cube.x) + "," + std::to_string(cube.y) + "," +
         std::to_string(cube.z) + ") side " + kSideNames[side];
}

std::vector<Face> make_faces(int n, const std::vector<Vec3>& structure) {
  const int l = n - 1;
  std::vector<Face> faces;
  if (structure.size() == 1) {
    const Vec3 base = scaled(structure[0], l);
    for (int p = 0; p < 6; ++p) {
      Face f;
      f.cube = structure[0];
      f.side = kNet[p].side;
      f.place = p + 1;
      f.origin = base + scaled(kNet[p].origin, l);
      f.u = kNet[p].u;
      f.v = kNet[p].v;
      faces.push_back(f);
    }
    return faces;
  }
  std::vector<Vec3> sorted(structure);
  std::sort(sorted.begin(), sorted.end());
  for (const Vec3& c : structure) {
    for (int side = 0; side < 6; ++side) {
      const Vec3 next = c + unit(side / 2, side % 2 == 0 ? 1 : -1);
      if (!std::binary_search(sorted.begin(), sorted.end(), next)) {
        faces.push_back(generic_face(c, side, l));
      }
    }
  }
  return faces;
}

std::optional<std::size_t> Model::shell_index(const Vec3& p) const {
  auto it = std::lower_bound(shell.begin(), shell.end(), p);
  if (it == shell.end() || *it != p) return std::nullopt;
  return static_cast<std::size_t>(it - shell.begin());
}

Model compile(const Spec& spec, bool hole_items, const Limits& limits) {
  Model m;
  m.name = spec.name;
  m.size = spec.size;
  m.structure = spec.structure;
  m.faces = make_faces(spec.size, spec.structure);
  const int n = spec.size;

  for (const PieceSpec& p : spec.pieces) m.plates += static_cast<std::size_t>(p.count);

  std::vector<std::vector<std::string>> type_grids;
  for (const PieceSpec& p : spec.pieces) {
    std::vector<Orientation> orients = distinct_orientations(p.tile, p.may_flip);
    std::vector<std::string> grids = signature(orients);
    auto it = std::find(type_grids.begin(), type_grids.end(), grids);
    std::size_t t = static_cast<std::size_t>(it - type_grids.begin());
    if (it == type_grids.end()) {
      type_grids.push_back(std::move(grids));
      m.types.push_back({{}, {}, p.tile, p.may_flip, std::move(orients)});
    }
    for (int k = 0; k < p.count; ++k) {
      m.types[t].names.push_back(p.name);
      m.types[t].copy_tiles.push_back(p.tile);
    }
  }

  // Shell points: the n x n points of every face; border points are shared by two or more faces.
  // Refuse a matrix over the limit before building any of it (or the shell): every option holds
  // its type, its face, a spacer and one node per border cell (the point or its hole).
  std::uint64_t option_nodes = 0;
  for (const PieceType& type : m.types) {
    for (const Orientation& o : type.orientations) {
      std::uint64_t border = 4 * std::uint64_t(n - 1);
      if (!hole_items) {
        border = 0;
        for (int r = 0; r < n; ++r)
          for (int c = 0; c < n; ++c) border += o.tile.at(r, c) && !o.tile.in_centre(r, c);
      }
      option_nodes += m.faces.size() * (3 + border);
    }
  }
  check_nodes(2 + m.types.size() + m.faces.size() + option_nodes, limits);

  std::map<Vec3, int> on_faces;  // border point -> faces through it
  std::vector<Vec3> all;
  for (const Face& f : m.faces)
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        const Vec3 p = f.point(r, c, n);
        all.push_back(p);
        if (r == 0 || c == 0 || r == n - 1 || c == n - 1) ++on_faces[p];
      }
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  m.shell = std::move(all);

  Problem& pb = m.problem;
  const bool spare = m.plates > m.faces.size();
  for (std::size_t t = 0; t < m.types.size(); ++t) {
    const auto copies = static_cast<std::uint32_t>(m.types[t].names.size());
    const std::string name = "P" + std::to_string(t + 1);
    m.type_items.push_back(!spare || copies == 1 ? pb.add_primary(name, copies, copies)
                                                 : pb.add_primary(name, 0, copies));
  }
  for (std::size_t i = 0; i < m.faces.size(); ++i)
    m.face_items.push_back(pb.add_primary(face_item(m.faces[i], i)));
  m.point_items.assign(m.shell.size(), std::nullopt);
  m.hole_items.assign(m.shell.size(), std::nullopt);
  // Point items in the order the faces reach them (the order of the encoding before hole items,
  // so that compile(spec, false) is that matrix), each followed by its hole item.
  for (const Face& f : m.faces)
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        if (r > 0 && c > 0 && r < n - 1 && c < n - 1) continue;
        const Vec3 p = f.point(r, c, n);
        const std::size_t s = *m.shell_index(p);
        if (m.point_items[s]) continue;
        m.point_items[s] = pb.add_primary(point_item(p));
        const auto holes = static_cast<std::uint32_t>(on_faces.at(p) - 1);
        if (hole_items)
          m.hole_items[s] = pb.add_primary("h" + point_item(p).substr(1), holes, holes);
      }

  std::uint64_t singles = 0;  // "unused" options (two nodes each)
  for (const PieceType& type : m.types) singles += spare && type.names.size() == 1;
  const std::uint64_t nodes = matrix_nodes(pb) + option_nodes + 2 * singles;  // checked below
  check_nodes(nodes, limits);
  std::vector<ItemId> items;
  for (std::size_t t = 0; t < m.types.size(); ++t) {
    for (std::size_t fi = 0; fi < m.faces.size(); ++fi) {
      const Face& f = m.faces[fi];
      for (const Orientation& o : m.types[t].orientations) {
        items.assign({m.type_items[t], m.face_items[fi]});
        Placement pl{static_cast<std::uint32_t>(t),
                     static_cast<std::uint32_t>(fi),
                     o.rotations_ccw,
                     o.flipped,
                     {}};
        for (int r = 0; r < n; ++r)
          for (int c = 0; c < n; ++c) {
            const bool filled = o.tile.at(r, c);
            const Vec3 p = f.point(r, c, n);
            if (filled) pl.cells.push_back(p);
            if (o.tile.in_centre(r, c)) continue;
            const std::size_t s = *m.shell_index(p);
            if (filled || hole_items)
              items.push_back(filled ? *m.point_items[s] : *m.hole_items[s]);
          }
        std::sort(pl.cells.begin(), pl.cells.end());
        pb.add_option(items);
        m.placements.push_back(std::move(pl));
      }
    }
  }
  // With spare plates, a plate of one copy has an option of its own for being left over: its
  // item is then covered exactly once in every solution and is fixed by every symmetry, so the
  // symmetric search can cut its options to one per orbit (an anchor, see symmetry.hpp).
  if (spare) {
    for (std::size_t t = 0; t < m.types.size(); ++t) {
      if (m.types[t].names.size() != 1) continue;
      pb.add_option({m.type_items[t]});
      m.placements.push_back({static_cast<std::uint32_t>(t), Placement::kUnused, 0, false, {}});
    }
  }
  if (matrix_nodes(pb) != nodes) throw std::logic_error("happycube: node count estimate");
  m.infeasible = infeasibility(m);
  return m;
}

std::string infeasibility(const Model& m) {
  const std::size_t faces = m.faces.size();
  const std::string shape = m.net_places() ? "cube" : "structure";
  if (m.plates < faces) {
    return "too few plates: the " + shape + " has " + std::to_string(faces) + " faces and there " +
           (m.plates == 1 ? "is 1 plate" : "are " + std::to_string(m.plates) + " plates");
  }
  // Points along the edges (the middle of a face's side) and corner points: the two kinds of
  // border points, told apart by the cells of the faces that hold them (a corner cell of one face
  // is a corner cell of every face through it).
  const int n = m.size;
  std::set<Vec3> edge_points, corner_points;
  for (const Face& f : m.faces)
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        const bool row_end = r == 0 || r == n - 1, col_end = c == 0 || c == n - 1;
        if (row_end && col_end) {
          corner_points.insert(f.point(r, c, n));
        } else if (row_end || col_end) {
          edge_points.insert(f.point(r, c, n));
        }
      }
  const std::size_t want_e = edge_points.size(), want_c = corner_points.size();
  // Per piece type: its bumps along the edges and on the corners, and its copies.
  struct Bumps {
    std::size_t edge = 0, corner = 0, copies = 0;
  };
  std::vector<Bumps> bumps;
  std::size_t all_e = 0, all_c = 0;
  for (const PieceType& t : m.types) {
    Bumps b;
    b.copies = t.names.size();
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        if (!t.tile.at(r, c) || t.tile.in_centre(r, c)) continue;
        const bool corner = (r == 0 || r == n - 1) && (c == 0 || c == n - 1);
        ++(corner ? b.corner : b.edge);
      }
    all_e += b.edge * b.copies;
    all_c += b.corner * b.copies;
    bumps.push_back(b);
  }
  auto counts = [&](std::size_t e, std::size_t c) {
    return std::to_string(e) + " bump" + (e == 1 ? "" : "s") + " along their edges and " +
           std::to_string(c) + " on their corners";
  };
  const std::string needs = "the " + shape + " has " + std::to_string(want_e) +
                            " points along its edges and " + std::to_string(want_c) +
                            " corner points, each filled by exactly one plate";
  if (m.plates == faces) {
    if (all_e == want_e && all_c == want_c) return {};
    return "the bumps of the plates cannot fill the edges and corners: " + needs + ", and the " +
           std::to_string(m.plates) + " plates have " + counts(all_e, all_c);
  }
  // Spare plates: is there a choice of `faces` plates with exactly those sums? Reachable states
  // (plates chosen, edge bumps) -> a bit per corner-bump sum, over the piece types and their
  // copies. Skipped when the table would be large (a structure of hundreds of cubes).
  const std::size_t stride = want_c + 1, cells = (faces + 1) * (want_e + 1) * stride;
  if (cells > (std::size_t(1) << 24)) return {};
  std::vector<std::uint8_t> reach(cells, 0), next;
  auto at = [&](std::size_t k, std::size_t e, std::size_t c) {
    return (k * (want_e + 1) + e) * stride + c;
  };
  reach[at(0, 0, 0)] = 1;
  for (const Bumps& b : bumps) {
    next = reach;
    for (std::size_t k = 0; k < faces; ++k)
      for (std::size_t e = 0; e <= want_e; ++e)
        for (std::size_t c = 0; c <= want_c; ++c) {
          if (!reach[at(k, e, c)]) continue;
          for (std::size_t u = 1; u <= b.copies && k + u <= faces; ++u) {
            const std::size_t e2 = e + u * b.edge, c2 = c + u * b.corner;
            if (e2 > want_e || c2 > want_c) break;
            next[at(k + u, e2, c2)] = 1;
          }
        }
    reach.swap(next);
  }
  if (reach[at(faces, want_e, want_c)]) return {};
  return "the bumps of the plates cannot fill the edges and corners: " + needs + ", and no " +
         std::to_string(faces) + " of the " + std::to_string(m.plates) + " plates have together " +
         counts(want_e, want_c);
}

std::vector<ItemId> memo_order(const Model& m) {
  const std::size_t nf = m.faces.size();
  const int n = m.size;
  std::map<Vec3, std::vector<std::size_t>> through;  // border point -> faces
  std::vector<std::vector<Vec3>> border(nf);
  for (std::size_t f = 0; f < nf; ++f) {
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c)
        if (r == 0 || c == 0 || r == n - 1 || c == n - 1) {
          border[f].push_back(m.faces[f].point(r, c, n));
          through[border[f].back()].push_back(f);
        }
  }
  // The open points of a set of faces: border points through a face taken and one not taken.
  std::vector<bool> taken(nf, false);
  auto open_points = [&]() {
    std::size_t k = 0;
    for (const auto& [p, fs] : through) {
      bool in = false, out = false;
      for (std::size_t f : fs) (taken[f] ? in : out) = true;
      k += in && out;
    }
    return k;
  };
  // From each first face, greedily the face that leaves the fewest open points; of these orders
  // the one with the smallest sum of 2^(open points) over its steps (a bound on the states).
  std::vector<ItemId> best_order;
  double best_cost = 0;
  for (std::size_t first = 0; first < nf; ++first) {
    std::fill(taken.begin(), taken.end(), false);
    taken[first] = true;
    std::vector<ItemId> order{m.face_items[first]};
    double cost = 0;
    for (std::size_t k = 1; k < nf; ++k) {
      std::size_t best = nf, best_open = 0;
      for (std::size_t f = 0; f < nf; ++f) {
        if (taken[f]) continue;
        taken[f] = true;
        const std::size_t open = open_points();
        taken[f] = false;
        if (best == nf || open < best_open) {
          best = f;
          best_open = open;
        }
      }
      taken[best] = true;
      order.push_back(m.face_items[best]);
      cost += std::ldexp(1.0, static_cast<int>(std::min<std::size_t>(best_open, 1000)));
    }
    if (best_order.empty() || cost < best_cost) {
      best_order = order;
      best_cost = cost;
    }
  }
  return best_order;
}

}  // namespace cubex::happycube
