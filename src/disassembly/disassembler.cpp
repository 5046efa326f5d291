// Taking an assembly apart (cubex/disassembly/disassembler.hpp): BurrTools' breadth-first search
// over the positions of the pieces, with a table of the positions visited per search.
#include "cubex/disassembly/disassembler.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <unordered_map>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace cubex::disassembly {

const char* direction_name(Direction d) {
  static const char* const names[] = {"+x", "-x", "+y", "-y", "+z", "-z"};
  return names[static_cast<int>(d)];
}

Vec3 unit(Direction d) {
  const int k = static_cast<int>(d);
  const int s = (k & 1) ? -1 : 1;
  switch (k >> 1) {
    case 0:
      return {s, 0, 0};
    case 1:
      return {0, s, 0};
    default:
      return {0, 0, s};
  }
}

bool Separation::has_long_moves() const {
  return moves.size() > 1 || (left && left->has_long_moves()) ||
         (removed && removed->has_long_moves());
}

namespace {

using Mask = std::uint64_t;

// kSpread[f]: bit d of f (6 bits, one per direction) at bit 8 d.
constexpr std::array<std::uint64_t, 64> spread_table() {
  std::array<std::uint64_t, 64> t{};
  for (unsigned f = 0; f < 64; ++f)
    for (int d = 0; d < 6; ++d)
      if ((f >> d) & 1) t[f] |= std::uint64_t(1) << (8 * d);
  return t;
}
constexpr std::array<std::uint64_t, 64> kSpread = spread_table();
constexpr std::uint16_t kFree = 0xFFFF;  // no piece in the way, however far

// kLaneMask[m]: 0xFFFF in the 16-bit lanes j with bit j of m set (rows of 8 values, as the
// compact search keeps them).
constexpr std::array<std::array<std::uint16_t, 8>, 256> lane_mask_table() {
  std::array<std::array<std::uint16_t, 8>, 256> t{};
  for (unsigned m = 0; m < 256; ++m)
    for (unsigned j = 0; j < 8; ++j) t[m][j] = (m >> j) & 1 ? 0xFFFF : 0;
  return t;
}
alignas(16) constexpr std::array<std::array<std::uint16_t, 8>, 256> kLaneMask = lane_mask_table();
constexpr int kMaxSpan = 32;  // a piece's extent along an axis (masks of 64 bits)

Vec3 scaled(Vec3 v, int k) { return {v.x * k, v.y * k, v.z * k}; }
int coord(const Vec3& v, int a) { return a == 0 ? v.x : a == 1 ? v.y : v.z; }

// A piece's cells as rows along each axis: for axis a, a grid over the piece's extent in the
// other two coordinates (b = a+1, c = a+2 mod 3) of bit masks, bit k = the cell at lo[a] + k.
struct Rows {
  Vec3 lo, hi;
  std::vector<Mask> grid[3];
  std::size_t size;  // cells

  explicit Rows(const std::vector<Vec3>& cells) : size(cells.size()) {
    int l[3] = {1 << 20, 1 << 20, 1 << 20}, h[3] = {-(1 << 20), -(1 << 20), -(1 << 20)};
    for (const Vec3& c : cells)
      for (int a = 0; a < 3; ++a) {
        l[a] = std::min(l[a], coord(c, a));
        h[a] = std::max(h[a], coord(c, a));
      }
    lo = {l[0], l[1], l[2]};
    hi = {h[0], h[1], h[2]};
    for (int a = 0; a < 3; ++a) {
      const int b = (a + 1) % 3, c = (a + 2) % 3;
      grid[a].assign(std::size_t((h[b] - l[b] + 1) * (h[c] - l[c] + 1)), 0);
      for (const Vec3& v : cells)
        grid[a][std::size_t((coord(v, b) - l[b]) * (h[c] - l[c] + 1) + (coord(v, c) - l[c]))] |=
            Mask(1) << (coord(v, a) - l[a]);
    }
  }
  // Whether `cells` (distinct), moved by -lo, are these cells.
  bool same(const std::vector<Vec3>& cells, const Vec3& at) const {
    if (cells.size() != size) return false;
    const int wz = hi.z - lo.z + 1;
    for (const Vec3& c : cells) {
      const Vec3 v = c - at;
      if (v.x < lo.x || v.x > hi.x || v.y < lo.y || v.y > hi.y || v.z < lo.z || v.z > hi.z)
        return false;
      if (!((grid[0][std::size_t((v.y - lo.y) * wz + (v.z - lo.z))] >> (v.x - lo.x)) & 1))
        return false;
    }
    return true;
  }
};

// How far the cells `ra` (bits from `base_a`) can slide up and down along a line before meeting
// the cells `rb` (bits from `base_b`): the smallest gap between a cell of one and the next cell of
// the other above (up) or below (down) it, kFree where there is none.
void gaps(Mask ra, int base_a, Mask rb, int base_b, std::uint16_t& up, std::uint16_t& down) {
  const int shift = base_a - base_b;  // ra in rb's frame: bits + shift
  if (shift <= -64 || shift >= kMaxSpan) {  // one row wholly beyond the other: only ends matter
    const int a_lo = base_a + std::countr_zero(ra), a_hi = base_a + 63 - std::countl_zero(ra);
    const int b_lo = base_b + std::countr_zero(rb), b_hi = base_b + 63 - std::countl_zero(rb);
    if (a_hi < b_lo) up = std::min<std::uint16_t>(up, std::uint16_t(b_lo - a_hi - 1));
    if (b_hi < a_lo) down = std::min<std::uint16_t>(down, std::uint16_t(a_lo - b_hi - 1));
    return;
  }
  if (shift >= -kMaxSpan && shift <= kMaxSpan) {  // both in one frame of 64 bits
    const int lo = std::min(base_a, base_b);
    const std::uint64_t A = ra << (base_a - lo), B = rb << (base_b - lo);
    for (std::uint64_t m = B; m; m &= m - 1) {  // each cell of rb: the nearest of ra below, above
      const int k = std::countr_zero(m);
      const std::uint64_t below = A & ((std::uint64_t(1) << k) - 1);
      if (below)
        up = std::min<std::uint16_t>(up, std::uint16_t(k - (63 - std::countl_zero(below)) - 1));
      const std::uint64_t above = k == 63 ? 0 : A & ~((std::uint64_t(2) << k) - 1);
      if (above)
        down = std::min<std::uint16_t>(down, std::uint16_t(std::countr_zero(above) - k - 1));
    }
    return;
  }
  using Wide = unsigned __int128;
  // Both in one frame of 128 bits, starting 64 below rb's base (rows span at most kMaxSpan).
  const Wide A = Wide(ra) << (64 + shift), B = Wide(rb) << 64;
  for (Wide m = B; m;) {  // each cell of rb: the nearest cell of ra below it (up) and above (down)
    const int k = std::uint64_t(m) ? std::countr_zero(std::uint64_t(m))
                                   : 64 + std::countr_zero(std::uint64_t(m >> 64));
    m &= m - 1;
    const Wide below = A & ((Wide(1) << k) - 1);
    if (below) {
      const int top = std::uint64_t(below >> 64) ? 127 - std::countl_zero(std::uint64_t(below >> 64))
                                                 : 63 - std::countl_zero(std::uint64_t(below));
      up = std::min<std::uint16_t>(up, std::uint16_t(k - top - 1));
    }
    const Wide above = k == 127 ? Wide(0) : A & ~((Wide(2) << k) - 1);
    if (above) {
      const int bottom = std::uint64_t(above) ? std::countr_zero(std::uint64_t(above))
                                              : 64 + std::countr_zero(std::uint64_t(above >> 64));
      down = std::min<std::uint16_t>(down, std::uint16_t(bottom - k - 1));
    }
  }
}

// How far one piece can slide along each axis while another stays, by their shapes and relative
// position: each value is computed once (from the rows of the two shapes) and kept for the
// assemblies that follow (Workspace). Pieces are bound to shapes per assembly (bind()).
class Tables {
 public:
  // Interns the shapes of the input's pieces (cells moved to a smallest corner of 0).
  // A shape is found by a hash of its cells that does not depend on their order, then checked
  // cell by cell against the shape's rows.
  void bind(const Input& input) {
    if (rows_.size() + input.pieces.size() > 0xFFFF || used_ > (std::size_t(1) << 22)) clear();
    if (keys_.empty()) grow();
    shape_.clear();
    origin_.clear();
    for (const Piece& p : input.pieces) {
      Vec3 lo{std::numeric_limits<int>::max(), std::numeric_limits<int>::max(),
              std::numeric_limits<int>::max()};
      for (const Vec3& c : p.cells) lo = {std::min(lo.x, c.x), std::min(lo.y, c.y), std::min(lo.z, c.z)};
      std::uint64_t h = p.cells.size();
      for (const Vec3& c : p.cells) {
        std::uint64_t v = (std::uint64_t(std::uint32_t(c.x - lo.x)) << 42) ^
                          (std::uint64_t(std::uint32_t(c.y - lo.y)) << 21) ^
                          std::uint64_t(std::uint32_t(c.z - lo.z));
        v *= 0x9E3779B97F4A7C15ull;
        h += v ^ (v >> 29);
      }
      int found = -1;
      auto [first, last] = shapes_.equal_range(h);
      for (auto it = first; it != last && found < 0; ++it)
        if (rows_[std::size_t(it->second)].same(p.cells, lo)) found = it->second;
      if (found < 0) {
        std::vector<Vec3> cells;
        cells.reserve(p.cells.size());
        for (const Vec3& c : p.cells) cells.push_back(c - lo);
        found = int(rows_.size());
        rows_.emplace_back(cells);
        shapes_.emplace(h, found);
      }
      shape_.push_back(found);
      origin_.push_back(lo);
    }
  }

