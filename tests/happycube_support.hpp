// Test helpers for the Happy Cube front end: solvable piece sets cut from a random shell, and a
// brute force that counts the solutions without the compiler, the frames of the faces or the
// solver.
#pragma once

#include <algorithm>
#include <bitset>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "cubex/geometry.hpp"
#include "cubex/happycube/model.hpp"

namespace hc_test {

using cubex::Vec3;
using cubex::happycube::PieceSpec;
using cubex::happycube::Spec;
using cubex::happycube::Tile;

// Cuts the shell of `structure` into plates: every border point goes to one of the faces through
// it, chosen at random. With `half_turn`, the choice is invariant under the half turn about the
// vertical axis through the middle of the bounding box, so faces swapped by it get equal plates.
// The plates are then turned (and flipped, when `flip`) at random and shuffled, and named 1, 2...
inline Spec cut_shell(int n, std::vector<Vec3> structure, unsigned seed, bool flip = true,
                      bool half_turn = false) {
  std::mt19937 rng(seed);
  const auto faces = cubex::happycube::make_faces(n, structure);
  // Twice the centre of a face, and the half turn in doubled coordinates.
  auto centre2 = [&](const cubex::happycube::Face& f) {
    return Vec3{2 * f.origin.x + (n - 1) * (f.u.x + f.v.x),
                2 * f.origin.y + (n - 1) * (f.u.y + f.v.y),
                2 * f.origin.z + (n - 1) * (f.u.z + f.v.z)};
  };
  Vec3 lo = structure[0], hi = structure[0];
  for (const Vec3& c : structure) {
    lo = {std::min(lo.x, c.x), std::min(lo.y, c.y), std::min(lo.z, c.z)};
    hi = {std::max(hi.x, c.x), std::max(hi.y, c.y), std::max(hi.z, c.z)};
  }
  const int l = n - 1;
  const int sx = (lo.x + hi.x + 1) * l, sy = (lo.y + hi.y + 1) * l;  // x -> sx - x, y -> sy - y
  auto turn2 = [&](const Vec3& p2) { return Vec3{2 * sx - p2.x, 2 * sy - p2.y, p2.z}; };
  auto turn = [&](const Vec3& p) { return Vec3{sx - p.x, sy - p.y, p.z}; };

  std::map<Vec3, std::vector<std::size_t>> through;
  for (std::size_t f = 0; f < faces.size(); ++f)
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) through[faces[f].point(r, c, n)].push_back(f);
  std::map<Vec3, std::size_t> owner;
  for (const auto& [p, fs] : through) {
    if (owner.count(p)) continue;
    const std::size_t f = fs[rng() % fs.size()];
    owner[p] = f;
    if (half_turn && turn(p) != p) {
      for (std::size_t g : through.at(turn(p))) {
        if (centre2(faces[g]) == turn2(centre2(faces[f]))) owner[turn(p)] = g;
      }
    }
  }
  Spec spec;
  spec.name = "cut-" + std::to_string(seed);
  spec.size = n;
  spec.structure = structure;
  for (std::size_t f = 0; f < faces.size(); ++f) {
    Tile t(n);
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c)
        t.set(r, c, t.in_centre(r, c) || owner.at(faces[f].point(r, c, n)) == f);
    const bool flipped = flip && rng() % 2;
    spec.pieces.push_back(
        {"", cubex::happycube::orient(t, static_cast<int>(rng() % 4), flipped), 1, flip});
  }
  std::shuffle(spec.pieces.begin(), spec.pieces.end(), rng);
  for (std::size_t k = 0; k < spec.pieces.size(); ++k) spec.pieces[k].name = std::to_string(k + 1);
  return spec;
}

// Counts physically different solutions by backtracking over faces and pieces (a piece need not
// be used: with more pieces than faces the spare ones stay over), with every
// placement made by moving the plate, laid drawn side up on the base of a unit cube (column ->
// +x, row 0 -> +y), by the 48 symmetries of that cube (the 24 rotations only for a piece that may
// not be flipped) and translating it to each cube. Two solutions are the same when every face
// holds the same kind of piece covering the same points.
class BruteForce {
 public:
  using Bits = std::bitset<1024>;

  explicit BruteForce(const Spec& spec) : n_(spec.size) {
    const std::set<Vec3> cubes(spec.structure.begin(), spec.structure.end());
    // One solid plate shows which points and faces exist.
    Tile solid(n_);
    for (auto& c : solid.cells) c = 1;
    for (const auto& [face, cells] : images(solid, true, spec.structure, cubes)) {
      faces_.insert(face);
      for (const Vec3& p : cells[0]) {
        index_.emplace(p, index_.size());
        faces_of_.resize(index_.size());
        faces_of_[index_.at(p)].insert(face);
      }
    }
    // Piece kinds: equal sets of images.
    std::map<std::map<FaceKey, std::set<std::string>>, std::size_t> kind_of;
    for (const PieceSpec& p : spec.pieces) {
      std::map<FaceKey, std::set<std::string>> sig;
      for (const auto& [face, cells] : images(p.tile, p.may_flip, spec.structure, cubes))
        for (const auto& c : cells) sig[face].insert(bits(c).to_string());
      auto [it, fresh] = kind_of.emplace(sig, kinds_.size());
      if (fresh) {
        Kind k{{}, 0};
        for (const auto& [face, set] : sig)
          for (const std::string& b : set) k.images[face].push_back(Bits(b));
        kinds_.push_back(std::move(k));
      }
      kinds_[it->second].left += p.count;
    }
  }

