// The palette, colour assignment (neighbouring pieces far apart) and terminal colours.
#include "cubex/render/colour.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

namespace cubex::render {
namespace {

constexpr Rgb kPalette[] = {
    {230, 25, 75},   {60, 180, 75},   {255, 225, 25},  {67, 99, 216},   {245, 130, 49},
    {145, 30, 180},  {66, 212, 244},  {240, 50, 230},  {191, 239, 69},  {250, 190, 212},
    {70, 153, 144},  {220, 190, 255}, {154, 99, 36},   {255, 250, 200}, {128, 0, 0},
    {170, 255, 195}, {128, 128, 0},   {255, 216, 177}, {0, 0, 117},     {169, 169, 169},
};

// A perceptual distance that is cheap and good enough for choosing among 20 colours ("redmean").
double distance(const Rgb& a, const Rgb& b) {
  const double rm = (a.r + b.r) / 2.0;
  const double dr = a.r - b.r, dg = a.g - b.g, db = a.b - b.b;
  return std::sqrt((2 + rm / 256) * dr * dr + 4 * dg * dg + (2 + (255 - rm) / 256) * db * db);
}

}  // namespace

std::string hex(const Rgb& c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
  return buf;
}

std::span<const Rgb> palette() {
  return kPalette;
}

std::vector<int> assign_colours(std::span<const std::vector<Vec3>> pieces) {
  const std::size_t n = pieces.size();
  std::map<Vec3, std::size_t> owner;
  for (std::size_t p = 0; p < n; ++p)
    for (const Vec3& c : pieces[p]) owner.emplace(c, p);
  std::vector<std::vector<std::size_t>> nb(n);
  static constexpr Vec3 kSteps[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (const auto& [c, p] : owner) {
    for (const Vec3& d : kSteps) {
      auto it = owner.find(c + d);
      if (it == owner.end() || it->second == p) continue;
      nb[p].push_back(it->second);
      nb[it->second].push_back(p);
    }
  }
  for (auto& v : nb) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  }
  std::vector<std::size_t> order(n);
  for (std::size_t p = 0; p < n; ++p) order[p] = p;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return nb[a].size() > nb[b].size(); });

  const int k = static_cast<int>(std::size(kPalette));
  const bool distinct = n <= std::size(kPalette);
  std::vector<int> colour(n, -1), used(std::size_t(k), 0);
  for (std::size_t p : order) {
    int best = -1;
    double best_d = -1;
    int best_used = 0;
    // While the palette lasts, only its first n colours (the most distinct ones) are used.
    const int candidates = distinct ? static_cast<int>(n) : k;
    for (int c = 0; c < candidates; ++c) {
      if (distinct && used[std::size_t(c)]) continue;
      double d = std::numeric_limits<double>::infinity();
      bool clash = false;
      for (std::size_t q : nb[p]) {
        if (colour[q] < 0) continue;
        clash |= colour[q] == c;
        d = std::min(d, distance(kPalette[c], kPalette[colour[q]]));
      }
      if (clash) continue;
      const int u = used[std::size_t(c)];
      if (best < 0 || u < best_used || (u == best_used && d > best_d)) {
        best = c;
        best_d = d;
        best_used = u;
      }
    }
    // Only possible with more than 20 neighbours around one piece: reuse the least used colour.
    if (best < 0) best = int(std::min_element(used.begin(), used.end()) - used.begin());
    colour[p] = best;
    ++used[std::size_t(best)];
  }
  return colour;
}

std::string ansi_colour(const Rgb& c) {
  auto level = [](int v) {  // the xterm-256 colour cube has levels 0, 95, 135, 175, 215, 255
    static constexpr int kLevels[6] = {0, 95, 135, 175, 215, 255};
    int best = 0;
    for (int i = 1; i < 6; ++i)
      if (std::abs(kLevels[i] - v) < std::abs(kLevels[best] - v)) best = i;
    return best;
  };
  const int code = 16 + 36 * level(c.r) + 6 * level(c.g) + level(c.b);
  const double luma = 0.299 * c.r + 0.587 * c.g + 0.114 * c.b;
  return "\x1b[48;5;" + std::to_string(code) + "m\x1b[" + (luma > 140 ? "30" : "97") + "m";
}

Rgb shade(const Rgb& c, double f) {
  auto one = [f](int v) {
    const double x = f >= 1 ? v + (255 - v) * (f - 1) : v * f;
    return static_cast<std::uint8_t>(std::clamp(std::lround(x), 0L, 255L));
  };
  return {one(c.r), one(c.g), one(c.b)};
}

}  // namespace cubex::render
