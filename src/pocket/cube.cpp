// The 2x2x2 cube's stickers and turns (from geometry), corner states and the compact index.
#include "cubex/pocket/cube.hpp"

#include <algorithm>
#include <cctype>

#include "cubex/error.hpp"
#include "cubex/geometry.hpp"

namespace cubex::pocket {
namespace {

Vec3 scaled(const Vec3& v, int k) {
  return {v.x * k, v.y * k, v.z * k};
}
int dot(const Vec3& a, const Vec3& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
int det(const Vec3& a, const Vec3& b, const Vec3& c) {
  return dot(a, cross(b, c));
}

// x points to R, y to U, z to F. Each face: its outward normal, then the directions of
// "right" and "down" on it as seen from outside in the sticker order of docs/pocket.md.
struct FaceFrame {
  Vec3 normal, right, down;
};
constexpr FaceFrame kFrames[6] = {
    {{0, 1, 0}, {1, 0, 0}, {0, 0, 1}},     // U, B at the top
    {{1, 0, 0}, {0, 0, -1}, {0, -1, 0}},   // R
    {{0, 0, 1}, {1, 0, 0}, {0, -1, 0}},    // F
    {{0, -1, 0}, {1, 0, 0}, {0, 0, -1}},   // D, F at the top
    {{-1, 0, 0}, {0, 0, 1}, {0, -1, 0}},   // L
    {{0, 0, -1}, {-1, 0, 0}, {0, -1, 0}},  // B
};

struct Sticker {
  Vec3 corner;  // the corner it sits on, coordinates +-1
  Vec3 normal;
};

// The corner positions in the order of enum Corner.
constexpr Vec3 kCornerPos[8] = {{1, 1, 1},  {-1, 1, 1},  {-1, 1, -1}, {1, 1, -1},
                                {1, -1, 1}, {-1, -1, 1}, {1, -1, -1}, {-1, -1, -1}};

struct Geometry {
  std::array<Sticker, kStickers> sticker;
  // dest[axis][s]: where sticker s goes under one clockwise quarter turn; axis in "URFDLBxyz".
  std::array<std::array<std::uint8_t, kStickers>, 9> dest;
  // corner_stickers[i]: the stickers of position i, U/D sticker first, then clockwise.
  std::array<std::array<std::uint8_t, 3>, 8> corner_stickers;
  // corner_faces[j]: the faces (0..5) of corner j's stickers in that order.
  std::array<std::array<std::uint8_t, 3>, 8> corner_faces;
};

int sticker_at(const std::array<Sticker, kStickers>& st, const Vec3& corner, const Vec3& normal) {
  for (int s = 0; s < kStickers; ++s) {
    if (st[s].corner == corner && st[s].normal == normal) return s;
  }
  return -1;
}

// The rotation turning a layer clockwise as seen facing it from outside along `n`.
const Mat3& clockwise_quarter(const Vec3& n) {
  const Vec3 u = n.x != 0 ? Vec3{0, 1, 0} : Vec3{1, 0, 0};  // any direction across n
  for (const Mat3& m : cube_rotations()) {
    if (m * n == n && m * u == scaled(cross(n, u), -1)) return m;
  }
  throw std::logic_error("no quarter turn about the axis");
}

const Geometry& geometry() {
  static const Geometry g = [] {
    Geometry g{};
    for (int f = 0; f < 6; ++f) {
      const FaceFrame& fr = kFrames[f];
      for (int row = 0; row < 2; ++row) {
        for (int col = 0; col < 2; ++col) {
          const Vec3 c = fr.normal + scaled(fr.right, 2 * col - 1) + scaled(fr.down, 2 * row - 1);
          g.sticker[4 * f + 2 * row + col] = {c, fr.normal};
        }
      }
    }
    const std::string_view axes = "URFDLBxyz";
    for (int a = 0; a < 9; ++a) {
      // x, y, z turn the whole cube like R, U, F.
      const Vec3 n = kFrames[a < 6 ? a : a == 6 ? 1 : a == 7 ? 0 : 2].normal;
      const Mat3& m = clockwise_quarter(n);
      for (int s = 0; s < kStickers; ++s) {
        const Sticker& st = g.sticker[s];
        const bool moves = axes[a] >= 'a' || dot(st.corner, n) > 0;
        g.dest[a][s] = static_cast<std::uint8_t>(
            moves ? sticker_at(g.sticker, m * st.corner, m * st.normal) : s);
      }
    }
    for (int i = 0; i < 8; ++i) {
      const Vec3 p = kCornerPos[i];
      const Vec3 ud{0, p.y, 0}, a{p.x, 0, 0}, b{0, 0, p.z};
      // Clockwise seen from outside the corner, as U, R, F around URF: det(n0, n1, n2) = -1.
      const bool ab = det(ud, a, b) == -1;
      const Vec3 order[3] = {ud, ab ? a : b, ab ? b : a};
      for (int k = 0; k < 3; ++k) {
        const int s = sticker_at(g.sticker, p, order[k]);
        g.corner_stickers[i][k] = static_cast<std::uint8_t>(s);
        g.corner_faces[i][k] = static_cast<std::uint8_t>(s / 4);
      }
    }
    return g;
  }();
  return g;
}

int axis_index(char c) {
  const std::string_view axes = "URFDLBxyz";
  const auto k = axes.find(c);
  return k == std::string_view::npos ? -1 : static_cast<int>(k);
}

std::string sticker_names(const std::array<std::uint8_t, 3>& s) {
  std::string out;
  for (int k = 0; k < 3; ++k) {
    if (k) out += '/';
    out += kFaces[s[k] / 4];
    out += static_cast<char>('1' + s[k] % 4);
  }
  return out;
}

}  // namespace

Facelets solved_facelets() {
  Facelets f{};
  for (int s = 0; s < kStickers; ++s) f[s] = kFaces[s / 4];
  return f;
}

bool is_solved(const Facelets& f) {
  for (int s = 0; s < kStickers; ++s) {
    if (f[s] != f[s & ~3]) return false;
  }
  return true;
}

std::string to_string(const Facelets& f) {
  return std::string(f.begin(), f.end());
}

std::vector<Turn> parse_turns(std::string_view text, const std::string& source) {
  std::vector<Turn> out;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == ',') {
      ++i;
      continue;
    }
    const int col = static_cast<int>(i) + 1;
    if (axis_index(c) < 0) {
      std::string msg = "expected a move (U D R L F B or x y z, then nothing, 2 or '), found ";
      if (std::isprint(static_cast<unsigned char>(c))) {
        msg.append(1, '\'').append(1, c).append(1, '\'');
      } else {
        msg.append("byte ").append(std::to_string(static_cast<unsigned char>(c)));
      }
      throw InputError(source, 1, col, msg);
    }
    Turn t{c, 1};
    ++i;
    if (i < text.size() && text[i] == '2') {
      t.quarters = 2;
      ++i;
      if (i < text.size() && text[i] == '\'') ++i;  // D2' is D2
    } else if (i < text.size() && text[i] == '\'') {
      t.quarters = 3;
      ++i;
    }
    out.push_back(t);
  }
  return out;
}

