// The Happy Cube model: plate orientations, the faces of a structure and the exact-cover matrix.
#include "cubex/happycube/model.hpp"

#include <algorithm>
#include <map>
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

Model compile(const Spec& spec) {
  Model m;
  m.name = spec.name;
  m.size = spec.size;
  m.structure = spec.structure;
  m.faces = make_faces(spec.size, spec.structure);
  const int n = spec.size;

  std::size_t pieces = 0;
  for (const PieceSpec& p : spec.pieces) pieces += static_cast<std::size_t>(p.count);
  if (pieces != m.faces.size()) {
    throw std::invalid_argument("expected " + std::to_string(m.faces.size()) +
                                " pieces for the faces of the shape, found " +
                                std::to_string(pieces));
  }

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

  // The options are known now: every orientation of every piece type on every face, each with
  // the type, the face and the filled border points (every border point is an item), after a
  // spacer. Refuse a matrix over the limit before building any of it (or the shell).
  std::uint64_t option_nodes = 0;
  for (const PieceType& type : m.types) {
    for (const Orientation& o : type.orientations) {
      std::uint64_t border = 0;
      for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) border += o.tile.at(r, c) && !o.tile.in_centre(r, c);
      option_nodes += m.faces.size() * (3 + border);
    }
  }
  check_nodes(2 + m.types.size() + m.faces.size() + option_nodes);

  // Shell points: the n x n points of every face; border points are shared by two or more faces.
  std::map<Vec3, int> on_faces;
  for (const Face& f : m.faces)
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) ++on_faces[f.point(r, c, n)];
  for (const auto& [p, k] : on_faces) m.shell.push_back(p);

  Problem& pb = m.problem;
  for (std::size_t t = 0; t < m.types.size(); ++t) {
    const auto copies = static_cast<std::uint32_t>(m.types[t].names.size());
    pb.add_primary("P" + std::to_string(t + 1), copies, copies);
  }
  std::vector<ItemId>& face_items = m.face_items;
  for (std::size_t i = 0; i < m.faces.size(); ++i)
    face_items.push_back(pb.add_primary(face_item(m.faces[i], i)));
  m.point_items.assign(m.shell.size(), std::nullopt);
  std::vector<ItemId> point_id(m.shell.size(), 0);
  std::vector<bool> has_item(m.shell.size(), false);
  for (const Face& f : m.faces)
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        if (r > 0 && c > 0 && r < n - 1 && c < n - 1) continue;
        const std::size_t s = *m.shell_index(f.point(r, c, n));
        if (!has_item[s])
          point_id[s] = *(m.point_items[s] = pb.add_primary(point_item(m.shell[s])));
        has_item[s] = true;
      }

  const std::uint64_t nodes = matrix_nodes(pb) + option_nodes;  // exact, checked at the end
  check_nodes(nodes);
  std::vector<ItemId> items;
  for (std::size_t t = 0; t < m.types.size(); ++t) {
    for (std::size_t fi = 0; fi < m.faces.size(); ++fi) {
      const Face& f = m.faces[fi];
      for (const Orientation& o : m.types[t].orientations) {
        items.assign({static_cast<ItemId>(t), face_items[fi]});
        Placement pl{static_cast<std::uint32_t>(t),
                     static_cast<std::uint32_t>(fi),
                     o.rotations_ccw,
                     o.flipped,
                     {}};
        for (int r = 0; r < n; ++r)
          for (int c = 0; c < n; ++c) {
            if (!o.tile.at(r, c)) continue;
            const Vec3 p = f.point(r, c, n);
            pl.cells.push_back(p);
            const std::size_t s = *m.shell_index(p);
            if (has_item[s] && !o.tile.in_centre(r, c)) items.push_back(point_id[s]);
          }
        std::sort(pl.cells.begin(), pl.cells.end());
        pb.add_option(items);
        if (matrix_nodes(pb) > nodes) throw std::logic_error("happycube: node count estimate");
        m.placements.push_back(std::move(pl));
      }
    }
  }
  if (matrix_nodes(pb) != nodes) throw std::logic_error("happycube: node count estimate");
  return m;
}

}  // namespace cubex::happycube