  // How far i can slide in each direction (+x, -x, ... as Direction) while j stays: value[d],
  // with bit d of `finite` set where j is in the way, and of `zero` where it is at once.
  struct Free {
    std::uint16_t value[6];
    std::uint8_t finite, zero;
    std::uint16_t unused = 0;
  };
  // A pair both ways: i against j (ij) and j against i (ji, the directions of each axis
  // swapped).
  struct Both {
    Free ij, ji;
  };

  // Pieces i and j of the bound input, as get() takes them: their shapes and the offset of i's
  // shape from j's in the assembled position.
  struct Pair {
    std::uint64_t key;  // the shapes' part of the key
    Vec3 d0;
    int si, sj;
  };
  Pair pair(int i, int j) const {
    const int si = shape_[std::size_t(i)], sj = shape_[std::size_t(j)];
    return {(std::uint64_t(si) << 48) | (std::uint64_t(sj) << 32),
            origin_[std::size_t(i)] - origin_[std::size_t(j)], si, sj};
  }

  // The pair's pieces, i offset by e from j (e = offset of i - offset of j).
  Both get(const Pair& p, const Vec3& e) {
    const Vec3 d = p.d0 + e;
    if (unsigned(d.x + 511) >= 1023u || unsigned(d.y + 511) >= 1023u ||
        unsigned(d.z + 511) >= 1023u)
      return compute(rows_[std::size_t(p.si)], rows_[std::size_t(p.sj)], d);
    const std::uint64_t key = p.key | (std::uint64_t(d.x & 0x3FF) << 20) |
                              (std::uint64_t(d.y & 0x3FF) << 10) | std::uint64_t(d.z & 0x3FF);
    std::size_t k = slot(key);
    const std::size_t mask = keys_.size() - 1;
    while (keys_[k].key != kEmpty) {
      if (keys_[k].key == key) return values_[keys_[k].value];
      k = (k + 1) & mask;
    }
    if ((used_ + 1) * 2 > keys_.size()) {
      grow();
      k = slot(key);
      while (keys_[k].key != kEmpty) k = (k + 1) & (keys_.size() - 1);
    }
    keys_[k] = {key, std::uint32_t(values_.size())};
    values_.push_back(compute(rows_[std::size_t(p.si)], rows_[std::size_t(p.sj)], d));
    ++used_;
    return values_.back();
  }

 private:
  static Both compute(const Rows& A, const Rows& B, const Vec3& e) {
    Free f;
    f.finite = f.zero = 0;
    const int alo[3] = {A.lo.x, A.lo.y, A.lo.z}, ahi[3] = {A.hi.x, A.hi.y, A.hi.z};
    const int blo[3] = {B.lo.x, B.lo.y, B.lo.z}, bhi[3] = {B.hi.x, B.hi.y, B.hi.z};
    const int ev[3] = {e.x, e.y, e.z};
    for (int a = 0; a < 3; ++a) {
      std::uint16_t& up = f.value[2 * a];
      std::uint16_t& down = f.value[2 * a + 1];
      up = down = kFree;
      const int b = (a + 1) % 3, c = (a + 2) % 3;
      // A's rows, displaced by e, that meet B's extent (the lines of both).
      const int b_lo = std::max(alo[b] + ev[b], blo[b]), b_hi = std::min(ahi[b] + ev[b], bhi[b]);
      const int c_lo = std::max(alo[c] + ev[c], blo[c]), c_hi = std::min(ahi[c] + ev[c], bhi[c]);
      const int a_width = ahi[c] - alo[c] + 1, b_width = bhi[c] - blo[c] + 1;
      const int base_a = alo[a] + ev[a], base_b = blo[a];
      if (c_lo > c_hi) continue;  // (no line of one meets the other)
      for (int vb = b_lo; vb <= b_hi && (up | down); ++vb) {
        const Mask* ra =
            &A.grid[a][std::size_t((vb - ev[b] - alo[b]) * a_width + (c_lo - ev[c] - alo[c]))];
        const Mask* rb = &B.grid[a][std::size_t((vb - blo[b]) * b_width + (c_lo - blo[c]))];
        for (int k = 0; k <= c_hi - c_lo; ++k)
          if (ra[k] && rb[k]) gaps(ra[k], base_a, rb[k], base_b, up, down);
      }
    }
    for (int d = 0; d < 6; ++d) {
      if (f.value[d] != kFree) f.finite |= std::uint8_t(1 << d);
      if (f.value[d] == 0) f.zero |= std::uint8_t(1 << d);
    }
    Free r;
    for (int d = 0; d < 6; ++d) r.value[d] = f.value[d ^ 1];
    auto swap = [](std::uint8_t m) { return std::uint8_t(((m & 0x15) << 1) | ((m >> 1) & 0x15)); };
    r.finite = swap(f.finite);
    r.zero = swap(f.zero);
    return {f, r};
  }

  static constexpr std::uint64_t kEmpty = ~std::uint64_t(0);  // (no key: shapes < 0xFFFF)
  std::size_t slot(std::uint64_t key) const {
    std::uint64_t h = key * 0x9E3779B97F4A7C15ull;
    h ^= h >> 32;
    return std::size_t(h * 0xBF58476D1CE4E5B9ull >> 40) & (keys_.size() - 1);
  }
  void grow() {
    std::vector<Key> keys = std::move(keys_);
    keys_.assign(std::max<std::size_t>(256, keys.size() * 2), Key{});
    for (const Key& key : keys) {
      if (key.key == kEmpty) continue;
      std::size_t k = slot(key.key);
      while (keys_[k].key != kEmpty) k = (k + 1) & (keys_.size() - 1);
      keys_[k] = key;
    }
  }

  void clear() {
    shapes_.clear();
    rows_.clear();
    keys_.clear();
    values_.clear();
    used_ = 0;
  }

