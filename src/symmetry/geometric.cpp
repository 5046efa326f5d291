// A puzzle's symmetry group, found among the cube's 48 symmetries (see symmetry.hpp).
#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "cubex/symmetry.hpp"
#include "option_index.hpp"

namespace cubex {

std::optional<SymmetryMode> parse_symmetry_mode(std::string_view text) {
  if (text == "none") return SymmetryMode::kNone;
  if (text == "rotations") return SymmetryMode::kRotations;
  if (text == "auto") return SymmetryMode::kAuto;
  return std::nullopt;
}

ItemGroup trivial_group(std::size_t num_items) {
  ItemGroup g;
  g.perm.emplace_back(num_items);
  for (std::size_t i = 0; i < num_items; ++i) g.perm[0][i] = static_cast<ItemId>(i);
  return g;
}

namespace {

Vec3 min_corner(const std::vector<Vec3>& points) {
  Vec3 m = points.front();
  for (const Vec3& p : points) m = {std::min(m.x, p.x), std::min(m.y, p.y), std::min(m.z, p.z)};
  return m;
}

// The items with a place, found by (tag, point): a flat table over the places' bounding box
// where that is not much larger than the items (a box: every point of it is an item), otherwise
// an ordered map. A million cells are looked up 47 times each.
class PlaceIndex {
 public:
  explicit PlaceIndex(const ItemPlaces& places) {
    const std::size_t n = places.where.size();
    std::size_t placed = 0;
    for (ItemId i = 0; i < n; ++i) {
      if (!places.where[i]) continue;
      const auto& [tag, p] = *places.where[i];
      if (placed++ == 0) {
        lo_ = hi_ = p;
        tag_lo_ = tag_hi_ = tag;
      }
      lo_ = {std::min(lo_.x, p.x), std::min(lo_.y, p.y), std::min(lo_.z, p.z)};
      hi_ = {std::max(hi_.x, p.x), std::max(hi_.y, p.y), std::max(hi_.z, p.z)};
      tag_lo_ = std::min(tag_lo_, tag);
      tag_hi_ = std::max(tag_hi_, tag);
    }
    double volume = placed == 0 ? 0 : 1.0;
    if (placed > 0) {
      volume = (double(tag_hi_) - tag_lo_ + 1) * (double(hi_.x) - lo_.x + 1) *
               (double(hi_.y) - lo_.y + 1) * (double(hi_.z) - lo_.z + 1);
    }
    dense_ = placed > 0 && volume <= 4.0 * double(placed) + 4096;
    if (dense_) table_.assign(static_cast<std::size_t>(volume), kNone);
    for (ItemId i = 0; i < n; ++i) {
      if (!places.where[i]) continue;
      const auto& [tag, p] = *places.where[i];
      const bool fresh = dense_ ? std::exchange(table_[slot(tag, p)], i) == kNone
                                : map_.emplace(*places.where[i], i).second;
      if (!fresh) throw ProblemError("two items are placed at the same point");
    }
  }

  std::optional<ItemId> find(int tag, const Vec3& p) const {
    if (!dense_) {
      const auto it = map_.find({tag, p});
      if (it == map_.end()) return std::nullopt;
      return it->second;
    }
    if (tag < tag_lo_ || tag > tag_hi_ || p.x < lo_.x || p.x > hi_.x || p.y < lo_.y ||
        p.y > hi_.y || p.z < lo_.z || p.z > hi_.z) {
      return std::nullopt;
    }
    const ItemId i = table_[slot(tag, p)];
    if (i == kNone) return std::nullopt;
    return i;
  }