std::string to_string(Turn t) {
  std::string s(1, t.axis);
  if (t.quarters == 2) s += '2';
  if (t.quarters == 3) s += '\'';
  return s;
}

std::string to_string(std::span<const Turn> ts) {
  std::string s;
  for (const Turn& t : ts) {
    if (!s.empty()) s += ' ';
    s += to_string(t);
  }
  return s;
}

int htm_length(std::span<const Turn> ts) {
  return static_cast<int>(std::count_if(ts.begin(), ts.end(), [](Turn t) { return t.axis < 'a'; }));
}

int qtm_length(std::span<const Turn> ts) {
  int n = 0;
  for (const Turn& t : ts) {
    if (t.axis < 'a') n += t.quarters == 2 ? 2 : 1;
  }
  return n;
}

void apply(Facelets& f, Turn t) {
  const auto& dest = geometry().dest[axis_index(t.axis)];
  for (int q = 0; q < t.quarters; ++q) {
    Facelets next{};
    for (int s = 0; s < kStickers; ++s) next[dest[s]] = f[s];
    f = next;
  }
}

void apply(Facelets& f, std::span<const Turn> ts) {
  for (const Turn& t : ts) apply(f, t);
}

Corners compose(const Corners& a, const Corners& b) {
  Corners r;
  for (int i = 0; i < 8; ++i) {
    r.perm[i] = a.perm[b.perm[i]];
    r.twist[i] = static_cast<std::uint8_t>((a.twist[b.perm[i]] + b.twist[i]) % 3);
  }
  return r;
}

Facelets to_facelets(const Corners& c) {
  const Geometry& g = geometry();
  Facelets f{};
  for (int i = 0; i < 8; ++i) {
    for (int k = 0; k < 3; ++k) {
      f[g.corner_stickers[i][(k + c.twist[i]) % 3]] = kFaces[g.corner_faces[c.perm[i]][k]];
    }
  }
  return f;
}