  std::unordered_multimap<std::uint64_t, int> shapes_;  // by the hash of the cells
  std::vector<Rows> rows_;  // per shape
  std::vector<int> shape_;  // per piece of the bound input
  std::vector<Vec3> origin_;
  struct Key {  // a slot of the table: a pair's key and where its values are (kEmpty: free)
    std::uint64_t key = kEmpty;
    std::uint32_t value = 0;
  };
  std::vector<Key> keys_;
  std::vector<Both> values_;  // in the order computed
  std::size_t used_ = 0;
};

// BurrTools' groups: the sets of pieces accepted as staying together so far in one assembly,
// each given a group so that no group holds more copies of a kind than it has. Once a set cannot
// be placed, every later one is refused too (as in BurrTools).
class Grouping {
 public:
  explicit Grouping(const Input& input) : input_(input) {
    for (std::size_t k = 0; k < input.groups.size(); ++k) {
      for (const GroupShare& g : input.groups[k]) {
        if (g.group > 0) cap_[{int(k), g.group}] += g.count;
      }
    }
    for (const auto& [key, count] : cap_) {
      (void)count;
      if (std::find(ids_.begin(), ids_.end(), key.second) == ids_.end()) ids_.push_back(key.second);
    }
  }

  // Whether the pieces (global indices) are all in one group: each piece's kind belongs to
  // exactly one group, the same for all, and not group 0.
  bool one_group(std::span<const int> pieces) const {
    int group = 0;
    for (int p : pieces) {
      const auto& gs = shares(input_.pieces[std::size_t(p)].kind);
      if (gs.size() != 1 || gs[0].group <= 0) return false;
      if (group == 0) group = gs[0].group;
      if (group != gs[0].group) return false;
    }
    return group != 0;
  }

  bool add(std::span<const int> pieces) {
    if (failed_) return false;
    std::vector<int> kinds;
    for (int p : pieces) kinds.push_back(input_.pieces[std::size_t(p)].kind);
    sets_.push_back(std::move(kinds));
    std::map<std::pair<int, int>, int> left = cap_;
    if (!place(0, left)) failed_ = true;
    return !failed_;
  }

 private:
  const std::vector<GroupShare>& shares(int kind) const {
    static const std::vector<GroupShare> none;
    return std::size_t(kind) < input_.groups.size() ? input_.groups[std::size_t(kind)] : none;
  }
  bool place(std::size_t s, std::map<std::pair<int, int>, int>& left) const {
    if (s == sets_.size()) return true;
    for (int g : ids_) {
      bool fits = true;
      std::size_t k = 0;
      for (; k < sets_[s].size(); ++k) {
        auto it = left.find({sets_[s][k], g});
        if (it == left.end() || it->second == 0) {
          fits = false;
          break;
        }
        --it->second;
      }
      if (fits && place(s + 1, left)) return true;
      for (std::size_t q = 0; q < k; ++q) ++left[{sets_[s][q], g}];
    }
    return false;
  }

  const Input& input_;
  std::map<std::pair<int, int>, int> cap_;
  std::vector<int> ids_;
  std::vector<std::vector<int>> sets_;
  bool failed_ = false;
};

struct Cut {
  std::string message;
};

// What a search finds: the position a group is removed from, the group (local mask) and the
// direction.
struct Found {
  std::uint32_t node = 0;
  Mask removed = 0;
  int dir = 0;
};
// A move of the search: `group` (local mask) moves `amount` steps in direction `dir`.
struct Step {
  Mask group;
  int dir;
  int amount;
};

// One breadth-first search over the positions of a part's pieces. Its buffers are kept from one
// search to the next (reset() starts a search), so that the searches of a puzzle allocate only
// when they outgrow the ones before. W > 0: a position takes W words (parts of at most 8 W / 3
// pieces), else as many as its pieces need.
template <int W>
class Search {
 public:
  // Starts a search of the pieces `ids` (global indices) of the input bound to `tables`.
  void reset(const Input& input, Tables& tables, std::span<const int> ids, const Limits& limits) {
    input_ = &input;
    tables_ = &tables;
    limits_ = limits;
    ids_.assign(ids.begin(), ids.end());
    n_ = int(ids.size());
    all_ = n_ == 64 ? ~Mask(0) : (Mask(1) << n_) - 1;
    words_ = W > 0 ? W : (3 * n_ + 7) / 8;
    // The heaviest pieces: a moving group that has them all, while the rest has none, is the
    // heavier side (BurrTools' weights; with weights of 0 or less no side is heavier).
    int most = 0;
    for (int i = 0; i < n_; ++i) most = std::max(most, weight(i));
    heavy_ = 0;
    if (most > 0)
      for (int i = 0; i < n_; ++i)
        if (weight(i) == most) heavy_ |= Mask(1) << i;
    const std::size_t nn = std::size_t(n_);
    pairs_.clear();
    for (int i = 0; i < n_; ++i) {
      for (int j = i + 1; j < n_; ++j) {
        pairs_.push_back(tables.pair(ids_[std::size_t(i)], ids_[std::size_t(j)]));
      }
    }

    zero_.assign(6 * nn, 0);
    fin_.assign(6 * nn, 0);
    zero8_.assign(nn, 0);
    fin8_.assign(nn, 0);
    std::fill(std::begin(reach_from_), std::end(reach_from_), ~std::uint64_t(0));  // (no rows)
    if constexpr (W > 0) {
      vals_.assign(6 * 64, kFree);
    } else {
      free_.assign(nn * nn, Tables::Free{});
    }
    free_at_.assign(pairs_.size(), 0);
    if (recent_.size() < pairs_.size()) recent_.resize(pairs_.size());
    for (std::size_t q = 0; q < pairs_.size(); ++q) std::fill_n(recent_[q].key, Recent::kSize, 0u);
    pos_.clear();
    parent_.clear();
    how_.clear();
    slots_.assign(1024, kEmptySlot);
    count_ = 0;
  }

  // Searches from `start` (offsets of the part's pieces). Returns the first separation, or
  // nullopt when none is reachable. Throws Cut when the table outgrows the limit.
  std::optional<Found> run(std::span<const Vec3> start) {
    std::uint64_t s[kMaxWords] = {};
    for (int i = 0; i < n_; ++i) {
      const Vec3 d = start[std::size_t(i)] - start[0];
      if (std::abs(d.x) > 120 || std::abs(d.y) > 120 || std::abs(d.z) > 120)
        throw Cut{"a piece moved more than 120 cells from the others"};
      set(s, 3 * i, d.x);
      set(s, 3 * i + 1, d.y);
      set(s, 3 * i + 2, d.z);
    }
    add_node(s, kNone, 0, 0, 0);
    for (std::uint32_t x = 0; x < count_; ++x) {
      fill_free(x);
      if (auto f = removal(x)) return f;
      expand(x);
    }
    return std::nullopt;
  }

  std::uint64_t positions() const { return count_; }

  // The moves from the start to node x, in order (local masks).
  std::vector<Step> path(std::uint32_t x) const {
    std::vector<Step> out;
    while (parent_[x] != kNone) {
      out.push_back(how_[x]);
      x = parent_[x];
    }
    std::reverse(out.begin(), out.end());
    return out;
  }

  int weight(int local) const {
    return input_->pieces[std::size_t(ids_[std::size_t(local)])].weight;
  }

 private:
  static constexpr std::uint32_t kNone = 0xFFFFFFFF;
  static constexpr std::uint64_t kEmptySlot = ~std::uint64_t(0);
  static constexpr int kMaxWords = 24;  // 64 pieces, 3 bytes each

  // A position: the offsets of the pieces from piece 0, a signed byte per coordinate (byte
  // 3 i + axis), in words_ words.
  static int get(const std::uint64_t* s, int k) {
    return std::int8_t(reinterpret_cast<const unsigned char*>(s)[k]);
  }
  static void set(std::uint64_t* s, int k, int v) {
    reinterpret_cast<unsigned char*>(s)[k] = static_cast<unsigned char>(v);
  }
  const std::uint64_t* node(std::uint32_t x) const {
    return &pos_[std::size_t(x) * std::size_t(words())];
  }