  std::size_t count() {
    solutions_.clear();
    // Faces in an order where each next one shares the most points with those before it.
    order_.clear();
    std::set<FaceKey> left(faces_);
    while (!left.empty()) {
      FaceKey best = *left.begin();
      int best_shared = -1;
      for (const FaceKey& f : left) {
        int shared = 0;
        for (const auto& fs : faces_of_)
          if (fs.count(f))
            for (const FaceKey& g : order_) shared += static_cast<int>(fs.count(g));
        if (shared > best_shared) {
          best = f;
          best_shared = shared;
        }
      }
      order_.push_back(best);
      left.erase(best);
    }
    chosen_.clear();
    // done_[k]: the points whose faces are all among the first k + 1; they must be covered then.
    done_.assign(order_.size(), Bits());
    for (std::size_t k = 0; k < order_.size(); ++k)
      for (std::size_t p = 0; p < faces_of_.size(); ++p) {
        const bool all =
            std::all_of(faces_of_[p].begin(), faces_of_[p].end(), [&](const FaceKey& f) {
              return std::find(order_.begin(), order_.begin() + k + 1, f) != order_.begin() + k + 1;
            });
        if (all) done_[k].set(p);
      }
    search(0, Bits());
    return solutions_.size();
  }
  std::size_t shell_size() const { return index_.size(); }

  // The solutions found by count(), each as its shell points labelled with the kind of plate
  // covering them (kinds numbered in the order of the pieces), sorted.
  std::vector<std::vector<std::pair<Vec3, int>>> labelled() const {
    std::vector<Vec3> point(index_.size());
    for (const auto& [p, i] : index_) point[i] = p;
    std::vector<std::vector<std::pair<Vec3, int>>> out;
    for (const auto& sol : solutions_) {
      std::vector<std::pair<Vec3, int>> s;
      for (const std::string& face : sol) {
        const std::size_t colon = face.find(':');
        const int kind = std::stoi(face.substr(0, colon));
        const Bits b(face.substr(colon + 1));
        for (std::size_t i = 0; i < point.size(); ++i)
          if (b[i]) s.push_back({point[i], kind});
      }
      std::sort(s.begin(), s.end());
      out.push_back(std::move(s));
    }
    return out;
  }

 private:
  using FaceKey = std::pair<Vec3, int>;  // (cube, 0..5: +x -x +y -y +z -z)
  struct Kind {
    std::map<FaceKey, std::vector<Bits>> images;
    int left;
  };

  std::map<FaceKey, std::vector<std::vector<Vec3>>> images(const Tile& t, bool flip,
                                                           const std::vector<Vec3>& structure,
                                                           const std::set<Vec3>& cubes) const {
    const int l = n_ - 1;
    std::map<FaceKey, std::vector<std::vector<Vec3>>> out;
    const auto& g = cubex::cube_symmetries();
    for (int s = 0; s < (flip ? 48 : 24); ++s) {
      std::vector<Vec3> local;
      Vec3 centre2;  // twice the image of the plate's centre, relative to the cube's centre
      for (int r = 0; r < n_; ++r)
        for (int c = 0; c < n_; ++c) {
          const Vec3 q = g[s] * Vec3{2 * c - l, 2 * (l - r) - l, -l};
          if (t.at(r, c)) local.push_back({(q.x + l) / 2, (q.y + l) / 2, (q.z + l) / 2});
        }
      centre2 = g[s] * Vec3{0, 0, -l};
      int side = 0;
      for (int a = 0; a < 3; ++a)
        if (centre2[a] != 0) side = 2 * a + (centre2[a] > 0 ? 0 : 1);
      for (const Vec3& cube : structure) {
        Vec3 next = cube;
        (side / 2 == 0 ? next.x : side / 2 == 1 ? next.y : next.z) += side % 2 == 0 ? 1 : -1;
        if (cubes.count(next)) continue;
        std::vector<Vec3> cells;
        for (const Vec3& p : local)
          cells.push_back({p.x + cube.x * l, p.y + cube.y * l, p.z + cube.z * l});
        out[{cube, side}].push_back(cells);
      }
    }
    return out;
  }

  Bits bits(const std::vector<Vec3>& cells) const {
    Bits b;
    for (const Vec3& p : cells) b.set(index_.at(p));
    return b;
  }

  void search(std::size_t k, const Bits& occ) {
    if (k == order_.size()) {
      if (occ.count() == index_.size()) solutions_.insert(chosen_);
      return;
    }
    for (std::size_t kind = 0; kind < kinds_.size(); ++kind) {
      Kind& kd = kinds_[kind];
      if (kd.left == 0) continue;
      auto it = kd.images.find(order_[k]);
      if (it == kd.images.end()) continue;
      for (const Bits& img : it->second) {
        if ((occ & img).any() || ((occ | img) & done_[k]) != done_[k]) continue;
        --kd.left;
        chosen_.push_back(std::to_string(kind) + ":" + img.to_string());
        search(k + 1, occ | img);
        chosen_.pop_back();
        ++kd.left;
      }
    }
  }

  int n_;
  std::set<FaceKey> faces_;
  std::map<Vec3, std::size_t> index_;
  std::vector<std::set<FaceKey>> faces_of_;
  std::vector<Bits> done_;
  std::vector<Kind> kinds_;
  std::vector<FaceKey> order_;
  std::vector<std::string> chosen_;
  std::set<std::vector<std::string>> solutions_;
};

}  // namespace hc_test