Corners from_facelets(std::string_view text, const std::string& source) {
  const Geometry& g = geometry();
  // The 24 colours, skipping spaces.
  std::array<char, kStickers> colour{};
  int n = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ' ' || c == '\t') continue;
    if (!std::isalpha(static_cast<unsigned char>(c))) {
      throw InputError(source, 1, static_cast<int>(i) + 1,
                       "expected a colour letter, found '" + excerpt(text.substr(i, 1)) + "'");
    }
    if (n < kStickers) colour[n] = c;
    ++n;
  }
  if (n != kStickers) {
    throw InputError(
        source, "expected 24 stickers (faces U R F D L B, 4 each), found " + std::to_string(n));
  }
  std::string letters;
  for (char c : colour) {
    if (letters.find(c) == std::string::npos) letters += c;
  }
  std::sort(letters.begin(), letters.end());
  if (letters.size() != 6) {
    throw InputError(source, "expected 6 colours, found " + std::to_string(letters.size()) + " (" +
                                 letters + ")");
  }
  for (char c : letters) {
    const auto k = std::count(colour.begin(), colour.end(), c);
    if (k != 4) {
      throw InputError(source, "expected 4 stickers of each colour, found " + std::to_string(k) +
                                   " of '" + std::string(1, c) + "'");
    }
  }
  // The corner at DBL names D, L and B; each opposite face gets the one remaining colour that
  // shares no corner with it.
  std::array<int, 256> face_of;
  face_of.fill(-1);
  for (int k = 0; k < 3; ++k) {
    const int s = g.corner_stickers[DBL][k];
    const char c = colour[s];
    if (face_of[static_cast<unsigned char>(c)] >= 0) {
      throw InputError(source, "the corner at DBL (" + sticker_names(g.corner_stickers[DBL]) +
                                   ") shows '" + std::string(1, c) + "' twice");
    }
    face_of[static_cast<unsigned char>(c)] = s / 4;
  }
  auto shares_corner = [&](char a, char b) {
    for (int i = 0; i < 8; ++i) {
      bool has_a = false, has_b = false;
      for (int s : g.corner_stickers[i]) {
        has_a |= colour[s] == a;
        has_b |= colour[s] == b;
      }
      if (has_a && has_b) return true;
    }
    return false;
  };
  for (int f : {3, 4, 5}) {  // D L B -> U R F
    const char fc = kFaces[f];
    char own = 0;
    for (char c : letters) {
      if (face_of[static_cast<unsigned char>(c)] == f) own = c;
    }
    std::string candidates;
    for (char c : letters) {
      if (face_of[static_cast<unsigned char>(c)] < 0 && !shares_corner(own, c)) candidates += c;
    }
    if (candidates.size() != 1) {
      throw InputError(source, std::string("expected exactly one colour opposite the ") + fc +
                                   " colour '" + own + "' (sharing no corner with it), found " +
                                   std::to_string(candidates.size()) +
                                   ": these stickers do not form a cube");
    }
    face_of[static_cast<unsigned char>(candidates[0])] = f - 3;
  }
  Corners out;
  std::array<int, 8> seen_at;
  seen_at.fill(-1);
  int twist_sum = 0;
  for (int i = 0; i < 8; ++i) {
    const auto& st = g.corner_stickers[i];
    std::array<int, 3> face{};
    for (int k = 0; k < 3; ++k) face[k] = face_of[static_cast<unsigned char>(colour[st[k]])];
    const std::string where = "the corner at " + std::string(kCornerNames[i]) + " (" +
                              sticker_names(st) + ": " + colour[st[0]] + colour[st[1]] +
                              colour[st[2]] + ")";
    int ud = -1, uds = 0;
    for (int k = 0; k < 3; ++k) {
      if (face[k] == 0 || face[k] == 3) {
        ud = k;
        ++uds;
      }
    }
    int found = -1, mirrored = -1;
    if (uds == 1) {
      const int a = face[ud], b = face[(ud + 1) % 3], c = face[(ud + 2) % 3];
      for (int j = 0; j < 8; ++j) {
        const auto& cf = g.corner_faces[j];
        if (cf[0] == a && cf[1] == b && cf[2] == c) found = j;
        if (cf[0] == a && cf[1] == c && cf[2] == b) mirrored = j;
      }
    }
    if (found < 0) {
      if (mirrored >= 0) {
        throw InputError(source, where + " is the mirror image of corner " +
                                     std::string(kCornerNames[mirrored]) +
                                     ": no real corner has these colours in this order");
      }
      throw InputError(source, where + " has colours that no corner of this cube has");
    }
    if (seen_at[found] >= 0) {
      throw InputError(source, where + " is corner " + std::string(kCornerNames[found]) +
                                   ", which is also at " +
                                   std::string(kCornerNames[seen_at[found]]));
    }
    seen_at[found] = i;
    out.perm[i] = static_cast<std::uint8_t>(found);
    out.twist[i] = static_cast<std::uint8_t>(ud);
    twist_sum += ud;
  }
  if (twist_sum % 3 != 0) {
    throw InputError(source, "the corner twists add up to " + std::to_string(twist_sum % 3) +
                                 " mod 3, not 0: a single corner is twisted, which no sequence "
                                 "of moves can do");
  }
  return out;
}

