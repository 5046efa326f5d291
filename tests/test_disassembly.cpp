// The disassembler (issue 36) against an independent brute force on small cases: every tree it
// reports replays without overlap and ends with the pieces apart; the moves of its first
// separation are the fewest any sequence of group slides needs; an assembly reported locked has
// a part from which no sequence of slides frees anything (exhaustive search over the positions).
#include <gtest/gtest.h>

#include <map>
#include <queue>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "cubex/disassembly/disassembler.hpp"
#include "sanitized.hpp"

namespace {

namespace dis = cubex::disassembly;
using cubex::Vec3;

dis::Input pieces(std::vector<std::vector<Vec3>> cells) {
  dis::Input in;
  for (std::size_t k = 0; k < cells.size(); ++k) in.pieces.push_back({cells[k], int(k), 1});
  return in;
}

// ---- the brute force: every group, every direction, every distance; unit steps checked ----

class Brute {
 public:
  Brute(const dis::Input& in, std::vector<int> ids, std::vector<Vec3> start)
      : in_(in), ids_(std::move(ids)), start_(std::move(start)) {
    int lo = 1 << 20, hi = -(1 << 20);
    for (int p : ids_)
      for (const Vec3& c : in_.pieces[std::size_t(p)].cells)
        for (int a = 0; a < 3; ++a) {
          lo = std::min(lo, c[a]);
          hi = std::max(hi, c[a]);
        }
    far_ = 2 * (hi - lo + 2) + 2;
  }

  // The fewest moves (the last one taking a group away) that separate the part, or -1 when no
  // sequence of slides separates it.
  int fewest() const {
    const std::size_t n = ids_.size();
    std::map<std::vector<Vec3>, int> seen;
    std::queue<std::vector<Vec3>> todo;
    std::vector<Vec3> s = start_;
    normalise(s);
    seen[s] = 0;
    todo.push(s);
    while (!todo.empty()) {
      std::vector<Vec3> x = todo.front();
      todo.pop();
      const int depth = seen[x];
      for (unsigned g = 1; g + 1 < (1u << n); ++g)
        for (int d = 0; d < 6; ++d)
          if (slides(x, g, d) >= far_) return depth + 1;
      for (unsigned g = 1; g + 1 < (1u << n); ++g) {
        for (int d = 0; d < 6; ++d) {
          const int most = slides(x, g, d);
          for (int t = 1; t <= most; ++t) {
            std::vector<Vec3> y = x;
            const Vec3 u = dis::unit(dis::Direction(d));
            for (std::size_t k = 0; k < n; ++k)
              if ((g >> k) & 1) y[k] = y[k] + Vec3{u.x * t, u.y * t, u.z * t};
            normalise(y);
            if (seen.emplace(y, depth + 1).second) todo.push(y);
          }
        }
      }
    }
    return -1;
  }

 private:
  static void normalise(std::vector<Vec3>& s) {
    const Vec3 o = s[0];
    for (Vec3& v : s) v = v - o;
  }
  // How many unit steps group g can slide in direction d from x (at most far_).
  int slides(const std::vector<Vec3>& x, unsigned g, int d) const {
    std::set<Vec3> rest;
    for (std::size_t k = 0; k < ids_.size(); ++k)
      if (!((g >> k) & 1))
        for (const Vec3& c : in_.pieces[std::size_t(ids_[k])].cells) rest.insert(c + x[k]);
    const Vec3 u = dis::unit(dis::Direction(d));
    for (int t = 1; t <= far_; ++t) {
      for (std::size_t k = 0; k < ids_.size(); ++k) {
        if (!((g >> k) & 1)) continue;
        for (const Vec3& c : in_.pieces[std::size_t(ids_[k])].cells)
          if (rest.count(c + x[k] + Vec3{u.x * t, u.y * t, u.z * t})) return t - 1;
      }
    }
    return far_;
  }