  std::uint64_t hash(const std::uint64_t* s) const {
    if constexpr (W == 3) {  // (the words multiplied side by side, then mixed)
      std::uint64_t h = s[0] * 0x9E3779B97F4A7C15ull + std::rotl(s[1] * 0xBF58476D1CE4E5B9ull, 21) +
                        std::rotl(s[2] * 0x94D049BB133111EBull, 42);
      h ^= h >> 29;
      h *= 0xBF58476D1CE4E5B9ull;
      return h ^ (h >> 32);
    }
    std::uint64_t h = 0x9E3779B97F4A7C15ull;
    for (int k = 0; k < words(); ++k) {
      h = (h ^ s[k]) * 0xBF58476D1CE4E5B9ull;
      h ^= h >> 31;
    }
    h *= 0x94D049BB133111EBull;
    return h ^ (h >> 29);
  }

  // Adds a position unless it is known; returns whether it was new. A slot holds the upper half
  // of the position's hash and its index.
  bool add_node(const std::uint64_t* s, std::uint32_t parent, Mask group, int dir, int amount) {
    if ((std::size_t(count_) + 1) * 2 > slots_.size()) grow();
    const std::uint64_t h = hash(s);
    const std::uint64_t tag = h & 0xFFFFFFFF00000000ull;
    const std::size_t mask = slots_.size() - 1;
    std::size_t k = h & mask;
    for (std::uint64_t v; (v = slots_[k]) != kEmptySlot; k = (k + 1) & mask) {
      if ((v & 0xFFFFFFFF00000000ull) != tag) continue;
      const std::uint64_t* o = node(std::uint32_t(v));
      bool same = true;
      for (int w = 0; w < words(); ++w) same &= o[w] == s[w];
      if (same) return false;
    }
    const std::size_t bytes = (std::size_t(count_) + 1) *
                                  (8 * std::size_t(words_) + sizeof(std::uint32_t) + sizeof(Step)) +
                              slots_.size() * sizeof(std::uint64_t);
    if (bytes > limits_.max_bytes) {
      throw Cut{"a search of " + std::to_string(n_) + " pieces visited " + std::to_string(count_) +
                " positions and reached the memory limit of " +
                std::to_string(limits_.max_bytes >> 20) + " MiB"};
    }
    slots_[k] = tag | count_;
    pos_.insert(pos_.end(), s, s + words());
    parent_.push_back(parent);
    how_.push_back({group, dir, amount});
    ++count_;
    return true;
  }

  void grow() {
    const std::size_t size = slots_.size() * 2;
    slots_.assign(size, kEmptySlot);
    for (std::uint32_t x = 0; x < count_; ++x) {
      const std::uint64_t h = hash(node(x));
      std::size_t k = h & (size - 1);
      while (slots_[k] != kEmptySlot) k = (k + 1) & (size - 1);
      slots_[k] = (h & 0xFFFFFFFF00000000ull) | x;
    }
  }

  // At position x, for each direction and piece i: the pieces that stop i sliding at all in
  // that direction (zero_), and those that stop it sliding away (fin_); how far each pair can
  // slide is kept in free_.
  void fill_free(std::uint32_t x) {
    const std::uint64_t* s = node(x);
    std::int8_t at[8 * kMaxWords];
    std::memcpy(at, s, std::size_t(8 * words()));
    // Each piece's offset in 10 bits per coordinate, + 512: the difference of two + 512 stays
    // in its 10 bits (offsets are within 120 of 0).
    std::uint32_t packed[64];
    for (int i = 0; i < n_; ++i)
      packed[i] = std::uint32_t(at[3 * i] + 512) | (std::uint32_t(at[3 * i + 1] + 512) << 10) |
                  (std::uint32_t(at[3 * i + 2] + 512) << 20);
    constexpr std::uint32_t kMid = 512 | (512 << 10) | (512 << 20);
    const std::size_t nn = std::size_t(n_);
    std::size_t q = 0;
    for (int i = 0; i < n_; ++i) {
      for (int j = i + 1; j < n_; ++j, ++q) {
        // (Positions expanded one after the other differ in a few pieces: a pair that has not
        // moved keeps its value.)
        const std::uint32_t key = packed[i] + kMid - packed[j] + (1u << 30);
        if (free_at_[q] != key) {
          free_at_[q] = key;
          // (A pair takes few offsets in a search: the last 16 are kept beside the table.)
          Recent& r = recent_[q];
          int t = r.find(key);
          if (t == Recent::kSize) {
            t = int(r.next++ % Recent::kSize);
            const Vec3 e{int(key & 0x3FF) - 512, int((key >> 10) & 0x3FF) - 512,
                         int((key >> 20) & 0x3FF) - 512};
            r.key[t] = key;
            r.both[t] = tables_->get(pairs_[q], e);
          }
          const Tables::Both& b = r.both[t];
          if constexpr (W > 0) {  // (at most 8 pieces: the rows' bits of the pair, in place)
            std::uint16_t* vi = &vals_[std::size_t(8 * i + j)];
            std::uint16_t* vj = &vals_[std::size_t(8 * j + i)];
            for (int d = 0; d < 6; ++d) {
              vi[64 * d] = b.ij.value[d];
              vj[64 * d] = b.ji.value[d];
            }
            std::uint64_t& fi = fin8_[std::size_t(i)];
            std::uint64_t& zi = zero8_[std::size_t(i)];
            std::uint64_t& fj = fin8_[std::size_t(j)];
            std::uint64_t& zj = zero8_[std::size_t(j)];
            fi = (fi & ~(kLanes << j)) | (kSpread[b.ij.finite] << j);
            zi = (zi & ~(kLanes << j)) | (kSpread[b.ij.zero] << j);
            fj = (fj & ~(kLanes << i)) | (kSpread[b.ji.finite] << i);
            zj = (zj & ~(kLanes << i)) | (kSpread[b.ji.zero] << i);
          } else {
            free_[std::size_t(i) * nn + std::size_t(j)] = b.ij;
            free_[std::size_t(j) * nn + std::size_t(i)] = b.ji;
          }
        }
      }
    }
    if constexpr (W > 0) return;
    // Row i of each direction's masks, 8 pieces j at a time: bit d of i against j's `finite`
    // goes to bit 8 d + j % 8 (kSpread).
    for (int i = 0; i < n_; ++i) {
      for (int c = 0; c * 8 < n_; ++c) {
        std::uint64_t fin = 0, zero = 0;
        const int end = std::min(n_, 8 * c + 8);
        const Tables::Free* row = &free_[std::size_t(i) * nn];
        for (int j = 8 * c; j < end; ++j) {
          // (free_ of (i, i) is 0: nothing in the way.)
          fin |= kSpread[row[j].finite] << (j - 8 * c);
          zero |= kSpread[row[j].zero] << (j - 8 * c);
        }
        for (int d = 0; d < 6; ++d) {
          const Mask fm = Mask((fin >> (8 * d)) & 0xFF) << (8 * c);
          const Mask zm = Mask((zero >> (8 * d)) & 0xFF) << (8 * c);
          Mask& fr = fin_[std::size_t(d) * nn + std::size_t(i)];
          Mask& zr = zero_[std::size_t(d) * nn + std::size_t(i)];
          fr = c ? fr | fm : fm;
          zr = c ? zr | zm : zm;
        }
      }
    }
  }

