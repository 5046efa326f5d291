// cubex/geometry.hpp - integer 3-D geometry shared by the puzzle front ends: points, and the 48
// symmetries of the cube as signed permutation matrices.
//
// cube_symmetries() lists the 24 rotations first (determinant +1, index 0 is the identity), then
// the 24 improper ones (rotation composed with the mirror x -> -x). The order is fixed, so an
// index is a stable name for an orientation in files and tests.
#pragma once

#include <algorithm>
#include <array>
#include <compare>
#include <cstdint>
#include <span>
#include <vector>

namespace cubex {

struct Vec3 {
  int x = 0, y = 0, z = 0;
  friend auto operator<=>(const Vec3&, const Vec3&) = default;
  Vec3 operator+(const Vec3& o) const { return {x + o.x, y + o.y, z + o.z}; }
  Vec3 operator-(const Vec3& o) const { return {x - o.x, y - o.y, z - o.z}; }
  int operator[](int k) const { return k == 0 ? x : k == 1 ? y : z; }
};

// A 3x3 integer matrix, rows m[0..2]; applied to column vectors.
struct Mat3 {
  std::array<std::array<int, 3>, 3> m{};
  friend bool operator==(const Mat3&, const Mat3&) = default;

  static constexpr Mat3 identity() { return Mat3{{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}}; }
  Vec3 operator*(const Vec3& v) const {
    return {m[0][0] * v.x + m[0][1] * v.y + m[0][2] * v.z,
            m[1][0] * v.x + m[1][1] * v.y + m[1][2] * v.z,
            m[2][0] * v.x + m[2][1] * v.y + m[2][2] * v.z};
  }
  Mat3 operator*(const Mat3& o) const {
    Mat3 r;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 3; ++k) r.m[i][j] += m[i][k] * o.m[k][j];
    return r;
  }
  Mat3 transpose() const {
    Mat3 r;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) r.m[i][j] = m[j][i];
    return r;
  }
  // For the orthogonal matrices used here, the inverse is the transpose.
  Mat3 inverse() const { return transpose(); }
  int det() const {
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
           m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
           m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  }
};

// The 48 symmetries of the cube about the origin: 24 rotations (det +1) then 24 reflections.
inline const std::array<Mat3, 48>& cube_symmetries() {
  static const std::array<Mat3, 48> all = [] {
    std::array<Mat3, 48> out{};
    int proper = 0, improper = 24;
    const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (const auto& p : perms) {
      for (int signs = 0; signs < 8; ++signs) {
        Mat3 a;
        for (int r = 0; r < 3; ++r) a.m[r][p[r]] = (signs >> r) & 1 ? -1 : 1;
        if (a.det() > 0) {
          out[proper++] = a;
        } else {
          out[improper++] = a;
        }
      }
    }
    // proper[0] is the identity: perms[0] with no signs comes first.
    return out;
  }();
  return all;
}

// The 24 rotations only.
inline std::span<const Mat3> cube_rotations() {
  return std::span<const Mat3>(cube_symmetries()).first(24);
}

// Translates `cells` so that the smallest x, y and z are 0, and sorts them: a canonical form
// for comparing shapes up to translation.
inline std::vector<Vec3> normalize(std::vector<Vec3> cells) {
  if (cells.empty()) return cells;
  Vec3 lo = cells[0];
  for (const Vec3& c : cells) {
    lo.x = std::min(lo.x, c.x);
    lo.y = std::min(lo.y, c.y);
    lo.z = std::min(lo.z, c.z);
  }
  for (Vec3& c : cells) c = c - lo;
  std::sort(cells.begin(), cells.end());
  return cells;
}

}  // namespace cubex
