// The palette, colour assignment (neighbouring pieces far apart) and terminal colours.
#include "cubex/puzzle/colour.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

namespace cubex::render {
namespace {

// 30 colours, each as far as could be from all before it: chosen once (not at run time) from
// the sRGB grid with steps of 15, lightness L* 38..90 (dark enough to show on white, light
// enough for the black outlines and the shading to show), taking first a red and then each time
// the colour whose smallest CIEDE2000 difference to those already taken (and to black and white)
// is largest. So the first n colours are well apart for every n: the smallest difference is 32
// among the first 7, 25 among the first 13, 17 among all 30.
constexpr Rgb kPalette[] = {
    {225, 30, 60},   {60, 135, 0},    {0, 120, 240},   {210, 135, 0},   {255, 105, 255},
    {0, 180, 180},   {120, 255, 0},   {150, 15, 180},  {105, 90, 75},   {255, 165, 165},
    {0, 105, 105},   {150, 150, 165}, {255, 225, 0},   {165, 180, 135}, {120, 195, 255},
    {0, 255, 195},   {90, 90, 120},   {165, 105, 135}, {255, 210, 255}, {165, 75, 0},
    {255, 210, 165}, {255, 105, 45},  {135, 120, 0},   {165, 150, 255}, {0, 180, 120},
    {165, 120, 105}, {0, 60, 255},    {135, 240, 255}, {180, 0, 90},    {90, 105, 75}};

// CIE L*a*b* of an sRGB colour (D65 white).
std::array<double, 3> lab(const Rgb& c) {
  auto lin = [](int v) {
    const double x = v / 255.0;
    return x <= 0.04045 ? x / 12.92 : std::pow((x + 0.055) / 1.055, 2.4);
  };
  const double r = lin(c.r), g = lin(c.g), b = lin(c.b);
  const double x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047;
  const double y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b;
  const double z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883;
  auto f = [](double t) {
    constexpr double d = 6.0 / 29;
    return t > d * d * d ? std::cbrt(t) : t / (3 * d * d) + 4.0 / 29;
  };
  return {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
}

// The CIE76 difference (distance in L*a*b*): enough to pick among the palette's colours.
double distance(const Rgb& a, const Rgb& b) {
  const auto p = lab(a), q = lab(b);
  return std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
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
    // Only possible with more than 30 neighbours around one piece: reuse the least used colour.
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