  // The smallest group with piece p that `blocked` lets move, or 0 when it would have more than
  // `most` pieces.
  template <class Rows>
  static Mask closure(const Rows& blocked, int p, int most) {
    Mask group = Mask(1) << p, todo = group;
    int size = 1;
    while (todo) {
      const int i = std::countr_zero(todo);
      todo &= todo - 1;
      const Mask add = blocked(i) & ~group;
      if (add) {
        group |= add;
        todo |= add;
        for (Mask a = add; a; a &= a - 1)
          if (++size > most) return 0;
      }
    }
    return group;
  }
  // The same, knowing pieces `big` whose groups are too big: a group that takes one is too.
  template <class Rows>
  static Mask closure(const Rows& blocked, int p, int most, Mask big) {
    Mask group = Mask(1) << p, todo = group;
    int size = 1;
    while (todo) {
      const int i = std::countr_zero(todo);
      todo &= todo - 1;
      const Mask add = blocked(i) & ~group;
      if (add) {
        if (add & big) return 0;
        group |= add;
        todo |= add;
        for (Mask a = add; a; a &= a - 1)
          if (++size > most) return 0;
      }
    }
    return group;
  }

  // BurrTools' weights: the heavier side stays. The moving group is heavier exactly when it
  // holds every heaviest piece.
  void settle(Mask& group, int& dir) const {
    if (heavy_ && (heavy_ & ~group) == 0) {
      group = all_ & ~group;
      dir ^= 1;
    }
  }

  // Whether some group can slide away along an axis at position x: exactly when the pieces that
  // stop each other sliding in +a are not all tied together both ways (from piece 0 every piece
  // is reached through the pieces that stop it, in +a and in -a).
  bool any_removal() const {
    if constexpr (W > 0) {
      // The six directions at once, a byte each: the pieces reached from piece 0.
      std::uint64_t r = kLanes;
      for (std::uint64_t old = 0; r != old;) {
        old = r;
        for (int i = 0; i < n_; ++i) r |= fin8_[std::size_t(i)] & (((r >> i) & kLanes) * 0xFF);
      }
      return r != kLanes * all_;
    }
    for (int a = 0; a < 3; ++a) {
      if (closure(fin_rows(2 * a), 0, n_) != all_ || closure(fin_rows(2 * a + 1), 0, n_) != all_)
        return true;
    }
    return false;
  }

  std::optional<Found> removal(std::uint32_t x) const {
    if (!any_removal()) return std::nullopt;
    for (int most : {1, n_ / 2}) {
      for (int dir = 0; dir < 6; ++dir) {
        for (int p = 0; p < n_; ++p) {
          Mask g = closure(fin_rows(dir), p, most);
          if (!g) continue;
          int d = dir;
          settle(g, d);
          return Found{x, g, d};
        }
      }
    }
    return std::nullopt;
  }

  void emit(std::uint32_t x, Mask group, int dir, int amount) {
    settle(group, dir);
    // The move back to where x came from (the same group, or the others, the other way) finds
    // a position already known.
    const Step& came = how_[x];
    if (amount == came.amount && ((group == came.group && dir == (came.dir ^ 1)) ||
                                  (group == (all_ & ~came.group) && dir == came.dir)))
      return;
    // The position with the moving pieces' coordinate along the axis changed; piece 0 stays at
    // the origin: when it moves, the others move back instead.
    std::uint64_t s[kMaxWords];
    const std::uint64_t* from = node(x);
    for (int w = 0; w < words(); ++w) s[w] = from[w];
    const int axis = dir >> 1;
    const int delta = (dir & 1) ? -amount : amount;
    Mask moved = group;
    int d = delta;
    if (group & 1) {
      moved = all_ & ~group;
      d = -delta;
    }
    for (Mask m = moved; m; m &= m - 1) {
      const int k = 3 * std::countr_zero(m) + axis;
      const int v = get(s, k) + d;
      if (v > 120 || v < -120) throw Cut{"a piece moved more than 120 cells from the others"};
      set(s, k, v);
    }
    add_node(s, x, group, dir, amount);
  }

  // How far piece i can slide in direction dir while j stays, at the position being expanded.
  unsigned value(int dir, int i, int j) const {
    if constexpr (W > 0)
      return vals_[std::size_t(64 * dir + 8 * i + j)];
    else
      return free_[std::size_t(i) * std::size_t(n_) + std::size_t(j)].value[dir];
  }
#if defined(__SSE2__)
  // Row i of direction dir (8 values), biased by 0x8000 so that signed 16-bit comparisons
  // order them as unsigned ones.
  __m128i row(int dir, int i) const {
    const __m128i v =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(&vals_[std::size_t(64 * dir + 8 * i)]));
    return _mm_xor_si128(v, _mm_set1_epi16(std::int16_t(-0x8000)));
  }
#endif
  // How far `group` can slide in direction dir before a piece outside it is in the way (kFree
  // when none is).
  unsigned gap(int dir, Mask group) const {
    const Mask rest = all_ & ~group;
#if defined(__SSE2__)
    if constexpr (W > 0) {  // the least value of the group's rows in the lanes of the rest
      __m128i m = _mm_set1_epi16(0x7FFF);
      for (Mask g = group; g; g &= g - 1) m = _mm_min_epi16(m, row(dir, std::countr_zero(g)));
      const __m128i in = _mm_load_si128(reinterpret_cast<const __m128i*>(kLaneMask[rest].data()));
      m = _mm_or_si128(_mm_and_si128(m, in), _mm_andnot_si128(in, _mm_set1_epi16(0x7FFF)));
      m = _mm_min_epi16(m, _mm_shuffle_epi32(m, 0x4E));
      m = _mm_min_epi16(m, _mm_shuffle_epi32(m, 0xB1));
      m = _mm_min_epi16(m, _mm_shufflelo_epi16(m, 0xB1));
      return (unsigned(_mm_cvtsi128_si32(m)) & 0xFFFF) ^ 0x8000;
    }
#endif
    unsigned d = kFree;
    for (Mask g = group; g; g &= g - 1) {
      const int i = std::countr_zero(g);
      for (Mask r = rest; r; r &= r - 1) d = std::min(d, value(dir, i, std::countr_zero(r)));
    }
    return d;
  }
  // The smallest group holding `group` that can slide `distance` + 1 steps in direction dir
  // (every piece that stops one of the group within `distance` steps joins it), or 0 when it
  // would have more than `most` pieces or one of `big`.
  Mask widen(int dir, Mask group, unsigned distance, int most, Mask big) const {
    Mask todo = group;
    int size = 0;
    for (Mask m = group; m; m &= m - 1) ++size;
#if defined(__SSE2__)
    const __m128i limit = _mm_set1_epi16(std::int16_t(int(distance) - 0x8000));
#endif
    while (todo) {
      const int i = std::countr_zero(todo);
      todo &= todo - 1;
      Mask add = 0;
#if defined(__SSE2__)
      if constexpr (W > 0) {  // the lanes of row i at most `distance`, as 8 bits
        const __m128i above = _mm_cmpgt_epi16(row(dir, i), limit);
        add = Mask(~_mm_movemask_epi8(_mm_packs_epi16(above, above)) & 0xFF) & all_ & ~group;
      } else
#endif
      {
        for (Mask r = all_ & ~group; r; r &= r - 1) {
          const int j = std::countr_zero(r);
          if (value(dir, i, j) <= distance) add |= Mask(1) << j;
        }
      }
      if (add) {
        if (add & big) return 0;
        group |= add;
        todo |= add;
        for (Mask a = add; a; a &= a - 1)
          if (++size > most) return 0;
      }
    }
    return group;
  }

