// Scene helpers: flatness, colours and exploded-view directions.
#include <algorithm>

#include "cubex/puzzle/colour.hpp"
#include "cubex/puzzle/scene.hpp"

namespace cubex::render {

bool Scene::flat() const {
  if (net_size > 0 || container.empty()) return false;
  for (int a = 0; a < 3; ++a) {
    const auto [lo, hi] =
        std::minmax_element(container.begin(), container.end(),
                            [a](const Vec3& p, const Vec3& q) { return p[a] < q[a]; });
    if ((*lo)[a] == (*hi)[a]) return true;
  }
  return false;
}

void finish(Scene& scene) {
  std::vector<std::vector<Vec3>> cells;
  for (const ScenePiece& p : scene.pieces) cells.push_back(p.cells);
  const std::vector<int> colour = assign_colours(cells);
  for (std::size_t p = 0; p < scene.pieces.size(); ++p) {
    scene.pieces[p].colour = palette()[std::size_t(colour[p])];
  }
  if (scene.net_size > 0) return;  // Happy Cube plates move out along their face normals
  std::array<double, 3> centre{};
  std::size_t total = 0;
  for (const ScenePiece& p : scene.pieces) {
    for (const Vec3& c : p.cells)
      for (int a = 0; a < 3; ++a) centre[std::size_t(a)] += c[a];
    total += p.cells.size();
  }
  for (double& v : centre) v /= double(std::max<std::size_t>(total, 1));
  for (ScenePiece& p : scene.pieces) {
    std::array<double, 3> mid{};
    for (const Vec3& c : p.cells)
      for (int a = 0; a < 3; ++a) mid[std::size_t(a)] += c[a];
    for (int a = 0; a < 3; ++a) {
      p.out[std::size_t(a)] =
          mid[std::size_t(a)] / double(std::max<std::size_t>(p.cells.size(), 1)) -
          centre[std::size_t(a)];
    }
  }
}

}  // namespace cubex::render
