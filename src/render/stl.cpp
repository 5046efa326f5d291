// Pieces as closed triangle meshes (binary STL).
#include "cubex/render/stl.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <map>
#include <stdexcept>

namespace cubex::render {
namespace {

// The fine grid along one axis for cells lo..hi: interval f = 2j is the slab around the plane
// lo+j (touching cells lo+j-1 and lo+j), f = 2j+1 the inside of cell lo+j.
struct Axis {
  int lo = 0, hi = 0;
  double unit = 1, r = 0;
  int size() const { return 2 * (hi - lo + 1) + 1; }
  double pos(int f) const {  // start of interval f (f = size() gives the end)
    const int j = f / 2;
    return (f % 2 == 0 ? (lo + j) * unit - r : (lo + j) * unit + r);
  }
  int first_cell(int f) const { return f % 2 == 0 ? lo + f / 2 - 1 : lo + f / 2; }
  int last_cell(int f) const { return lo + f / 2; }
};

}  // namespace

// ---- Bevelled pieces ----------------------------------------------------------------------------
//
// The bevelled solid is Q = C (+) O_b: the core C (the cells eroded by gap/2 + b, an L-infinity
// erosion as above) grown by the octahedron O_b = {|dx| + |dy| + |dz| <= b}, i.e. every point
// within L1 distance b of the core. Faces stay where they were (the core's faces move back out
// by b), convex edges get a 45-degree chamfer with legs b, convex corners a triangle, concave
// edges stay sharp, and Q lies inside the unbevelled solid (O_b lies in the cube of radius b).
//
// Along each axis the space is cut at k*unit +- r and k*unit +- (r + b): around plane k the
// intervals B- (width b), S (width gap), B+ (width b), and inside cell k the interval M (width
// unit - gap - 2b > 0). A fine box is in the core when every cell it touches is the piece's.
// A box outside the core meets Q only from core boxes that lie beyond its B intervals on the
// side of their M neighbours (any other core box is farther than b, or shadowed by one of
// these), so its part of Q is a union of: the whole box (a face neighbour in the core), the
// prisms s_i + s_j <= b (an edge neighbour) and the corner s_x + s_y + s_z <= b (a corner
// neighbour), where s_i is the distance from the box's face toward that neighbour. Every such
// part has its vertices at corners of the box (and, for three prisms, the box centre), so the
// surface is made of whole or half box faces and of the cuts inside boxes, with no T-junctions.
namespace {

struct BevelAxis {
  int lo = 0, n = 0;        // cells lo .. lo + n - 1
  std::vector<double> pos;  // start of each interval, and the end of the last
  BevelAxis(int lo_, int hi_, double unit, double r, double b) : lo(lo_), n(hi_ - lo_ + 1) {
    for (int f = 0; f <= count(); ++f) {
      const double plane = (lo + f / 4) * unit;
      const double off[4] = {-r - b, -r, r, r + b};
      pos.push_back(plane + off[f % 4]);
    }
  }
  int count() const { return 4 * n + 3; }
  static bool band(int f) { return f % 4 == 0 || f % 4 == 2; }
  // The step from a band interval toward its M neighbour.
  static int toward_m(int f) { return f % 4 == 0 ? -1 : 1; }
  int first_cell(int f) const { return f % 4 == 3 ? lo + f / 4 : lo + f / 4 - 1; }
  int last_cell(int f) const { return lo + f / 4; }
};

enum class Trace : std::uint8_t { kEmpty, kFull, kHalf };  // kHalf: the half at the M corner

struct BoxPart {
  std::uint8_t state = 0;  // 0 empty, 1 full, 2 partial
  std::uint8_t bands = 0;  // partial: bit i when axis i is a band interval
  std::uint8_t edges = 0;  // partial: bit k for the prism over the two axes other than k
  bool corner = false;     // partial: the corner piece (implied by any prism)
};

void emit(std::vector<Triangle>& out, std::array<double, 3> normal,
          const std::array<std::array<double, 3>, 3>& tri) {
  using P = std::array<double, 3>;
  const P &a = tri[0], &b = tri[1], &c = tri[2];
  const P u{b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v{c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const P n{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
  const double len =
      std::sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
  for (double& d : normal) d /= len;
  Triangle t;
  t.normal = normal;
  t.v = tri;
  if (n[0] * normal[0] + n[1] * normal[1] + n[2] * normal[2] < 0) std::swap(t.v[1], t.v[2]);
  out.push_back(t);
}

// Fewer triangles, the same surface: removes vertices that lie inside a flat region (all their
// triangles in one plane) or on a straight crease between two planes, by moving them onto a
// neighbour (an edge collapse). A collapse is made only when it keeps the mesh a closed,
// oriented 2-manifold and every triangle in its plane: the neighbour lies in all the planes of
// the vertex's triangles (so the new triangles lie in the old planes), no new triangle is turned
// over or flat, and the two vertices share no neighbours but the two across their edge (the
// link condition: no edge is made twice).
std::vector<Triangle> simplify(const std::vector<Triangle>& mesh) {
  using P = std::array<double, 3>;
  std::map<P, int> ids;
  std::vector<P> pts;
  struct Tri {
    std::array<int, 3> v;
    P normal;
    bool alive = true;
  };
  std::vector<Tri> tris;
  for (const Triangle& t : mesh) {
    Tri x;
    x.normal = t.normal;
    for (int i = 0; i < 3; ++i) {
      auto [it, fresh] = ids.emplace(t.v[std::size_t(i)], int(pts.size()));
      if (fresh) pts.push_back(t.v[std::size_t(i)]);
      x.v[std::size_t(i)] = it->second;
    }
    tris.push_back(x);
  }
  std::vector<std::vector<int>> around(pts.size());  // a vertex's live triangles
  for (std::size_t t = 0; t < tris.size(); ++t)
    for (int v : tris[t].v) around[std::size_t(v)].push_back(int(t));
  auto ring = [&](int v) {
    std::vector<int> r;
    for (int t : around[std::size_t(v)])
      for (int x : tris[std::size_t(t)].v)
        if (x != v) r.push_back(x);
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
    return r;
  };
  auto sub = [](const P& a, const P& b) { return P{a[0] - b[0], a[1] - b[1], a[2] - b[2]}; };
  auto cross = [](const P& a, const P& b) {
    return P{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
  };
  auto dot = [](const P& a, const P& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; };
  // The normals of the triangles on edge (v, x).
  auto edge_normals = [&](int v, int x) {
    std::vector<P> ns;
    for (int t : around[std::size_t(v)]) {
      const auto& tv = tris[std::size_t(t)].v;
      if (tv[0] == x || tv[1] == x || tv[2] == x) ns.push_back(tris[std::size_t(t)].normal);
    }
    return ns;
  };
  auto try_collapse = [&](int v, int w) {
    // No new triangle turned over or flat.
    for (int t : around[std::size_t(v)]) {
      const Tri& tr = tris[std::size_t(t)];
      if (tr.v[0] == w || tr.v[1] == w || tr.v[2] == w) continue;
      P q[3];
      for (int i = 0; i < 3; ++i)
        q[i] = pts[std::size_t(tr.v[std::size_t(i)] == v ? w : tr.v[std::size_t(i)])];
      const P e1 = sub(q[1], q[0]), e2 = sub(q[2], q[0]);
      const double area = dot(cross(e1, e2), tr.normal);
      if (!(area > 1e-9 * std::sqrt(dot(e1, e1) * dot(e2, e2)))) return false;
    }
    // The link condition.
    const std::vector<int> rv = ring(v), rw = ring(w);
    std::vector<int> common;
    std::set_intersection(rv.begin(), rv.end(), rw.begin(), rw.end(), std::back_inserter(common));
    if (common.size() != 2) return false;
    for (int t : around[std::size_t(v)]) {
      Tri& tr = tris[std::size_t(t)];
      if (tr.v[0] == w || tr.v[1] == w || tr.v[2] == w) {
        tr.alive = false;
        for (int x : tr.v) {
          if (x == v) continue;
          auto& a = around[std::size_t(x)];
          a.erase(std::find(a.begin(), a.end(), t));
        }
      } else {
        for (int& x : tr.v)
          if (x == v) x = w;
        around[std::size_t(w)].push_back(t);
      }
    }
    around[std::size_t(v)].clear();
    return true;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (int v = 0; v < int(pts.size()); ++v) {
      if (around[std::size_t(v)].empty()) continue;
      std::vector<P> planes;
      for (int t : around[std::size_t(v)]) {
        const P& n = tris[std::size_t(t)].normal;
        if (std::find(planes.begin(), planes.end(), n) == planes.end()) planes.push_back(n);
      }
      if (planes.size() > 2) continue;
      std::vector<int> candidates;
      for (int x : ring(v)) {
        const std::vector<P> ns = edge_normals(v, x);
        if (planes.size() == 1 || (ns.size() == 2 && ns[0] != ns[1])) candidates.push_back(x);
      }
      if (planes.size() == 2) {  // on a crease: exactly two crease edges, v between them
        if (candidates.size() != 2 ||
            !(dot(sub(pts[std::size_t(candidates[0])], pts[std::size_t(v)]),
                  sub(pts[std::size_t(candidates[1])], pts[std::size_t(v)])) < 0))
          continue;
      }
      for (int w : candidates) {
        if (try_collapse(v, w)) {
          changed = true;
          break;
        }
      }
    }
  }
  std::vector<Triangle> out;
  for (const Tri& t : tris) {
    if (!t.alive) continue;
    Triangle x;
    x.normal = t.normal;
    for (int i = 0; i < 3; ++i) x.v[std::size_t(i)] = pts[std::size_t(t.v[std::size_t(i)])];
    out.push_back(x);
  }
  return out;
}

std::vector<Triangle> bevelled_mesh(std::span<const Vec3> cells, Vec3 lo, Vec3 hi,
                                    const StlOptions& opt) {
  const double r = opt.gap / 2, b = opt.bevel;
  const BevelAxis ax[3] = {
      {lo.x, hi.x, opt.unit, r, b}, {lo.y, hi.y, opt.unit, r, b}, {lo.z, hi.z, opt.unit, r, b}};
  const Vec3 dim{hi.x - lo.x + 1, hi.y - lo.y + 1, hi.z - lo.z + 1};
  std::vector<std::uint8_t> in(std::size_t(dim.x) * dim.y * dim.z, 0);
  auto cell_index = [&](int x, int y, int z) {
    return (std::size_t(z - lo.z) * dim.y + (y - lo.y)) * dim.x + (x - lo.x);
  };
  for (const Vec3& c : cells) in[cell_index(c.x, c.y, c.z)] = 1;
  auto has = [&](int x, int y, int z) {
    return x >= lo.x && y >= lo.y && z >= lo.z && x <= hi.x && y <= hi.y && z <= hi.z &&
           in[cell_index(x, y, z)];
  };
  const int n[3] = {ax[0].count(), ax[1].count(), ax[2].count()};
  auto index = [&](const int* f) { return (std::size_t(f[2]) * n[1] + f[1]) * n[0] + f[0]; };
  auto inside = [&](const int* f) {
    return f[0] >= 0 && f[1] >= 0 && f[2] >= 0 && f[0] < n[0] && f[1] < n[1] && f[2] < n[2];
  };
  std::vector<std::uint8_t> core(std::size_t(n[0]) * n[1] * n[2], 0);
  int f[3];
  for (f[2] = 0; f[2] < n[2]; ++f[2])
    for (f[1] = 0; f[1] < n[1]; ++f[1])
      for (f[0] = 0; f[0] < n[0]; ++f[0]) {
        bool all = true;
        for (int z = ax[2].first_cell(f[2]); z <= ax[2].last_cell(f[2]) && all; ++z)
          for (int y = ax[1].first_cell(f[1]); y <= ax[1].last_cell(f[1]) && all; ++y)
            for (int x = ax[0].first_cell(f[0]); x <= ax[0].last_cell(f[0]) && all; ++x)
              all = has(x, y, z);
        core[index(f)] = all;
      }
  auto in_core = [&](const int* g) { return inside(g) && core[index(g)]; };
  // Each box's part of Q.
  std::vector<BoxPart> part(core.size());
  for (f[2] = 0; f[2] < n[2]; ++f[2])
    for (f[1] = 0; f[1] < n[1]; ++f[1])
      for (f[0] = 0; f[0] < n[0]; ++f[0]) {
        BoxPart& p = part[index(f)];
        if (core[index(f)]) {
          p.state = 1;
          continue;
        }
        for (int a = 0; a < 3; ++a)
          if (BevelAxis::band(f[a])) p.bands |= std::uint8_t(1 << a);
        for (int d = 1; d < 8 && p.state != 1; ++d) {  // d: the axes stepped across
          if ((d & p.bands) != d) continue;
          int g[3] = {f[0], f[1], f[2]};
          for (int a = 0; a < 3; ++a)
            if (d >> a & 1) g[a] += BevelAxis::toward_m(f[a]);
          if (!in_core(g)) continue;
          const int k = std::popcount(unsigned(d));
          if (k == 1) {
            p.state = 1;
          } else {
            p.state = 2;
            if (k == 2) p.edges |= std::uint8_t(7 & ~d);
            if (k == 3) p.corner = true;
          }
        }
        if (p.state == 1) p.bands = p.edges = 0, p.corner = false;
      }
  // The part of box f on its face across axis a (high: the face at its upper end).
  auto trace = [&](const int* g, int a, bool high) {
    if (!inside(g)) return Trace::kEmpty;
    const BoxPart& p = part[index(g)];
    if (p.state != 2) return p.state == 1 ? Trace::kFull : Trace::kEmpty;
    if (!(p.bands >> a & 1)) return Trace::kHalf;  // the axis along a prism
    const bool at_m = high == (BevelAxis::toward_m(g[a]) > 0);
    const int j = (a + 1) % 3, k = (a + 2) % 3;
    if (std::popcount(unsigned(p.bands)) == 2) return at_m ? Trace::kFull : Trace::kEmpty;
    if (at_m) {
      if (p.edges >> j & 1 || p.edges >> k & 1) return Trace::kFull;
      return (p.edges >> a & 1 || p.corner) ? Trace::kHalf : Trace::kEmpty;
    }
    return p.edges >> a & 1 ? Trace::kHalf : Trace::kEmpty;
  };
  std::vector<Triangle> out;
  using P = std::array<double, 3>;
  // Faces between boxes: the part of the face that is in Q on one side only.
  for (int a = 0; a < 3; ++a) {
    const int u = (a + 1) % 3, v = (a + 2) % 3;
    int g[3];
    for (g[a] = 0; g[a] <= n[a]; ++g[a])
      for (g[v] = 0; g[v] < n[v]; ++g[v])
        for (g[u] = 0; g[u] < n[u]; ++g[u]) {
          int below[3] = {g[0], g[1], g[2]};
          --below[a];
          const Trace t1 = trace(below, a, true), t2 = trace(g, a, false);
          if (t1 == t2) continue;
          // The face's corners, corner 0 at the M side in u and v (used by a half).
          const int cu = BevelAxis::band(g[u]) && BevelAxis::toward_m(g[u]) > 0 ? 1 : 0;
          const int cv = BevelAxis::band(g[v]) && BevelAxis::toward_m(g[v]) > 0 ? 1 : 0;
          auto corner = [&](int iu, int iv) {
            P p{};
            p[std::size_t(a)] = ax[a].pos[std::size_t(g[a])];
            p[std::size_t(u)] = ax[u].pos[std::size_t(g[u] + (iu ^ cu))];
            p[std::size_t(v)] = ax[v].pos[std::size_t(g[v] + (iv ^ cv))];
            return p;
          };
          // Solid below only: the normal points up (+a); above only: down.
          const bool up = t1 == Trace::kFull || (t1 == Trace::kHalf && t2 == Trace::kEmpty);
          P normal{};
          normal[std::size_t(a)] = up ? 1 : -1;
          const Trace lone = up ? t1 : t2, other = up ? t2 : t1;
          if (lone == Trace::kFull && other == Trace::kEmpty) {
            emit(out, normal, {corner(0, 0), corner(1, 0), corner(1, 1)});
            emit(out, normal, {corner(0, 0), corner(1, 1), corner(0, 1)});
          } else if (lone == Trace::kFull) {  // the other side has the half at corner 0
            emit(out, normal, {corner(1, 1), corner(1, 0), corner(0, 1)});
          } else {  // a half against nothing
            emit(out, normal, {corner(0, 0), corner(1, 0), corner(0, 1)});
          }
        }
  }
  // The cuts inside partial boxes.
  for (f[2] = 0; f[2] < n[2]; ++f[2])
    for (f[1] = 0; f[1] < n[1]; ++f[1])
      for (f[0] = 0; f[0] < n[0]; ++f[0]) {
        const BoxPart& p = part[index(f)];
        if (p.state != 2) continue;
        // s[i] = 0: the face toward the M side (or the lower end off the bands); 1: the other.
        auto pt = [&](int s0, int s1, int s2) {
          const int s[3] = {s0, s1, s2};
          P q{};
          for (int i = 0; i < 3; ++i) {
            const bool m_high = BevelAxis::band(f[i]) && BevelAxis::toward_m(f[i]) > 0;
            q[std::size_t(i)] = ax[i].pos[std::size_t(f[i] + (s[i] ^ int(m_high)))];
          }
          return q;
        };
        // A point with s = 1 on the axes in `ones` (a bit set).
        auto at = [&](int ones) { return pt(ones & 1, ones >> 1 & 1, ones >> 2 & 1); };
        auto away = [&](int axes) {  // outward: away from the M sides of these axes
          P nrm{};
          for (int i = 0; i < 3; ++i)
            if (axes >> i & 1) nrm[std::size_t(i)] = -BevelAxis::toward_m(f[i]);
          return nrm;
        };
        const int e = std::popcount(unsigned(p.edges));
        if (std::popcount(unsigned(p.bands)) == 2 || e == 1) {
          const int k = std::popcount(unsigned(p.bands)) == 2
                            ? std::countr_zero(unsigned(~p.bands & 7))
                            : std::countr_zero(unsigned(p.edges));
          const int i = (k + 1) % 3, j = (k + 2) % 3, I = 1 << i, J = 1 << j, K = 1 << k;
          emit(out, away(I | J), {at(I), at(J), at(J | K)});
          emit(out, away(I | J), {at(I), at(J | K), at(I | K)});
        } else if (e == 0) {
          emit(out, away(7), {at(1), at(2), at(4)});
        } else if (e == 2) {
          const int c = std::countr_zero(unsigned(~p.edges & 7));  // the common axis
          const int C = 1 << c, Pp = 1 << ((c + 1) % 3), Q = 1 << ((c + 2) % 3);
          emit(out, away(Pp | C), {at(C), at(C | Q), at(Pp | Q)});
          emit(out, away(Q | C), {at(C), at(C | Pp), at(Q | Pp)});
        } else {
          P centre{};
          for (int i = 0; i < 3; ++i)
            centre[std::size_t(i)] =
                (ax[i].pos[std::size_t(f[i])] + ax[i].pos[std::size_t(f[i] + 1)]) / 2;
          for (int k = 0; k < 3; ++k) {
            const int I = 1 << ((k + 1) % 3), J = 1 << ((k + 2) % 3), K = 1 << k;
            emit(out, away(I | J), {at(I | K), at(J | K), centre});
          }
        }
      }
  return simplify(out);
}

}  // namespace

std::vector<Triangle> cells_mesh(std::span<const Vec3> cells, const StlOptions& opt) {
  if (!(opt.unit > 0) || !(opt.gap > 0) || !(opt.gap < opt.unit) || !(opt.bevel >= 0) ||
      !(opt.bevel < max_bevel(opt.unit, opt.gap))) {
    throw std::invalid_argument(
        "expected unit > 0, 0 < gap < unit and 0 <= bevel < (unit - gap) / 2");
  }
  std::vector<Triangle> out;
  if (cells.empty()) return out;
  Vec3 lo = cells[0], hi = cells[0];
  for (const Vec3& c : cells) {
    lo = {std::min(lo.x, c.x), std::min(lo.y, c.y), std::min(lo.z, c.z)};
    hi = {std::max(hi.x, c.x), std::max(hi.y, c.y), std::max(hi.z, c.z)};
  }
  if (opt.bevel > 0) return bevelled_mesh(cells, lo, hi, opt);
  const double r = opt.gap / 2;
  const Axis ax[3] = {
      {lo.x, hi.x, opt.unit, r}, {lo.y, hi.y, opt.unit, r}, {lo.z, hi.z, opt.unit, r}};
  const Vec3 dim{hi.x - lo.x + 1, hi.y - lo.y + 1, hi.z - lo.z + 1};
  std::vector<std::uint8_t> in(std::size_t(dim.x) * dim.y * dim.z, 0);
  auto cell_index = [&](int x, int y, int z) {
    return (std::size_t(z - lo.z) * dim.y + (y - lo.y)) * dim.x + (x - lo.x);
  };
  for (const Vec3& c : cells) in[cell_index(c.x, c.y, c.z)] = 1;
  auto has = [&](int x, int y, int z) {
    return x >= lo.x && y >= lo.y && z >= lo.z && x <= hi.x && y <= hi.y && z <= hi.z &&
           in[cell_index(x, y, z)];
  };
  const int n[3] = {ax[0].size(), ax[1].size(), ax[2].size()};
  // A fine cell is solid when every cell it touches is one of the piece's.
  std::vector<std::uint8_t> solid(std::size_t(n[0]) * n[1] * n[2], 0);
  auto fine = [&](int f0, int f1, int f2) { return (std::size_t(f2) * n[1] + f1) * n[0] + f0; };
  for (int f2 = 0; f2 < n[2]; ++f2)
    for (int f1 = 0; f1 < n[1]; ++f1)
      for (int f0 = 0; f0 < n[0]; ++f0) {
        bool all = true;
        for (int z = ax[2].first_cell(f2); z <= ax[2].last_cell(f2) && all; ++z)
          for (int y = ax[1].first_cell(f1); y <= ax[1].last_cell(f1) && all; ++y)
            for (int x = ax[0].first_cell(f0); x <= ax[0].last_cell(f0) && all; ++x)
              all = has(x, y, z);
        solid[fine(f0, f1, f2)] = all;
      }
  auto solid_at = [&](int f0, int f1, int f2) {
    return f0 >= 0 && f1 >= 0 && f2 >= 0 && f0 < n[0] && f1 < n[1] && f2 < n[2] &&
           solid[fine(f0, f1, f2)];
  };
  // Every face between a solid and an empty fine cell, as two triangles facing the empty one.
  for (int f2 = 0; f2 < n[2]; ++f2)
    for (int f1 = 0; f1 < n[1]; ++f1)
      for (int f0 = 0; f0 < n[0]; ++f0) {
        if (!solid[fine(f0, f1, f2)]) continue;
        const int f[3] = {f0, f1, f2};
        for (int a = 0; a < 3; ++a)
          for (int sign = -1; sign <= 1; sign += 2) {
            int g[3] = {f[0], f[1], f[2]};
            g[a] += sign;
            if (solid_at(g[0], g[1], g[2])) continue;
            const int u = (a + 1) % 3, v = (a + 2) % 3;
            const double plane = ax[a].pos(sign > 0 ? f[a] + 1 : f[a]);
            const double u0 = ax[u].pos(f[u]), u1 = ax[u].pos(f[u] + 1);
            const double v0 = ax[v].pos(f[v]), v1 = ax[v].pos(f[v] + 1);
            auto pt = [&](double pu, double pv) {
              std::array<double, 3> p{};
              p[std::size_t(a)] = plane;
              p[std::size_t(u)] = pu;
              p[std::size_t(v)] = pv;
              return p;
            };
            // (u0,v0) (u1,v0) (u1,v1) (u0,v1) turns about +a; reversed for -a.
            std::array<std::array<double, 3>, 4> q = {pt(u0, v0), pt(u1, v0), pt(u1, v1),
                                                      pt(u0, v1)};
            if (sign < 0) std::swap(q[1], q[3]);
            Triangle t1, t2;
            t1.normal = t2.normal = {0, 0, 0};
            t1.normal[std::size_t(a)] = t2.normal[std::size_t(a)] = sign;
            t1.v = {q[0], q[1], q[2]};
            t2.v = {q[0], q[2], q[3]};
            out.push_back(t1);
            out.push_back(t2);
          }
      }
  return out;
}

std::string binary_stl(std::span<const Triangle> mesh, const std::string& name) {
  std::string out(80, ' ');
  const std::string head = "cubex " + name;
  out.replace(0, std::min<std::size_t>(head.size(), 80), head.substr(0, 80));
  auto u32 = [&](std::uint32_t x) {
    for (int k = 0; k < 4; ++k) out += static_cast<char>((x >> (8 * k)) & 0xff);
  };
  auto f32 = [&](double d) { u32(std::bit_cast<std::uint32_t>(static_cast<float>(d))); };
  u32(static_cast<std::uint32_t>(mesh.size()));
  for (const Triangle& t : mesh) {
    for (double d : t.normal) f32(d);
    for (const auto& p : t.v)
      for (double d : p) f32(d);
    out += '\0';
    out += '\0';
  }
  return out;
}

namespace {

std::string file_stem(std::size_t index, const std::string& name) {
  std::string s = index < 9 ? "0" + std::to_string(index + 1) : std::to_string(index + 1);
  s += '-';
  for (char c : name) s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return s;
}

// The piece turned to its lowest height (fewest layers in z), moved to the origin.
std::vector<Vec3> lying_flat(const std::vector<Vec3>& cells) {
  std::vector<Vec3> best = normalize(cells);
  auto height = [](const std::vector<Vec3>& c) {
    int h = 0;
    for (const Vec3& p : c) h = std::max(h, p.z);
    return h;
  };
  for (const Mat3& m : cube_rotations()) {
    std::vector<Vec3> t;
    for (const Vec3& c : cells) t.push_back(m * c);
    t = normalize(std::move(t));
    if (height(t) < height(best)) best = std::move(t);
  }
  return best;
}

}  // namespace

std::vector<StlFile> scene_stl(const Scene& scene, const StlOptions& options) {
  std::vector<StlFile> files;
  std::vector<Triangle> all;
  std::size_t total = 0;
  for (std::size_t k = 0; k < scene.pieces.size(); ++k) {
    const ScenePiece& p = scene.pieces[k];
    StlFile f;
    f.name = file_stem(k, p.name) + ".stl";
    f.cells = p.cells.size();
    f.mesh = cells_mesh(lying_flat(p.cells), options);
    f.data = binary_stl(f.mesh, p.name);
    const std::vector<Triangle> placed = cells_mesh(p.cells, options);
    all.insert(all.end(), placed.begin(), placed.end());
    total += p.cells.size();
    files.push_back(std::move(f));
  }
  StlFile a;
  a.name = "assembly.stl";
  a.cells = total;
  a.data = binary_stl(all, scene.title + " assembled");
  a.mesh = std::move(all);
  files.push_back(std::move(a));
  return files;
}

}  // namespace cubex::render