  // The moves from position x, in BurrTools' order, each new position added: for each
  // direction and piece p, the smallest group with p that can move 1, 2, ... steps (while it
  // has at most half of the pieces), then the unions with the groups found before.
  void expand(std::uint32_t x) {
    const int most = n_ / 2;
    if constexpr (W > 0) {
      // The group for one step of each piece, the six directions at once: byte d of reach[p]
      // holds p and every piece that stops one of them at once in direction d, the transitive
      // closure of zero8_ (Warshall's, a byte lane per direction).
      // (Positions expanded one after the other often stop their pieces alike: the closure of
      // the last one is kept.)
      bool same = true;
      for (int i = 0; i < n_; ++i) same &= zero8_[std::size_t(i)] == reach_from_[i];
      if (!same) {
        std::uint64_t* reach = reach_;
        for (int i = 0; i < n_; ++i) {
          reach_from_[i] = zero8_[std::size_t(i)];
          reach[i] = reach_from_[i] | (kLanes << i);
        }
        for (int k = 0; k < n_; ++k) {
          const std::uint64_t rk = reach[k];
          for (int i = 0; i < n_; ++i) {
            const std::uint64_t has = (reach[i] >> k) & kLanes;  // bit 0 of the lanes reaching k
            reach[i] |= rk & ((has << 8) - has);
          }
        }
        // Pieces whose group is too big (more than `most`), bit p of byte d: so is any group
        // that takes one of them, for any distance (a longer move is stopped by more pieces).
        std::uint64_t big8 = 0;
        const std::uint64_t limit =
            0x7F7F7F7F7F7F7F7Full - std::uint64_t(most) * 0x0101010101010101ull;
        for (int p = 0; p < n_; ++p) {
          std::uint64_t c = reach[p];  // the bytes' sizes (at most 8: no carry between bytes)
          c = c - ((c >> 1) & 0x5555555555555555ull);
          c = (c & 0x3333333333333333ull) + ((c >> 2) & 0x3333333333333333ull);
          c = (c + (c >> 4)) & 0x0F0F0F0F0F0F0F0Full;
          big8 |= (((c + limit) & 0x8080808080808080ull) >> 7) << p;
        }
        big8_ = big8;
      }
      const std::uint64_t* reach = reach_;
      const std::uint64_t big8 = big8_;
      for (int dir = 0; dir < 6; ++dir) {
        found_.clear();
        const Mask big = (big8 >> (8 * dir)) & 0xFF;
        // (Pieces with the same group make the same moves: the group slides once.)
        std::uint64_t slid[4] = {};
        for (Mask m = all_ & ~big; m; m &= m - 1) {
          const int p = std::countr_zero(m);
          const Mask g = (reach[p] >> (8 * dir)) & 0xFF;
          if ((slid[g >> 6] >> (g & 63)) & 1) continue;
          slid[g >> 6] |= std::uint64_t(1) << (g & 63);
          slide(x, dir, g, most, big);
        }
      }
      return;
    }
    for (int dir = 0; dir < 6; ++dir) {
      found_.clear();
      const auto zero = zero_rows(dir);
      // Pieces whose group for one step is too big: so is any group that takes one of them,
      // for any distance (a longer move is stopped by more pieces).
      Mask big = 0;
      for (int p = 0; p < n_; ++p) {
        // (Most pieces are stopped by one too big, or by none.)
        const Mask z = zero(p) & ~(Mask(1) << p);
        Mask g = (z & big) ? 0 : z ? closure(zero, p, most, big) : Mask(1) << p;
        if (!g) {
          big |= Mask(1) << p;
          continue;
        }
        slide(x, dir, g, most, big);
      }
    }
  }

  // The moves of group g (the smallest with its piece p for one step) in direction dir: g moves
  // steps `first` up to its gap, then the wider group that one step more needs, and so on.
  // (Whether `big` holds the pieces before p or all those too big changes nothing: a group that
  // takes one of them grows beyond `most` pieces anyway.)
  [[gnu::always_inline]] inline void slide(std::uint32_t x, int dir, Mask g, int most, Mask big) {
    for (unsigned first = 1;;) {
      const unsigned last = gap(dir, g);
      // (A group that can slide away is not met here: removal() found none.)
      if (last == kFree) break;
      for (unsigned step = first; step <= last; ++step) {
        if (known(g, step)) continue;
        found_.push_back({g, step});
        emit(x, g, dir, int(step));
        // Unions with the groups found before in this direction for the same distance,
        // newest first.
        for (std::size_t k = found_.size() - 1; k-- > 0;) {
          if (found_[k].second != step) continue;
          const Mask u = g | found_[k].first;
          if (u == all_ || u == g || u == found_[k].first || known(u, step)) continue;
          found_.push_back({u, step});
          emit(x, u, dir, int(step));
        }
      }
      g = widen(dir, g, last, most, big);
      if (!g) break;
      first = last + 1;
    }
  }

  bool known(Mask g, unsigned step) const {
    for (const auto& [m, s] : found_)
      if (m == g && s == step) return true;
    return false;
  }

  const Input* input_ = nullptr;
  Tables* tables_ = nullptr;
  std::vector<int> ids_;
  int n_ = 0;
  int words_ = 0;
  int words() const { return W > 0 ? W : words_; }
  Limits limits_;
  Mask all_ = 0;
  Mask heavy_ = 0;
  std::vector<Tables::Pair> pairs_;  // (i, j), i < j, in order

  std::vector<Mask> zero_, fin_;
  // With at most 8 pieces (W > 0), instead: piece i's masks of direction d in byte d of row i.
  std::vector<std::uint64_t> zero8_, fin8_;
  static constexpr std::uint64_t kLanes = 0x0000010101010101ull;  // bit 0 of the six bytes
  struct Flat {                                                   // masks
    const Mask* m;
    Mask operator()(int i) const { return m[i]; }
  };
  struct Lanes {  // bytes of rows
    const std::uint64_t* m;
    int shift;
    Mask operator()(int i) const { return (m[i] >> shift) & 0xFF; }
  };
  auto fin_rows(int dir) const {
    if constexpr (W > 0)
      return Lanes{fin8_.data(), 8 * dir};
    else
      return Flat{&fin_[std::size_t(dir) * std::size_t(n_)]};
  }
  auto zero_rows(int dir) const {
    if constexpr (W > 0)
      return Lanes{zero8_.data(), 8 * dir};
    else
      return Flat{&zero_[std::size_t(dir) * std::size_t(n_)]};
  }
  std::vector<Tables::Free> free_;  // per (i, j): i against j, at the position being expanded
  // With at most 8 pieces (W > 0), instead: value[d] of i against j at [64 d + 8 i + j].
  std::vector<std::uint16_t> vals_;
  std::vector<std::uint32_t> free_at_;  // per pair: its offset there (bytes + 128, bit 24), or 0
  struct Recent {  // per pair: the last offsets met (as free_at_; 0: none) and their values
    static constexpr int kSize = 16;
    alignas(16) std::uint32_t key[kSize] = {};
    std::uint32_t next = 0;
    Tables::Both both[kSize];
    // The entry of `k` (distinct keys), or kSize.
    int find(std::uint32_t k) const {
#if defined(__SSE2__)
      const __m128i kk = _mm_set1_epi32(std::int32_t(k));
      unsigned hit = 0;
      for (int c = 0; c < kSize / 4; ++c) {
        const __m128i v = _mm_load_si128(reinterpret_cast<const __m128i*>(&key[4 * c]));
        hit |= unsigned(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v, kk)))) << (4 * c);
      }
      return hit ? std::countr_zero(hit) : kSize;
#else
      int t = 0;
      while (t < kSize && key[t] != k) ++t;
      return t;
#endif
    }
  };
  std::vector<Recent> recent_;
  std::vector<std::uint64_t> pos_;
  std::vector<std::uint32_t> parent_;
  std::vector<Step> how_;
  std::vector<std::uint64_t> slots_;
  std::uint32_t count_ = 0;
  std::vector<std::pair<Mask, unsigned>> found_;
  // expand() with at most 8 pieces: the closure of the zero rows (reach_), the rows it was made
  // from (reach_from_: all ones, which no rows of six bytes are, until the first), the pieces
  // too big (big8_).
  std::uint64_t reach_[8] = {};
  std::uint64_t reach_from_[8] = {~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull};
  std::uint64_t big8_ = 0;
};

