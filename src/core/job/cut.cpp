// SearchJob::cut (job.hpp): the static cut of the tree into consecutive spans, the same on every
// machine (shards), with a bounded number of engine calls.
#include <algorithm>
#include <atomic>
#include <vector>

#include "../engine.hpp"
#include "cubex/core/job.hpp"

namespace cubex {

namespace {

struct CutPiece {
  TreePath start;  // its first node
  TreePath node;   // the children lo..hi-1 of this node (and the nodes from start down to it)
  std::uint32_t lo = 0, hi = 0;
  double weight = 0;
};

constexpr std::size_t kMaxCutDepth = 64;

// The static cut (cut() and shards): pieces of the tree, heaviest split first.
std::vector<CutPiece> cut_pieces(detail::Engine& engine, std::uint32_t units,
                                 const std::atomic<bool>* stop) {
  // Children of `node`: the nodes one level below it, met by a depth-limited run of its subtree.
  auto children = [&](const TreePath& node) -> std::uint32_t {
    TreeSpan s;
    s.begin = node;
    if (!node.empty()) {
      s.end = node;
      ++s.end.back();
      s.to_end = false;
    }
    const auto r = engine.run(s, static_cast<std::uint32_t>(node.size() + 1), nullptr, {}, nullptr);
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(r.frontier, UINT32_MAX - 1));
  };
  auto heavier = [](const CutPiece& a, const CutPiece& b) {
    if (a.weight != b.weight) return a.weight < b.weight;
    return a.start > b.start;
  };
  std::vector<CutPiece> open, done;
  open.push_back(CutPiece{{}, {}, 0, children({}), 1.0});
  std::size_t expansions = 0;
  while (!open.empty() && open.size() + done.size() < units &&
         expansions < std::size_t{4} * units + 64 && !(stop && stop->load())) {
    std::pop_heap(open.begin(), open.end(), heavier);
    CutPiece p = std::move(open.back());
    open.pop_back();
    if (p.hi - p.lo >= 2) {  // halve the range of children
      const std::uint32_t mid = p.lo + (p.hi - p.lo) / 2;
      const double w = p.weight / (p.hi - p.lo);
      CutPiece right{p.node, p.node, mid, p.hi, w * (p.hi - mid)};
      right.start.push_back(mid);
      p.hi = mid;
      p.weight = w * (mid - p.lo);
      open.push_back(std::move(p));
      std::push_heap(open.begin(), open.end(), heavier);
      open.push_back(std::move(right));
      std::push_heap(open.begin(), open.end(), heavier);
      continue;
    }
    if (p.hi == p.lo || p.node.size() + 1 >= kMaxCutDepth) {
      done.push_back(std::move(p));
      continue;
    }
    TreePath child = p.node;  // one child: the piece becomes its children
    child.push_back(p.lo);
    ++expansions;
    const std::uint32_t k = children(child);
    if (k == 0) {
      done.push_back(std::move(p));
      continue;
    }
    p.node = std::move(child);
    p.lo = 0;
    p.hi = k;
    open.push_back(std::move(p));
    std::push_heap(open.begin(), open.end(), heavier);
  }
  for (auto& p : open) done.push_back(std::move(p));
  std::sort(done.begin(), done.end(),
            [](const CutPiece& a, const CutPiece& b) { return a.start < b.start; });
  return done;
}

}  // namespace

std::vector<TreePath> SearchJob::cut(std::uint32_t units, const std::atomic<bool>* stop) const {
  std::vector<TreePath> starts;
  for (auto& s : cut_spans(units, stop)) starts.push_back(std::move(s.begin));
  return starts;
}

std::vector<TreeSpan> SearchJob::cut_spans(std::uint32_t units,
                                           const std::atomic<bool>* stop) const {
  auto engine = proto_->clone();
  const auto pieces = cut_pieces(*engine, std::max<std::uint32_t>(units, 1), stop);
  std::vector<TreeSpan> spans;
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    TreeSpan s;
    s.begin = pieces[k].start;
    if (k + 1 < pieces.size()) {
      s.end = pieces[k + 1].start;
      s.to_end = false;
    }
    s.weight = pieces[k].weight;
    spans.push_back(std::move(s));
  }
  return spans;
}

}  // namespace cubex