 private:
  static constexpr ItemId kNone = ~ItemId{0};
  std::size_t slot(int tag, const Vec3& p) const {
    const std::size_t X = std::size_t(hi_.x - lo_.x) + 1, Y = std::size_t(hi_.y - lo_.y) + 1,
                      Z = std::size_t(hi_.z - lo_.z) + 1;
    return ((std::size_t(tag - tag_lo_) * X + std::size_t(p.x - lo_.x)) * Y +
            std::size_t(p.y - lo_.y)) * Z + std::size_t(p.z - lo_.z);
  }
  bool dense_ = false;
  Vec3 lo_{}, hi_{};
  int tag_lo_ = 0, tag_hi_ = 0;
  std::vector<ItemId> table_;
  std::map<std::pair<int, Vec3>, ItemId> map_;
};

}  // namespace

CubeGroup cube_symmetry_group(const Problem& problem, const ItemPlaces& places, SymmetryMode mode,
                              const Watch& watch) {
  const std::size_t n = problem.num_items();
  if (places.where.size() != n || places.reflected.size() != n) {
    throw ProblemError("item places do not match the problem's items");
  }
  CubeGroup out;
  out.group = trivial_group(n);
  out.symmetry = {0};
  out.option_perm.emplace_back(problem.num_options());
  for (OptionId o = 0; o < problem.num_options(); ++o) out.option_perm[0][o] = o;
  if (mode == SymmetryMode::kNone) return out;

  // Each candidate costs about two passes over the items and one over the options: the board
  // counts those units, and the stop flag is polled every few thousand of them.
  const int last = mode == SymmetryMode::kAuto ? 48 : 24;
  const std::uint64_t unit = 2 * std::uint64_t{n} + problem.num_options();
  PhasePoll poll(watch, "finding the symmetries", unit * std::uint64_t(last));
  const PlaceIndex at(places);
  std::vector<Vec3> points;
  for (ItemId i = 0; i < n; ++i) {
    if (places.where[i]) points.push_back(places.where[i]->second);
  }
  const Vec3 corner = points.empty() ? Vec3{} : min_corner(points);

  // Options found by their (item, colour) entries: an element must keep colours too.
  detail::OptionIndex index(problem, watch);
  poll.step_to(unit);
  std::vector<Vec3> moved(points.size());
  // The candidates: the elements whose item permutation (one translation after M) keeps the
  // places and the kinds of items.
  std::vector<int> candidate;
  std::vector<std::vector<ItemId>> perm_of(static_cast<std::size_t>(last));
  for (int k = 1; k < last; ++k) {
    poll.step_to(unit * std::uint64_t(k));
    const Mat3& m = cube_symmetries()[k];
    const bool reflection = k >= 24;
    std::vector<ItemId> perm(n);
    bool ok = true;
    Vec3 shift{};
    if (!points.empty()) {
      for (std::size_t j = 0; j < points.size(); ++j) moved[j] = m * points[j];
      shift = corner - min_corner(moved);
    }
    for (ItemId i = 0; i < n && ok; ++i) {
      poll.step();
      if (places.where[i]) {
        const auto image = at.find(places.where[i]->first, m * places.where[i]->second + shift);
        ok = image.has_value();
        if (ok) perm[i] = *image;
      } else if (!reflection) {
        perm[i] = i;
      } else {
        ok = places.reflected[i].has_value() && *places.reflected[i] < n;
        if (ok) perm[i] = *places.reflected[i];
      }
    }
    if (!ok) continue;
    // A permutation (the reflected twins could collide), keeping kinds, mapping options to options.
    std::vector<bool> hit(n, false);
    for (ItemId i = 0; i < n && ok; ++i) {
      poll.step();
      const Item &a = problem.item(i), &b = problem.item(perm[i]);
      ok = !hit[perm[i]] && a.primary == b.primary && a.lo == b.lo && a.hi == b.hi;
      hit[perm[i]] = true;
    }
    if (!ok) continue;
    candidate.push_back(k);
    perm_of[std::size_t(k)] = std::move(perm);
  }

  // Each candidate's option images. An element that is the product of two accepted ones
  // (M = Ma Mb), acting on the items as b then a, maps options to options as b then a does: its
  // images are theirs composed, with no option looked up. Only where no candidate left is such a
  // product are the options of one looked up (a generator; a candidate that maps some option to
  // no option is refused). The accepted elements are the same whichever way they
  // are found (the product of two symmetries is one), listed in the order of cube_symmetries().
  //   product[a][b]: the index of Ma Mb; inverse[a]: of Ma's inverse.
  auto code = [](const Mat3& m) {  // (a signed permutation is known by its image of (1, 2, 3))
    const Vec3 v = m * Vec3{1, 2, 3};
    return std::size_t((v.x + 3) * 49 + (v.y + 3) * 7 + (v.z + 3));
  };
  std::array<int, 343> index_of{};
  for (int k = 0; k < 48; ++k) index_of[code(cube_symmetries()[std::size_t(k)])] = k;
  std::array<std::array<int, 48>, 48> product{};
  std::array<int, 48> inverse{};
  for (int a = 0; a < 48; ++a) {
    const Mat3& ma = cube_symmetries()[std::size_t(a)];
    for (int b = 0; b < 48; ++b)
      product[std::size_t(a)][std::size_t(b)] =
          index_of[code(ma * cube_symmetries()[std::size_t(b)])];
    inverse[std::size_t(a)] = index_of[code(ma.inverse())];
  }
  std::array<int, 48> order{};  // the least power of each element that is the identity
  for (int a = 0; a < 48; ++a) {
    order[std::size_t(a)] = 1;
    for (int p = a; p != 0; p = product[std::size_t(p)][std::size_t(a)]) ++order[std::size_t(a)];
  }
  std::vector<std::vector<OptionId>> images_of(static_cast<std::size_t>(last));
  std::vector<bool> accepted(std::size_t(last), false);
  accepted[0] = true;
  images_of[0] = out.option_perm[0];
  perm_of[0] = out.group.perm[0];
  std::vector<int> found{0};  // the accepted elements, in the order accepted
  std::vector<int> left = candidate;
  while (!left.empty()) {
    bool composed = false;
    for (std::size_t c = 0; c < left.size() && !composed; ++c) {
      const int k = left[c];
      const auto& perm = perm_of[std::size_t(k)];
      for (int a : found) {
        const int b = product[std::size_t(inverse[std::size_t(a)])][std::size_t(k)];
        if (!accepted[std::size_t(b)]) continue;
        const auto &pa = perm_of[std::size_t(a)], &pb = perm_of[std::size_t(b)];
        bool same = true;
        for (ItemId i = 0; i < n && same; ++i) {
          same = pa[pb[i]] == perm[i];
          if ((i & 0xffff) == 0) poll.check();
        }
        if (!same) continue;
        const auto &ia = images_of[std::size_t(a)], &ib = images_of[std::size_t(b)];
        std::vector<OptionId> images(problem.num_options());
        for (OptionId o = 0; o < problem.num_options(); ++o) {
          images[o] = ia[ib[o]];
          poll.step();
        }
        images_of[std::size_t(k)] = std::move(images);
        accepted[std::size_t(k)] = true;
        found.push_back(k);
        left.erase(left.begin() + std::ptrdiff_t(c));
        composed = true;
        break;
      }
    }
    if (composed) continue;
    // A generator: the candidate of the highest order (a quarter turn, then a third), whose
    // powers and products with the accepted ones are composed; the first of those.
    std::size_t pick = 0;
    for (std::size_t c = 1; c < left.size(); ++c)
      if (order[std::size_t(left[c])] > order[std::size_t(left[pick])]) pick = c;
    const int k = left[pick];
    left.erase(left.begin() + std::ptrdiff_t(pick));
    std::vector<OptionId> images(problem.num_options());
    bool ok = true;
    for (OptionId o = 0; o < problem.num_options() && ok; ++o) {
      poll.step();
      const std::optional<OptionId> image = index.image(o, perm_of[std::size_t(k)]);
      ok = image.has_value();
      if (ok) images[o] = *image;
    }
    if (!ok) continue;
    images_of[std::size_t(k)] = std::move(images);
    accepted[std::size_t(k)] = true;
    found.push_back(k);
  }
  for (int k = 1; k < last; ++k) {
    if (!accepted[std::size_t(k)]) continue;
    out.group.perm.push_back(std::move(perm_of[std::size_t(k)]));
    out.option_perm.push_back(std::move(images_of[std::size_t(k)]));
    out.symmetry.push_back(k);
  }
  return out;
}

}  // namespace cubex