class Disassembler {
 public:
  Disassembler(const Input& input, const Limits& limits, Tables& tables, Search<3>& small,
               Search<0>& large)
      : input_(input),
        tables_(tables),
        small_(small),
        large_(large),
        grouping_(input),
        limits_(limits) {
    tables_.bind(input);
  }

  // Takes apart the part `ids` (global indices, increasing) whose pieces are at offsets `start`.
  // nullptr when it does not come apart.
  std::unique_ptr<Separation> part(const std::vector<int>& ids, const std::vector<Vec3>& start) {
    return ids.size() <= 8 && limits_.compact ? part(small_, ids, start) : part(large_, ids, start);
  }

  std::uint64_t positions() const { return positions_; }
  bool lifts_all_but_one() const { return lifts_all_but_one_; }
  // The part that could not be taken apart, and where its pieces were (after a failed part()).
  std::vector<int> stuck() const { return stuck_.empty() ? unsplit_ : stuck_; }
  std::vector<Vec3> stuck_start() const { return stuck_.empty() ? unsplit_start_ : stuck_start_; }

 private:
  template <int W>
  std::unique_ptr<Separation> part(Search<W>& search, const std::vector<int>& ids,
                                   const std::vector<Vec3>& start) {
    // (The search's buffers serve the parts searched below too: what is needed of this search
    // is taken before them.)
    search.reset(input_, tables_, ids, limits_);
    std::optional<Found> found;
    try {
      found = search.run(start);
    } catch (...) {
      positions_ += search.positions();
      throw;
    }
    positions_ += search.positions();
    if (!found) {
      unsplit_ = ids;
      unsplit_start_ = start;
      return nullptr;
    }

    auto sep = std::make_unique<Separation>();
    sep->pieces = ids;
    sep->start = start;
    std::vector<Vec3> at = start;
    const int n = int(ids.size());
    auto members = [&](Mask m) {
      std::vector<int> out;
      for (int i = 0; i < n; ++i)
        if ((m >> i) & 1) out.push_back(ids[std::size_t(i)]);
      return out;
    };
    for (const Step& s : search.path(found->node)) {
      sep->moves.push_back({members(s.group), Direction(s.dir), s.amount, false});
      const Vec3 u = scaled(unit(Direction(s.dir)), s.amount);
      for (int i = 0; i < n; ++i)
        if ((s.group >> i) & 1) at[std::size_t(i)] = at[std::size_t(i)] + u;
    }
    // The removal: far enough that the extents along the axis no longer meet.
    const int axis = found->dir >> 1;
    const bool up = (found->dir & 1) == 0;
    int lo_r = std::numeric_limits<int>::max(), hi_r = std::numeric_limits<int>::min();
    int lo_s = lo_r, hi_s = hi_r;
    for (int i = 0; i < n; ++i) {
      const bool r = (found->removed >> i) & 1;
      for (const Vec3& c : input_.pieces[std::size_t(ids[std::size_t(i)])].cells) {
        const int v = coord(c + at[std::size_t(i)], axis);
        (r ? lo_r : lo_s) = std::min(r ? lo_r : lo_s, v);
        (r ? hi_r : hi_s) = std::max(r ? hi_r : hi_s, v);
      }
    }
    const int distance = std::max(1, up ? hi_s - lo_r + 1 : hi_r - lo_s + 1);
    sep->moves.push_back({members(found->removed), Direction(found->dir), distance, true});
    const Vec3 u = scaled(unit(Direction(found->dir)), distance);

    std::vector<int> left_ids, removed_ids;
    std::vector<Vec3> left_at, removed_at;
    for (int i = 0; i < n; ++i) {
      if ((found->removed >> i) & 1) {
        removed_ids.push_back(ids[std::size_t(i)]);
        removed_at.push_back(at[std::size_t(i)] + u);
      } else {
        left_ids.push_back(ids[std::size_t(i)]);
        left_at.push_back(at[std::size_t(i)]);
      }
    }
    if (n >= 3 && removed_ids.size() + 1 == std::size_t(n)) lifts_all_but_one_ = true;
    sep->left_pieces = left_ids;
    sep->removed_pieces = removed_ids;
    // As BurrTools: the part that stayed first, the removed part only when that one is fine.
    if (!sub(left_ids, left_at, sep->left)) return nullptr;
    if (!sub(removed_ids, removed_at, sep->removed)) return nullptr;
    return sep;
  }

  bool sub(const std::vector<int>& ids, const std::vector<Vec3>& at,
           std::unique_ptr<Separation>& out) {
    if (ids.size() == 1 || grouping_.one_group(ids)) return true;
    out = part(ids, at);
    if (out || grouping_.add(ids)) return true;
    if (stuck_.empty()) {
      stuck_ = unsplit_;
      stuck_start_ = unsplit_start_;
    }
    return false;
  }

  const Input& input_;
  Tables& tables_;
  Search<3>& small_;  // parts of at most 8 pieces
  Search<0>& large_;
  Grouping grouping_;
  Limits limits_;
  std::uint64_t positions_ = 0;
  bool lifts_all_but_one_ = false;
  std::vector<int> unsplit_, stuck_;  // the last part whose search failed; the first not accepted
  std::vector<Vec3> unsplit_start_, stuck_start_;
};

void level_of(const Separation& s, std::vector<int>& out) {
  out.push_back(int(s.moves.size()));
  if (s.left && s.left->has_long_moves()) level_of(*s.left, out);
  if (s.removed && s.removed->has_long_moves()) level_of(*s.removed, out);
}

void moves_of(const Separation& s, std::vector<Move>& out) {
  out.insert(out.end(), s.moves.begin(), s.moves.end());
  if (s.left) moves_of(*s.left, out);
  if (s.removed) moves_of(*s.removed, out);
}

void check_input(const Input& input) {
  if (input.pieces.size() > 64)
    throw std::invalid_argument("disassembly: at most 64 pieces, found " +
                                std::to_string(input.pieces.size()));
  std::vector<std::pair<Vec3, std::size_t>> all;
  for (std::size_t p = 0; p < input.pieces.size(); ++p) {
    const auto& cells = input.pieces[p].cells;
    if (cells.empty())
      throw std::invalid_argument("disassembly: piece " + std::to_string(p) + " has no cells");
    for (int a = 0; a < 3; ++a) {
      int lo = std::numeric_limits<int>::max(), hi = std::numeric_limits<int>::min();
      for (const Vec3& c : cells) {
        lo = std::min(lo, coord(c, a));
        hi = std::max(hi, coord(c, a));
      }
      if (hi - lo + 1 > kMaxSpan)
        throw std::invalid_argument("disassembly: piece " + std::to_string(p) + " spans " +
                                    std::to_string(hi - lo + 1) + " cells along an axis, more than " +
                                    std::to_string(kMaxSpan));
    }
  }
  // Overlaps: a bit per cell of the pieces' box, unless it is much larger than the pieces (then,
  // and to name an overlap found, by sorting the cells).
  Vec3 lo{std::numeric_limits<int>::max(), std::numeric_limits<int>::max(),
          std::numeric_limits<int>::max()};
  Vec3 hi{std::numeric_limits<int>::min(), std::numeric_limits<int>::min(),
          std::numeric_limits<int>::min()};
  std::size_t cells = 0;
  for (const Piece& p : input.pieces) {
    cells += p.cells.size();
    for (const Vec3& c : p.cells) {
      lo = {std::min(lo.x, c.x), std::min(lo.y, c.y), std::min(lo.z, c.z)};
      hi = {std::max(hi.x, c.x), std::max(hi.y, c.y), std::max(hi.z, c.z)};
    }
  }
  const std::uint64_t wx = std::uint64_t(std::int64_t(hi.x) - lo.x + 1);
  const std::uint64_t wy = std::uint64_t(std::int64_t(hi.y) - lo.y + 1);
  const std::uint64_t wz = std::uint64_t(std::int64_t(hi.z) - lo.z + 1);
  if (wx <= (1u << 20) && wy <= (1u << 20) && wz <= (1u << 20) &&
      wx * wy * wz <= 64 * cells + 4096) {
    std::vector<std::uint64_t> seen(std::size_t((wx * wy * wz + 63) / 64), 0);
    bool overlap = false;
    for (const Piece& p : input.pieces) {
      for (const Vec3& c : p.cells) {
        const std::uint64_t k = (std::uint64_t(c.x - lo.x) * wy + std::uint64_t(c.y - lo.y)) * wz +
                                std::uint64_t(c.z - lo.z);
        const std::uint64_t bit = std::uint64_t(1) << (k & 63);
        overlap |= (seen[std::size_t(k >> 6)] & bit) != 0;
        seen[std::size_t(k >> 6)] |= bit;
      }
    }
    if (!overlap) return;
  }
  for (std::size_t p = 0; p < input.pieces.size(); ++p)
    for (const Vec3& c : input.pieces[p].cells) all.push_back({c, p});
  std::sort(all.begin(), all.end());
  for (std::size_t k = 1; k < all.size(); ++k) {
    if (all[k].first == all[k - 1].first) {
      const Vec3 c = all[k].first;
      throw std::invalid_argument("disassembly: cell " + std::to_string(c.x) + "," +
                                  std::to_string(c.y) + "," + std::to_string(c.z) +
                                  " is in pieces " + std::to_string(all[k - 1].second) + " and " +
                                  std::to_string(all[k].second));
    }
  }
}

}  // namespace

