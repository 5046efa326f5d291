// A disassembly in the pictures (cubex/render/steps.hpp).
#include "cubex/render/steps.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

namespace cubex::render {
namespace {

int axis_of(const Vec3& v) {
  return v.x != 0 ? 0 : v.y != 0 ? 1 : 2;
}

// Appends the moves of s (its own, then those of the part that stayed, then of the part removed),
// each travelling its distance.
void flatten(const disassembly::Separation& s, const Scene& scene, std::vector<SceneMove>& out) {
  auto index = [&](int p) {
    if (p < 0 || std::size_t(p) >= scene.pieces.size()) {
      throw std::invalid_argument("disassembly: piece " + std::to_string(p) + " of a scene of " +
                                  std::to_string(scene.pieces.size()) + " pieces");
    }
    return std::size_t(p);
  };
  for (const disassembly::Move& m : s.moves) {
    SceneMove sm;
    for (int p : m.pieces) sm.pieces.push_back(index(p));
    for (int p : s.pieces) sm.part.push_back(index(p));
    sm.direction = disassembly::unit(m.direction);
    sm.distance = m.distance;
    sm.travel = m.distance;
    sm.separates = m.separates;
    for (std::size_t p : sm.pieces) sm.text += (sm.text.empty() ? "" : " ") + scene.pieces[p].name;
    sm.text += std::string(": ") + disassembly::direction_name(m.direction) + " " +
               std::to_string(m.distance) + (m.separates ? " (off)" : "");
    out.push_back(std::move(sm));
  }
  for (const auto* part : {s.left.get(), s.removed.get()}) {
    if (part) flatten(*part, scene, out);
  }
}

// Lengthens the travel of every move that separates, from the last one back: the group goes as
// far beyond its distance as the pieces of its part can later come toward each other along the
// move's axis (the most any piece of the group moves back, plus the most any other piece of the
// part moves after it), plus one cell. The moves after a separation that touch its part are
// those of the part's own separations, whose travels are known by then.
void lengthen(std::vector<SceneMove>& moves, std::size_t pieces) {
  std::vector<long long> at(pieces), low(pieces), high(pieces);
  std::vector<bool> in_group(pieces), in_part(pieces);
  for (std::size_t k = moves.size(); k-- > 0;) {
    SceneMove& m = moves[k];
    if (!m.separates) continue;
    const int a = axis_of(m.direction);
    const int sign = m.direction[a];
    std::fill(in_group.begin(), in_group.end(), false);
    std::fill(in_part.begin(), in_part.end(), false);
    for (std::size_t p : m.pieces) in_group[p] = true;
    for (std::size_t p : m.part) in_part[p] = true;
    std::fill(at.begin(), at.end(), 0);
    std::fill(low.begin(), low.end(), 0);
    std::fill(high.begin(), high.end(), 0);
    for (std::size_t j = k + 1; j < moves.size(); ++j) {
      const SceneMove& later = moves[j];
      if (axis_of(later.direction) != a) continue;
      for (std::size_t p : later.pieces) {
        at[p] += (long long)(later.direction[a]) * later.travel * sign;  // + : the group's way
        low[p] = std::min(low[p], at[p]);
        high[p] = std::max(high[p], at[p]);
      }
    }
    long long back = 0, after = 0;
    for (std::size_t p = 0; p < pieces; ++p) {
      if (in_group[p]) back = std::max(back, -low[p]);
      if (in_part[p] && !in_group[p]) after = std::max(after, high[p]);
    }
    m.travel = int(std::min<long long>(m.distance + back + after + 1, 1 << 20));
  }
}

}  // namespace

Steps scene_steps(const Scene& scene, const disassembly::Result& result) {
  Steps out;
  if (result.status != disassembly::Status::kApart || !result.tree) return out;
  flatten(*result.tree, scene, out.moves);
  lengthen(out.moves, scene.pieces.size());
  out.level = result.level_text();
  return out;
}

std::vector<Vec3> offsets_after(const Steps& steps, std::size_t pieces, std::size_t k,
                                bool by_travel) {
  std::vector<Vec3> at(pieces);
  for (std::size_t i = 0; i < k && i < steps.moves.size(); ++i) {
    const SceneMove& m = steps.moves[i];
    const int d = by_travel ? m.travel : m.distance;
    const Vec3 shift{m.direction.x * d, m.direction.y * d, m.direction.z * d};
    for (std::size_t p : m.pieces)
      if (p < pieces) at[p] = at[p] + shift;
  }
  return at;
}

}  // namespace cubex::render
