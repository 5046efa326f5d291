// Before the search: congruent pieces merged, and the reasons a puzzle cannot have a solution.
#include <algorithm>
#include <bit>
#include <map>
#include <set>

#include "cubex/error.hpp"
#include "cubex/voxel/model.hpp"

namespace cubex::voxel {
namespace {

std::string quoted(const std::string& s) {
  return "'" + s + "'";
}

// "A", "A and B", "A, B and C".
// "a, b and c"; a long list names its first ten and how many more ("a, b, ... j and 99,990
// more"), so that a note stays one short line.
std::string name_list(const std::vector<std::string>& names) {
  constexpr std::size_t kShown = 10;
  std::string out;
  const std::size_t shown = names.size() > kShown + 1 ? kShown : names.size();
  for (std::size_t k = 0; k < shown; ++k) {
    if (k) out += k + 1 == names.size() ? " and " : ", ";
    out += names[k].size() > 40 ? excerpt(names[k], 40) : names[k];
  }
  if (shown < names.size()) {
    std::string more = std::to_string(names.size() - shown);
    for (int at = int(more.size()) - 3; at > 0; at -= 3) more.insert(std::size_t(at), ",");
    out += " and " + more + " more";
  }
  return out;
}

bool even(const Vec3& c) {
  return ((c.x + c.y + c.z) & 1) == 0;
}

}  // namespace

std::vector<std::string> merge_congruent(Model& model) {
  // Two pieces are congruent when their allowed orientations are the same cell sets.
  // With colour rules (BurrTools), the colours must match as well.
  std::vector<std::set<std::pair<std::vector<Vec3>, std::vector<std::uint8_t>>>> shapes(
      model.pieces.size());
  for (std::size_t p = 0; p < model.pieces.size(); ++p) {
    const std::span<const std::uint8_t> colours =
        model.coloured ? std::span<const std::uint8_t>(model.pieces[p].colours)
                       : std::span<const std::uint8_t>();
    for (const Orientation& o :
         orientations(model.pieces[p].cells, colours, allowed_symmetries(model, p)))
      shapes[p].insert({o.cells, o.colours});
  }
  std::vector<std::string> notes;
  std::vector<bool> gone(model.pieces.size(), false);
  for (std::size_t p = 0; p < model.pieces.size(); ++p) {
    if (gone[p] || model.pieces[p].distinct) continue;
    std::vector<std::string> names{model.pieces[p].name};
    Piece& keep = model.pieces[p];
    for (std::size_t q = p + 1; q < model.pieces.size(); ++q) {
      if (gone[q] || model.pieces[q].distinct || shapes[q] != shapes[p]) continue;
      const Piece& other = model.pieces[q];
      model.merged.push_back({other, keep.name, keep.count});
      const int fewest = keep.fewest() + other.fewest();
      keep.count += other.count;
      keep.min_count = fewest == keep.count ? -1 : fewest;
      names.push_back(other.name);
      gone[q] = true;
    }
    if (names.size() > 1)
      notes.push_back("pieces " + name_list(names) + " are congruent: counted as identical");
  }
  std::size_t w = 0;
  for (std::size_t p = 0; p < model.pieces.size(); ++p) {
    if (gone[p]) continue;
    if (w != p) model.pieces[w] = std::move(model.pieces[p]);
    ++w;
  }
  model.pieces.resize(w);
  return notes;
}

std::string infeasible(const Model& model, const std::vector<bool>& fits) {
  const std::size_t cells = model.cells.size(), must = model.num_must_fill();
  std::size_t least = 0, most = 0, copies = 0;
  for (const Piece& p : model.pieces) {
    least += p.cells.size() * std::size_t(p.fewest());
    most += p.cells.size() * std::size_t(p.count);
    copies += std::size_t(p.count);
  }
  const bool ranged = std::any_of(model.pieces.begin(), model.pieces.end(),
                                  [](const Piece& p) { return p.fewest() != p.count; });
  if (least > cells) {
    return "the cells do not add up: the pieces " +
           std::string(ranged ? "that must be used have " : "have ") + std::to_string(least) +
           " cells, more than the container's " + std::to_string(cells);
  }
  if (most < must) {
    return "the cells do not add up: the pieces have at most " + std::to_string(most) +
           " cells, fewer than the container's " + std::to_string(must) + " cells to fill";
  }
  for (std::size_t p = 0; p < model.pieces.size() && p < fits.size(); ++p) {
    if (!fits[p] && model.pieces[p].fewest() > 0)
      return "piece " + quoted(model.pieces[p].name) + " fits nowhere in the container";
  }

  // Which (cells covered, black minus white) pairs some choice of copies and orientations
  // reaches, black being the cells with x + y + z even. A turn keeps a piece's colours; a move
  // by an odd step swaps them, so each copy adds (size, +d) or (size, -d). Skipped when large.
  const std::size_t N = std::min(most, cells);
  const long span = 2 * long(N) + 1;
  if (double(N + 1) * double(span) * double(copies + 1) > 3e7) return "";
  // Row t: a bit set of the reachable differences, bit i + N for difference i (a copy adds
  // +d or -d to the difference: the row shifted up and down by |d|).
  const std::size_t W = (std::size_t(span) + 63) / 64;
  const std::uint64_t top = std::size_t(span) % 64 ? (std::uint64_t(1) << (span % 64)) - 1 : ~0ull;
  std::vector<std::uint64_t> reach((N + 1) * W, 0), next;
  auto row = [&](std::vector<std::uint64_t>& r, std::size_t t) { return &r[t * W]; };
  reach[N / 64] |= std::uint64_t(1) << (N % 64);  // (t 0, difference 0)
  std::size_t highest = 0;                        // the highest row with a bit
  std::vector<long> diff;
  for (const Piece& p : model.pieces) {
    long d = 0;
    for (const Vec3& c : p.cells) d += even(c) ? 1 : -1;
    diff.push_back(d);
    const std::size_t s = p.cells.size();
    const std::size_t a = std::size_t(std::labs(d)), wa = a / 64, ba = a % 64;
    for (int k = 0; k < p.count; ++k) {
      const bool optional = k >= p.fewest();
      if (optional) {
        next = reach;
      } else {
        next.assign(reach.size(), 0);
      }
      std::size_t high = optional ? highest : 0;
      for (std::size_t t = 0; t <= highest && t + s <= N; ++t) {
        const std::uint64_t* from = row(reach, t);
        std::uint64_t* to = row(next, t + s);
        bool any = false;
        for (std::size_t w = 0; w < W; ++w) {
          if (!from[w]) continue;
          any = true;
          // Up by a: bits of word w go to words w + wa and w + wa + 1.
          if (w + wa < W) to[w + wa] |= from[w] << ba;
          if (ba && w + wa + 1 < W) to[w + wa + 1] |= from[w] >> (64 - ba);
          // Down by a: to words w - wa and w - wa - 1.
          if (w >= wa) to[w - wa] |= from[w] >> ba;
          if (ba && w >= wa + 1) to[w - wa - 1] |= from[w] << (64 - ba);
        }
        if (any) {
          to[W - 1] &= top;  // (differences above N)
          high = std::max(high, t + s);
        }
      }
      reach.swap(next);
      highest = high;
    }
  }
  std::size_t black = 0, white = 0, black_opt = 0, white_opt = 0;
  for (std::size_t k = 0; k < cells; ++k) {
    const bool b = even(model.cells[k]);
    if (model.optional[k]) {
      (b ? black_opt : white_opt) += 1;
    } else {
      (b ? black : white) += 1;
    }
  }
  bool sizes = false, colours = false;
  for (std::size_t t = must; t <= N; ++t) {
    const std::uint64_t* r = row(reach, t);
    for (std::size_t w = 0; w < W; ++w) {
      for (std::uint64_t m = r[w]; m; m &= m - 1) {
        const long i = long(64 * w + std::size_t(std::countr_zero(m))) - long(N);
        sizes = true;
        if ((long(t) + i) % 2) continue;
        const long b = (long(t) + i) / 2, wh = (long(t) - i) / 2;
        colours = colours || (b >= long(black) && b <= long(black + black_opt) &&
                              wh >= long(white) && wh <= long(white + white_opt));
      }
    }
  }
  if (!sizes) {
    return "the cells do not add up: no choice of the pieces' counts covers " +
           (must == cells ? "exactly " + std::to_string(cells)
                          : "between " + std::to_string(must) + " and " + std::to_string(cells)) +
           " cells";
  }
  if (!colours) {
    std::string per;
    for (std::size_t p = 0; p < model.pieces.size(); ++p) {
      if (!per.empty()) per += ", ";
      per +=
          model.pieces[p].name + " " + (diff[p] ? "+/-" : "") + std::to_string(std::labs(diff[p]));
    }
    return "checkerboard: coloured like a 3-D checkerboard (black where x + y + z is even), the "
           "cells to fill are " +
           std::to_string(black) + " black and " + std::to_string(white) + " white" +
           (black_opt + white_opt ? " (and " + std::to_string(black_opt) + " black and " +
                                        std::to_string(white_opt) + " white optional ones)"
                                  : "") +
           ", but each piece covers black minus white cells of " + per +
           ", and no choice of pieces and positions matches";
  }
  return "";
}

std::vector<std::string> warnings(const Model& model) {
  std::vector<std::string> out;
  for (const Piece& p : model.pieces) {
    // Parts of the piece under face adjacency.
    std::set<Vec3> left(p.cells.begin(), p.cells.end());
    int parts = 0;
    while (!left.empty()) {
      ++parts;
      std::vector<Vec3> stack{*left.begin()};
      left.erase(left.begin());
      while (!stack.empty()) {
        const Vec3 c = stack.back();
        stack.pop_back();
        for (const Vec3& d : {Vec3{1, 0, 0}, Vec3{-1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, -1, 0},
                              Vec3{0, 0, 1}, Vec3{0, 0, -1}}) {
          auto it = left.find(c + d);
          if (it == left.end()) continue;
          stack.push_back(*it);
          left.erase(it);
        }
      }
    }
    if (parts > 1) {
      out.push_back("piece " + quoted(p.name) + " is not connected: its cells fall into " +
                    std::to_string(parts) + " parts (solved as given)");
    }
  }
  return out;
}

}  // namespace cubex::voxel