std::string Result::level_text() const {
  std::string out;
  for (std::size_t k = 0; k < level.size(); ++k) out += (k ? "." : "") + std::to_string(level[k]);
  return out;
}

std::vector<Move> Result::moves() const {
  std::vector<Move> out;
  if (tree) moves_of(*tree, out);
  return out;
}

struct Workspace::Impl {
  Tables tables;
  Search<3> small;
  Search<0> large;
};
Workspace::Workspace() : impl_(std::make_unique<Impl>()) {}
Workspace::~Workspace() = default;

Result disassemble(const Input& input, const Limits& limits) {
  Workspace w;
  return disassemble(input, w, limits);
}

Result disassemble(const Input& input, Workspace& workspace, const Limits& limits) {
  check_input(input);
  Result r;
  const int n = int(input.pieces.size());
  if (n < 2) {  // as in BurrTools, a single piece is no disassembly
    r.status = Status::kLocked;
    r.message = "a single piece: nothing to take apart";
    if (n == 1) {
      r.stuck = {0};
      r.stuck_start = {Vec3{}};
    }
    return r;
  }
  Disassembler d(input, limits, workspace.impl_->tables, workspace.impl_->small,
                 workspace.impl_->large);
  std::vector<int> ids(std::size_t(n), 0);
  for (int i = 0; i < n; ++i) ids[std::size_t(i)] = i;
  try {
    r.tree = d.part(ids, std::vector<Vec3>(std::size_t(n)));
  } catch (const Cut& cut) {
    r.status = Status::kCut;
    r.message = cut.message;
    r.positions = d.positions();
    return r;
  }
  r.positions = d.positions();
  if (!r.tree) {
    r.status = Status::kLocked;
    r.stuck = d.stuck();
    r.stuck_start = d.stuck_start();
    return r;
  }
  r.status = Status::kApart;
  level_of(*r.tree, r.level);
  r.lifts_all_but_one = d.lifts_all_but_one();
  return r;
}

// ---- replay ---------------------------------------------------------------------------------

namespace {

std::string replay_part(const Input& input, const Separation& s, const std::vector<int>& pieces,
                        const std::vector<Vec3>& start, const std::string& where) {
  if (s.pieces != pieces) return where + ": expected the part's pieces to be those its parent left";
  if (s.start != start) return where + ": expected the part to start where its parent left it";
  if (s.moves.empty() || !s.moves.back().separates)
    return where + ": expected moves ending with one that separates";
  std::map<int, std::size_t> index;
  for (std::size_t k = 0; k < pieces.size(); ++k) index[pieces[k]] = k;
  std::vector<Vec3> at = start;
  auto occupied = [&](Mask group) {
    std::set<Vec3> out;
    for (std::size_t k = 0; k < pieces.size(); ++k)
      if (!((group >> k) & 1))
        for (const Vec3& c : input.pieces[std::size_t(pieces[k])].cells) out.insert(c + at[k]);
    return out;
  };
  for (std::size_t m = 0; m < s.moves.size(); ++m) {
    const Move& mv = s.moves[m];
    const std::string here = where + ": move " + std::to_string(m + 1);
    if (mv.separates != (m + 1 == s.moves.size()))
      return here + ": expected only the last move to separate";
    if (mv.distance < 1) return here + ": expected a distance of at least 1";
    Mask group = 0;
    for (int p : mv.pieces) {
      auto it = index.find(p);
      if (it == index.end()) return here + ": moves a piece that is not in the part";
      group |= Mask(1) << it->second;
    }
    if (group == 0 || std::popcount(group) == int(pieces.size()))
      return here + ": expected a group of some but not all of the part's pieces";
    const std::set<Vec3> rest = occupied(group);
    const Vec3 u = unit(mv.direction);
    for (int step = 1; step <= mv.distance; ++step) {
      for (std::size_t k = 0; k < pieces.size(); ++k) {
        if (!((group >> k) & 1)) continue;
        for (const Vec3& c : input.pieces[std::size_t(pieces[k])].cells) {
          if (rest.count(c + at[k] + scaled(u, step)))
            return here + ": overlaps after " + std::to_string(step) + " step(s)";
        }
      }
    }
    for (std::size_t k = 0; k < pieces.size(); ++k)
      if ((group >> k) & 1) at[k] = at[k] + scaled(u, mv.distance);
    if (mv.separates) {
      const int axis = int(mv.direction) >> 1;
      int lo_g = std::numeric_limits<int>::max(), hi_g = std::numeric_limits<int>::min();
      int lo_r = lo_g, hi_r = hi_g;
      for (std::size_t k = 0; k < pieces.size(); ++k) {
        const bool g = (group >> k) & 1;
        for (const Vec3& c : input.pieces[std::size_t(pieces[k])].cells) {
          const int v = coord(c + at[k], axis);
          (g ? lo_g : lo_r) = std::min(g ? lo_g : lo_r, v);
          (g ? hi_g : hi_r) = std::max(g ? hi_g : hi_r, v);
        }
      }
      const bool apart = (int(mv.direction) & 1) == 0 ? lo_g > hi_r : hi_g < lo_r;
      if (!apart) return here + ": expected the group's extent along the axis clear of the rest";
      std::vector<int> removed = mv.pieces;
      std::sort(removed.begin(), removed.end());
      if (removed != s.removed_pieces) return here + ": expected it to take away removed_pieces";
    }
  }
  std::vector<int> left;
  std::vector<Vec3> left_at, removed_at;
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    if (std::binary_search(s.removed_pieces.begin(), s.removed_pieces.end(), pieces[k])) {
      removed_at.push_back(at[k]);
    } else {
      left.push_back(pieces[k]);
      left_at.push_back(at[k]);
    }
  }
  if (left != s.left_pieces) return where + ": expected left_pieces to be the pieces that stayed";
  if (s.left) {
    std::string e = replay_part(input, *s.left, left, left_at, where + ".left");
    if (!e.empty()) return e;
  }
  if (s.removed) {
    std::string e = replay_part(input, *s.removed, s.removed_pieces, removed_at, where + ".removed");
    if (!e.empty()) return e;
  }
  return "";
}

}  // namespace

std::string replay(const Input& input, const Separation& tree) {
  std::vector<int> all(input.pieces.size());
  for (std::size_t k = 0; k < all.size(); ++k) all[k] = int(k);
  return replay_part(input, tree, all, std::vector<Vec3>(all.size()), "tree");
}

}  // namespace cubex::disassembly