  const dis::Input& in_;
  std::vector<int> ids_;
  std::vector<Vec3> start_;
  int far_ = 0;
};

int brute_fewest(const dis::Input& in) {
  std::vector<int> all;
  for (std::size_t k = 0; k < in.pieces.size(); ++k) all.push_back(int(k));
  return Brute(in, all, std::vector<Vec3>(all.size())).fewest();
}

// A random dissection of a box into k face-connected pieces (grown from k random seeds).
dis::Input random_dissection(std::mt19937& rng, Vec3 box, int k) {
  std::vector<Vec3> cells;
  for (int z = 0; z < box.z; ++z)
    for (int y = 0; y < box.y; ++y)
      for (int x = 0; x < box.x; ++x) cells.push_back({x, y, z});
  std::map<Vec3, int> owner;
  std::shuffle(cells.begin(), cells.end(), rng);
  for (int p = 0; p < k; ++p) owner[cells[std::size_t(p)]] = p;
  const Vec3 nb[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  while (owner.size() < cells.size()) {
    const Vec3 c = cells[rng() % cells.size()];
    if (owner.count(c)) continue;
    const Vec3 n = c + nb[rng() % 6];
    auto it = owner.find(n);
    if (it != owner.end()) owner[c] = it->second;
  }
  std::vector<std::vector<Vec3>> ps(static_cast<std::size_t>(k));
  for (const auto& [c, p] : owner) ps[std::size_t(p)].push_back(c);
  return pieces(ps);
}

// Pieces in a cage: k pieces of a random dissection of an inner box into k + 1 (one left out, as
// room to move), inside a one-cell shell (piece 0) with an opening or two in its faces, so that
// pieces must slide about to leave.
dis::Input random_cage(std::mt19937& rng, Vec3 inner, int k) {
  dis::Input in = random_dissection(rng, inner, k + 1);
  in.pieces.pop_back();  // room to move
  for (dis::Piece& p : in.pieces) {
    for (Vec3& c : p.cells) c = c + Vec3{1, 1, 1};
    ++p.kind;
  }
  const Vec3 size = inner + Vec3{2, 2, 2};
  std::set<Vec3> open;
  const int holes = 1 + int(rng() % 2);
  for (int h = 0; h < holes; ++h) {
    const int axis = inner.z == 1 ? int(rng() % 2) : int(rng() % 3);  // flat: in a side wall
    const bool high = rng() % 2;
    // A rectangle of 1 or 2 by 1 or 2 cells inside the face.
    const int b = (axis + 1) % 3, c = (axis + 2) % 3;
    const int wb = 1 + int(rng() % 2), wc = 1;
    const int sb = 1 + int(rng() % std::max(1, size[b] - 2 - wb + 1));
    const int sc = 1 + int(rng() % std::max(1, size[c] - 2 - wc + 1));
    for (int i = 0; i < wb; ++i)
      for (int j = 0; j < wc; ++j) {
        int v[3];
        v[axis] = high ? size[axis] - 1 : 0;
        v[b] = std::min(sb + i, size[b] - 2);
        v[c] = std::min(sc + j, size[c] - 2);
        open.insert({v[0], v[1], v[2]});
      }
  }
  dis::Piece cage;
  for (int x = 0; x < size.x; ++x)
    for (int y = 0; y < size.y; ++y)
      for (int z = 0; z < size.z; ++z) {
        const bool edge = x == 0 || y == 0 || z == 0 || x == size.x - 1 || y == size.y - 1 ||
                          z == size.z - 1;
        if (edge && !open.count({x, y, z})) cage.cells.push_back({x, y, z});
      }
  in.pieces.insert(in.pieces.begin(), cage);
  return in;
}

// ---- cases by hand ----

TEST(Disassembly, TwoCubesComeApartInOneMove) {
  const dis::Input in = pieces({{{0, 0, 0}}, {{1, 0, 0}}});
  const dis::Result r = dis::disassemble(in);
  ASSERT_EQ(r.status, dis::Status::kApart);
  EXPECT_EQ(r.level, (std::vector<int>{1}));
  EXPECT_EQ(r.level_text(), "1");
  ASSERT_EQ(r.tree->moves.size(), 1u);
  // +x first, piece 0 is blocked by piece 1 that way; piece 1 is free.
  EXPECT_EQ(r.tree->moves[0].pieces, (std::vector<int>{1}));
  EXPECT_EQ(r.tree->moves[0].direction, dis::Direction::kPosX);
  EXPECT_TRUE(r.tree->moves[0].separates);
  EXPECT_EQ(dis::replay(in, *r.tree), "");
}

TEST(Disassembly, TheHeavierSideStays) {
  dis::Input in = pieces({{{1, 0, 0}}, {{0, 0, 0}}});
  in.pieces[0].weight = 2;  // piece 0 would be the first to go (+x); it is the heavier one
  const dis::Result r = dis::disassemble(in);
  ASSERT_EQ(r.status, dis::Status::kApart);
  EXPECT_EQ(r.tree->moves[0].pieces, (std::vector<int>{1}));
  EXPECT_EQ(r.tree->moves[0].direction, dis::Direction::kNegX);
  EXPECT_EQ(r.tree->removed_pieces, (std::vector<int>{1}));
  EXPECT_EQ(r.tree->left_pieces, (std::vector<int>{0}));
  EXPECT_EQ(dis::replay(in, *r.tree), "");
}

std::vector<Vec3> shell(int size) {
  std::vector<Vec3> out;
  for (int x = 0; x < size; ++x)
    for (int y = 0; y < size; ++y)
      for (int z = 0; z < size; ++z)
        if (x == 0 || y == 0 || z == 0 || x == size - 1 || y == size - 1 || z == size - 1)
          out.push_back({x, y, z});
  return out;
}

TEST(Disassembly, ACubeShutInAShellIsLocked) {
  const dis::Input in = pieces({shell(3), {{1, 1, 1}}});
  const dis::Result r = dis::disassemble(in);
  EXPECT_EQ(r.status, dis::Status::kLocked);
  EXPECT_EQ(r.stuck, (std::vector<int>{0, 1}));
  EXPECT_EQ(r.positions, 1u);
  EXPECT_EQ(brute_fewest(in), -1);
}

TEST(Disassembly, ARodSlidesInItsTubeButStaysShut) {
  // A closed tube 1x1x6 inside, a rod of 2: the rod has 5 positions, none frees it.
  std::vector<Vec3> tube;
  for (int x = -1; x <= 6; ++x)
    for (int y = -1; y <= 1; ++y)
      for (int z = -1; z <= 1; ++z)
        if (!(y == 0 && z == 0 && x >= 0 && x <= 5)) tube.push_back({x, y, z});
  const dis::Input in = pieces({tube, {{0, 0, 0}, {1, 0, 0}}});
  const dis::Result r = dis::disassemble(in);
  EXPECT_EQ(r.status, dis::Status::kLocked);
  EXPECT_EQ(r.positions, 5u);
  EXPECT_EQ(brute_fewest(in), -1);
  // The same with a memory bound of a few positions: cut, and said so.
  dis::Limits tight;
  tight.max_bytes = 1024 * 4 + 3 * 40;
  const dis::Result c = dis::disassemble(in, tight);
  EXPECT_EQ(c.status, dis::Status::kCut);
  EXPECT_NE(c.message.find("memory limit"), std::string::npos) << c.message;
}

TEST(Disassembly, ARodInAnOpenTubeLeavesAfterSliding) {
  // The tube is open at +x; the rod is at the closed end: it slides out in one move.
  std::vector<Vec3> tube;
  for (int x = -1; x <= 5; ++x)
    for (int y = -1; y <= 1; ++y)
      for (int z = -1; z <= 1; ++z)
        if (!(y == 0 && z == 0 && x >= 0)) tube.push_back({x, y, z});
  const dis::Input in = pieces({tube, {{0, 0, 0}, {1, 0, 0}}});
  const dis::Result r = dis::disassemble(in);
  ASSERT_EQ(r.status, dis::Status::kApart);
  EXPECT_EQ(r.level, (std::vector<int>{1}));
  EXPECT_EQ(dis::replay(in, *r.tree), "");
}

TEST(Disassembly, BadInputIsRefused) {
  EXPECT_THROW(dis::disassemble(pieces({{{0, 0, 0}}, {{0, 0, 0}}})), std::invalid_argument);
  EXPECT_THROW(dis::disassemble(pieces({{{0, 0, 0}}, {}})), std::invalid_argument);
}

TEST(Disassembly, ReplayFindsAnOverlap) {
  const dis::Input in = pieces({{{0, 0, 0}}, {{1, 0, 0}}});
  dis::Result r = dis::disassemble(in);
  ASSERT_EQ(r.status, dis::Status::kApart);
  r.tree->moves[0].direction = dis::Direction::kNegX;  // into piece 0
  EXPECT_NE(dis::replay(in, *r.tree), "");
}

// ---- random small puzzles against the brute force ----

// Every separation of the tree needs as many moves as the fewest the brute force finds from the
// same position; counts those of more than one move.
void check_tree(const dis::Input& in, const dis::Separation& s, int& longer, const std::string& where) {
  EXPECT_EQ(int(s.moves.size()), Brute(in, s.pieces, s.start).fewest()) << where;
  if (s.moves.size() > 1) ++longer;
  if (s.left) check_tree(in, *s.left, longer, where + ".left");
  if (s.removed) check_tree(in, *s.removed, longer, where + ".removed");
}

TEST(Disassembly, RandomDissectionsAgreeWithBruteForce) {
  std::mt19937 rng(36);
  const Vec3 boxes[] = {{3, 3, 3}, {4, 3, 2}, {3, 3, 2}, {4, 4, 2}};
  int apart = 0, longer = 0, locked = 0, stuck_whole = 0;
  const Vec3 inner[] = {{3, 3, 1}, {4, 3, 1}, {3, 3, 2}, {4, 4, 1}};
  for (int round = 0; round < cubex::test::scaled(400, 100); ++round) {
    const dis::Input in = round % 2 ? random_dissection(rng, boxes[round % 4], 3 + int(rng() % 3))
                                    : random_cage(rng, inner[(round / 2) % 4], 3 + int(rng() % 3));
    const dis::Result r = dis::disassemble(in);
    const int bf = brute_fewest(in);
    ASSERT_NE(r.status, dis::Status::kCut);
    if (r.status == dis::Status::kApart) {
      ++apart;
      EXPECT_EQ(dis::replay(in, *r.tree), "") << "round " << round;
      EXPECT_EQ(r.level[0], bf) << "round " << round;
      check_tree(in, *r.tree, longer, "round " + std::to_string(round));
    } else {
      ++locked;
      ASSERT_FALSE(r.stuck.empty());
      EXPECT_EQ(Brute(in, r.stuck, r.stuck_start).fewest(), -1) << "round " << round;
      if (r.stuck.size() == in.pieces.size()) {
        ++stuck_whole;
        EXPECT_EQ(bf, -1) << "round " << round;
      } else {
        EXPECT_EQ(r.tree, nullptr);
      }
    }
    if (bf == -1) {
      EXPECT_EQ(r.status, dis::Status::kLocked) << "round " << round;
      EXPECT_EQ(r.stuck.size(), in.pieces.size()) << "round " << round;
    }
  }
  // The cases must exercise all branches.
  EXPECT_GT(apart, cubex::test::scaled(100, 25));
  EXPECT_GT(longer, cubex::test::scaled(20, 5));
  EXPECT_GT(locked, cubex::test::scaled(20, 5));
  RecordProperty("apart", apart);
  RecordProperty("longer", longer);
  RecordProperty("locked", locked);
  RecordProperty("stuck_whole", stuck_whole);
  std::printf("apart %d (separations of more than one move: %d), locked %d (whole: %d)\n", apart, longer,
              locked, stuck_whole);
}

// The compact search (parts of at most 8 pieces) and the general one (larger parts) find the
// same: the same status, moves, level, positions visited and stuck part, on random small puzzles;
// and parts of more than 8 pieces come apart along moves that replay.
void expect_same(const dis::Result& a, const dis::Result& b, const std::string& where) {
  ASSERT_EQ(a.status, b.status) << where;
  EXPECT_EQ(a.level, b.level) << where;
  EXPECT_EQ(a.positions, b.positions) << where;
  EXPECT_EQ(a.stuck, b.stuck) << where;
  EXPECT_EQ(a.stuck_start, b.stuck_start) << where;
  const std::vector<dis::Move> ma = a.moves(), mb = b.moves();
  ASSERT_EQ(ma.size(), mb.size()) << where;
  for (std::size_t k = 0; k < ma.size(); ++k) {
    EXPECT_EQ(ma[k].pieces, mb[k].pieces) << where << " move " << k;
    EXPECT_EQ(ma[k].direction, mb[k].direction) << where << " move " << k;
    EXPECT_EQ(ma[k].distance, mb[k].distance) << where << " move " << k;
  }
}

TEST(Disassembly, CompactAndGeneralSearchesAgree) {
  std::mt19937 rng(3636);
  dis::Limits general;
  general.compact = false;
  const Vec3 boxes[] = {{3, 3, 3}, {4, 3, 2}, {3, 3, 2}, {4, 4, 2}};
  const Vec3 inner[] = {{3, 3, 1}, {4, 3, 1}, {3, 3, 2}, {4, 4, 1}};
  int apart = 0, locked = 0, searched = 0;
  for (int round = 0; round < cubex::test::scaled(1000, 200); ++round) {
    dis::Input in = round % 2 ? random_dissection(rng, boxes[round % 4], 3 + int(rng() % 5))
                              : random_cage(rng, inner[(round / 2) % 4], 3 + int(rng() % 4));
    if (round % 5 == 0) in.pieces[0].weight = 2;  // the heavier side stays
    const dis::Result a = dis::disassemble(in), b = dis::disassemble(in, general);
    expect_same(a, b, "round " + std::to_string(round));
    ++(a.status == dis::Status::kApart ? apart : locked);
    searched += a.positions >= 20;  // (a search that went some way)
  }
  std::printf("apart %d, locked %d, searched %d\n", apart, locked, searched);
  EXPECT_GT(apart, cubex::test::scaled(300, 60));
  EXPECT_GT(locked, cubex::test::scaled(200, 40));
  EXPECT_GT(searched, cubex::test::scaled(60, 12));
  // More than 8 pieces: the general search only.
  int big = 0;
  for (int round = 0; round < cubex::test::scaled(40, 10); ++round) {
    const dis::Input in = round % 2 ? random_dissection(rng, {4, 3, 3}, 9 + int(rng() % 4))
                                    : random_cage(rng, {4, 4, 2}, 9 + int(rng() % 3));
    const dis::Result r = dis::disassemble(in);
    ASSERT_NE(r.status, dis::Status::kCut);
    if (r.status == dis::Status::kApart) {
      ++big;
      EXPECT_EQ(dis::replay(in, *r.tree), "") << "round " << round;
    }
  }
  std::printf("more than 8 pieces: %d of %d come apart\n", big, cubex::test::scaled(40, 10));
  EXPECT_GT(big, cubex::test::scaled(10, 2));
}

}  // namespace