std::uint32_t encode(const Corners& c) {
  std::uint32_t perm = 0;
  for (int i = 0; i < 7; ++i) {
    int smaller_after = 0;
    for (int j = i + 1; j < 7; ++j) smaller_after += c.perm[j] < c.perm[i];
    perm = perm * static_cast<std::uint32_t>(7 - i) + static_cast<std::uint32_t>(smaller_after);
  }
  std::uint32_t twist = 0;
  for (int i = 0; i < 6; ++i) twist = twist * 3 + c.twist[i];
  return perm * kNumTwists + twist;
}

Corners decode(std::uint32_t index) {
  Corners c;
  std::uint32_t twist = index % kNumTwists, perm = index / kNumTwists;
  int sum = 0;
  for (int i = 5; i >= 0; --i) {
    c.twist[i] = static_cast<std::uint8_t>(twist % 3);
    sum += c.twist[i];
    twist /= 3;
  }
  c.twist[6] = static_cast<std::uint8_t>((3 - sum % 3) % 3);
  c.twist[7] = 0;
  // Lehmer code, last digit (base 1) first.
  std::array<int, 7> code{};
  for (int i = 6; i >= 0; --i) {
    code[i] = static_cast<int>(perm % static_cast<std::uint32_t>(7 - i));
    perm /= static_cast<std::uint32_t>(7 - i);
  }
  std::vector<std::uint8_t> left = {0, 1, 2, 3, 4, 5, 6};
  for (int i = 0; i < 7; ++i) {
    c.perm[i] = left[code[i]];
    left.erase(left.begin() + code[i]);
  }
  c.perm[7] = DBL;
  return c;
}

Turn move_turn(int m) {
  return Turn{"URF"[m / 3], m % 3 + 1};
}

std::string_view metric_name(Metric m) {
  return m == Metric::kHalfTurn ? "htm" : "qtm";
}

std::span<const std::uint8_t> metric_moves(Metric m) {
  static constexpr std::uint8_t kHtm[] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
  static constexpr std::uint8_t kQtm[] = {0, 2, 3, 5, 6, 8};
  if (m == Metric::kHalfTurn) return kHtm;
  return kQtm;
}

namespace {

struct MoveTables {
  std::array<std::array<std::uint16_t, kNumMoves>, kNumPerms> perm;
  std::array<std::array<std::uint16_t, kNumMoves>, kNumTwists> twist;
};

const MoveTables& move_tables() {
  static const MoveTables t = [] {
    MoveTables t{};
    std::array<Corners, kNumMoves> move;
    for (int m = 0; m < kNumMoves; ++m) {
      Facelets f = solved_facelets();
      apply(f, move_turn(m));
      move[m] = from_facelets(to_string(f), "move table");
    }
    // The permutation and twist parts of a state change independently of each other.
    for (std::uint32_t p = 0; p < kNumPerms; ++p) {
      const Corners c = decode(p * kNumTwists);
      for (int m = 0; m < kNumMoves; ++m) {
        t.perm[p][m] = static_cast<std::uint16_t>(encode(compose(c, move[m])) / kNumTwists);
      }
    }
    for (std::uint32_t w = 0; w < kNumTwists; ++w) {
      const Corners c = decode(w);
      for (int m = 0; m < kNumMoves; ++m) {
        t.twist[w][m] = static_cast<std::uint16_t>(encode(compose(c, move[m])) % kNumTwists);
      }
    }
    return t;
  }();
  return t;
}

}  // namespace

std::uint32_t apply_move(std::uint32_t index, int m) {
  const MoveTables& t = move_tables();
  return t.perm[index / kNumTwists][m] * kNumTwists + t.twist[index % kNumTwists][m];
}

}  // namespace cubex::pocket
