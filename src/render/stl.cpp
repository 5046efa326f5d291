// Pieces as closed triangle meshes (binary STL).
#include "cubex/render/stl.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
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

std::vector<Triangle> cells_mesh(std::span<const Vec3> cells, const StlOptions& opt) {
  if (!(opt.unit > 0) || !(opt.gap > 0) || !(opt.gap < opt.unit) || opt.bevel != 0) {
    throw std::invalid_argument("expected unit > 0, 0 < gap < unit and bevel 0");
  }
  std::vector<Triangle> out;
  if (cells.empty()) return out;
  Vec3 lo = cells[0], hi = cells[0];
  for (const Vec3& c : cells) {
    lo = {std::min(lo.x, c.x), std::min(lo.y, c.y), std::min(lo.z, c.z)};
    hi = {std::max(hi.x, c.x), std::max(hi.y, c.y), std::max(hi.z, c.z)};
  }
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
