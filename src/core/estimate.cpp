// FrontierEstimate (estimate.hpp): the frontier of the work left, and samples of its subtrees.
#include "estimate.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <ctime>

#include "cubex/core/tree_estimate.hpp"
#include "engine.hpp"

namespace cubex::detail {

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double estimate_budget(double elapsed) {
  const double t = std::max(0.0, elapsed);
  return kEstimateShare * t + std::min(kEstimateStart, kEstimateRamp * t);
}

double estimate_listing_budget(double elapsed) {
  // (A report early in a short run would otherwise wait for a listing as long as the run. With
  // the run so far alone, pent6x10's first report, at 0.018 s in `cubex_schedule --eta`, listed
  // depth 3 instead of 4, whose subtrees are five times larger: a fifth as many samples for the
  // same time, an error 1.8 times as large.)
  return std::max(std::min(kEstimateListing, std::max(0.001, 2 * elapsed)),
                  kEstimateShare * elapsed);
}

namespace {

// CPU seconds of the calling thread (the budget is a share of the CPU, whatever the load).
double cpu_now() {
  return thread_cpu_seconds();
}
double since(double t0) {
  return cpu_now() - t0;
}

// The frontier nodes a depth-limited run meets. With a cap: past `cap` of them, or past the CPU
// time `deadline` (looked at every 1024 nodes), the run is told to stop (kYield) and `cut` is set.
struct Collect {
  std::vector<std::uint32_t>* paths;
  std::size_t count = 0;
  std::size_t cap = SIZE_MAX;
  double deadline = 0;  // (0: none)
  std::atomic<std::uint32_t>* signal = nullptr;
  bool cut = false;
  static void add(void* ctx, TreePath&& p) {
    auto& c = *static_cast<Collect*>(ctx);
    c.paths->insert(c.paths->end(), p.begin(), p.end());
    ++c.count;
    if (c.signal && (c.count >= c.cap || (c.count % 1024 == 0 && c.deadline > 0 &&
                                          cpu_now() > c.deadline))) {
      c.cut = true;
      c.signal->store(Control::kYield, std::memory_order_relaxed);
    }
  }
};

TreeSpan subtree(const TreePath& p) {
  TreeSpan s;
  s.begin = p;
  s.end = p;
  ++s.end.back();
  s.to_end = false;
  return s;
}

// Lists the children of node p (the root when p is empty) into `out`, p.size() + 1 entries each,
// and returns their number; `nodes` gets the nodes the engine entered to list them.
std::size_t children_of(Engine& engine, const TreePath& p, std::vector<std::uint32_t>& out,
                        const SolveLimits& lim, double& nodes) {
  std::atomic<std::uint32_t> signal{0};
  out.clear();
  Collect c{&out};
  Control ctl;
  ctl.signal = &signal;
  ctl.ctx = &c;
  ctl.frontier = &Collect::add;
  TreeSpan span;  // the whole tree from the root, else p's subtree
  if (!p.empty()) span = subtree(p);
  nodes = static_cast<double>(
      engine.run(span, static_cast<std::uint32_t>(p.size() + 1), nullptr, lim, &ctl).st.nodes);
  return c.count;
}

// Goes down to one of the `count` children listed in `kids`, drawn by xorshift64 from `rng`.
void go_down(TreePath& p, const std::vector<std::uint32_t>& kids, std::size_t count,
             std::uint64_t& rng) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  const std::size_t pick = static_cast<std::size_t>(rng % count);
  const std::size_t depth = p.size() + 1;
  p.assign(kids.begin() + static_cast<std::ptrdiff_t>(pick * depth),
           kids.begin() + static_cast<std::ptrdiff_t>((pick + 1) * depth));
}

}  // namespace

FrontierEstimate::FrontierEstimate(std::uint64_t seed) {
  if (seed == 0) return;  // the default order
  // (splitmix64's finaliser spreads a small seed over all the bits; xorshift needs a state > 0.)
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  rng_ ^= z;
  if (rng_ == 0) rng_ = 1;
  phase_ = static_cast<double>(z >> 11) * 0x1.0p-53;
}

TreePath FrontierEstimate::node(std::size_t k) const {
  const auto at = paths_.begin() + static_cast<std::ptrdiff_t>(k * depth_);
  return TreePath(at, at + depth_);
}

bool FrontierEstimate::build(Engine& engine, const std::vector<TreeSpan>& left, std::size_t target,
                             double seconds, std::uint32_t from_depth) {
  const double t0 = cpu_now();
  std::size_t deepest_begin = 0;
  for (const TreeSpan& s : left) deepest_begin = std::max(deepest_begin, s.begin.size());
  std::atomic<std::uint32_t> signal{0};
  bool listed = false;
  // The levels above the frontier are kept where they go on from the one listed (a first
  // listing, or the next level of this one).
  if (from_depth <= 1 || from_depth != depth_ + 1) levels_.clear();
  SolveLimits lim;
  lim.stop = stop_;
  lim.max_nodes = kListNodes;
  const double deadline = t0 + std::max(4 * seconds, 0.01);
  for (std::uint32_t d = std::max<std::uint32_t>(1, from_depth); d <= 64; ++d) {
    // The next level costs about the last one times the growth of the frontier.
    if ((listed || built()) && since(t0) + level_seconds_ * growth_ > seconds) break;
    const double level_start = cpu_now();
    std::vector<std::uint32_t> paths;
    Collect c{&paths};
    c.cap = kListFrontier;
    c.deadline = deadline;
    c.signal = &signal;
    Control ctl;
    ctl.signal = &signal;
    ctl.ctx = &c;
    ctl.frontier = &Collect::add;
    double shallow = 0;
    bool whole = true;  // (every span listed to its end)
    for (const TreeSpan& s : left) {
      // A span that starts below depth d: its start's ancestor at depth d is partly searched
      // already; list from that ancestor's next sibling on (a run would search the ancestor's
      // rest to the end).
      TreeSpan t = s;
      if (t.begin.size() > d) {
        t.begin.resize(d);
        ++t.begin.back();
        if (!t.to_end && !(t.begin < t.end)) continue;
      }
      lim.max_nodes = kListNodes - std::min<std::uint64_t>(kListNodes - 1, shallow);
      const RunResult r = engine.run(t, d, nullptr, lim, &ctl);
      shallow += static_cast<double>(r.st.nodes);
      if (!r.st.complete) {
        whole = false;
        break;
      }
    }
    // A level cut short (too large, too slow, or stopped) is not kept: the one above stays.
    if (!whole || c.cut || stopped()) break;
    if (c.count == 0 && d >= deepest_begin) break;  // the tree ends above depth d
    level_seconds_ = since(level_start);
    growth_ =
        count_ ? std::max(1.0, static_cast<double>(c.count) / static_cast<double>(count_)) : 4.0;
    if (depth_ + 1 == d && levels_.size() + 1 == depth_) {
      levels_.push_back(std::move(paths_));  // level depth_, now above the frontier
    } else {
      levels_.clear();
    }
    depth_ = d;
    count_ = c.count;
    paths_ = std::move(paths);
    shallow_ = shallow;
    index_.clear();  // samples of another frontier
    sizes_.clear();
    sizes_sum_ = 0;
    even_ = toward_ = 0;
    listed = true;
    if (count_ >= target) break;
  }
  if (count_ == 0) depth_ = 0;
  build_seconds_ += since(t0);
  return listed && built();
}

// The nodes above the frontier before `p` in the tree's order (the root, then those listed at
// each level that are < p; an ancestor of p is < p).
double FrontierEstimate::shallow_before(const TreePath& p) const {
  double n = p.empty() ? 0 : 1;
  for (std::size_t j = 0; j < levels_.size(); ++j) {
    const std::vector<std::uint32_t>& level = levels_[j];
    const std::size_t width = j + 1, count = level.size() / width;
    std::size_t lo = 0, hi = count;
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      const auto at = level.begin() + static_cast<std::ptrdiff_t>(mid * width);
      if (std::lexicographical_compare(at, at + static_cast<std::ptrdiff_t>(width), p.begin(),
                                       p.end())) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    n += static_cast<double>(lo);
  }
  return n;
}

double FrontierEstimate::shallow_left(const std::vector<TreeSpan>& left) const {
  if (levels_.size() + 1 != depth_ || count_ == 0) {
    // (Levels not kept: their share of the frontier's.)
    return shallow_ * static_cast<double>(count_left(left)) / static_cast<double>(count_);
  }
  double all = 1;
  for (std::size_t j = 0; j < levels_.size(); ++j)
    all += static_cast<double>(levels_[j].size() / (j + 1));
  double n = 0;
  for (const TreeSpan& s : left)
    n += std::max(0.0, (s.to_end ? all : shallow_before(s.end)) - shallow_before(s.begin));
  return n;
}

// The first frontier node not before `p` (frontier nodes before it are < p).
std::size_t FrontierEstimate::first_not_before(const TreePath& p) const {
  std::size_t lo = 0, hi = count_;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    const auto at = paths_.begin() + static_cast<std::ptrdiff_t>(mid * depth_);
    if (std::lexicographical_compare(at, at + depth_, p.begin(), p.end())) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

std::vector<std::pair<std::size_t, std::size_t>> FrontierEstimate::ranges(
    const std::vector<TreeSpan>& left) const {
  std::vector<std::pair<std::size_t, std::size_t>> r;
  auto lower = [this](const TreePath& p) { return first_not_before(p); };
  for (const TreeSpan& s : left) {
    const std::size_t lo = lower(s.begin), hi = s.to_end ? count_ : lower(s.end);
    if (lo < hi) r.emplace_back(lo, hi);
  }
  return r;
}

std::size_t FrontierEstimate::count_left(const std::vector<TreeSpan>& left) const {
  std::size_t n = 0;
  for (const auto& [lo, hi] : ranges(left)) n += hi - lo;
  return n;
}

std::size_t FrontierEstimate::sample(Engine& engine, const std::vector<TreeSpan>& left,
                                     double seconds, bool toward_end) {
  if (!built()) return 0;
  const double t0 = cpu_now();
  const auto rs = ranges(left);
  std::size_t total = 0;
  for (const auto& [lo, hi] : rs) total += hi - lo;
  // Toward the end: a point x of density 1 / (count_ + tail() - x) / z over the ranges left (z:
  // the integral over them, the logs of the distances at the ends of each range) names node
  // floor(x).
  const double n0 = static_cast<double>(count_) + tail();
  auto mass = [&](std::size_t lo, std::size_t hi) {
    return std::log((n0 - static_cast<double>(lo)) / (n0 - static_cast<double>(hi)));
  };
  double z = 0;
  for (const auto& [lo, hi] : rs) z += mass(lo, hi);
  std::size_t n = 0;
  while (total > 0) {
    // Golden-ratio steps spread each batch evenly over the nodes left, or over their density
    // toward the end (neighbours in the tree have subtrees of similar size, so this is a
    // stratified sample).
    phase_ += 0.6180339887498949;
    phase_ -= std::floor(phase_);
    std::size_t k = rs.front().first;
    double even = 0, toward = 0;  // (what the draw adds to even_, toward_)
    if (!toward_end) {
      std::size_t r =
          std::min(total - 1, static_cast<std::size_t>(phase_ * static_cast<double>(total)));
      for (const auto& [lo, hi] : rs) {
        if (r < hi - lo) {
          k = lo + r;
          break;
        }
        r -= hi - lo;
      }
      even = 1 / static_cast<double>(total);
    } else {
      double m = phase_ * z;
      for (const auto& [lo, hi] : rs) {
        const double here = mass(lo, hi);
        if (m < here || &hi == &rs.back().second) {
          // The node whose distance to the end is (n0 - lo) / e^m.
          const double at = n0 - (n0 - static_cast<double>(lo)) * std::exp(-std::min(m, here));
          k = std::clamp(static_cast<std::size_t>(std::max(0.0, at)), lo, hi - 1);
          break;
        }
        m -= here;
      }
      toward = 1 / z;
    }
    const double size = probe(engine, node(k));
    if (size < 0) break;  // stopped: the draw is dropped
    even_ += even;
    toward_ += toward;
    index_.push_back(k);
    sizes_.push_back(size);
    sizes_sum_ += size;
    ++n;
    if (since(t0) >= seconds || stopped()) break;
  }
  seconds_ += since(t0);
  return n;
}

// The nodes of the subtree of `p`: searched to the end where the samples so far are small; where
// they are large (on average more than kProbeNodes), a path of random children first goes down
// until the part left to search is about that size, and each node on the way stands for all its
// siblings (Knuth's estimate: 1 + children x the estimate of one child's subtree). Such a sample
// costs a fraction of a whole subtree, so many more are drawn in the same time: bedlam_sym's
// pruned tree has 4,900 frontier nodes of about 600 nodes each, of which about 130 were searched
// in a whole run. A part searched whole that passes kSampleNodes nodes goes on the same way, down
// a random path (a wide tree: an 8x8 square of monominoes and dominoes in any numbers has frontier
// subtrees of billions of nodes). The choices come from the seed (JobOptions::estimate_seed):
// runs with one seed draw the same paths.
double FrontierEstimate::probe(Engine& engine, TreePath p) {
  constexpr double kProbeNodes = 64;
  const double mean = sizes_.size() >= 8 ? sizes_sum_ / static_cast<double>(sizes_.size()) : 0;
  double weight = 1, nodes = 0;
  SolveLimits lim;
  lim.stop = stop_;
  // About the size of the sampled subtree, as far as known: the samples' mean, or more where a
  // part searched whole passed kSampleNodes nodes (that part's nodes times its weight).
  double size = mean;
  for (;;) {
    if (!(size > kProbeNodes * weight) || p.size() >= 64) {
      // The part left searched whole, up to kSampleNodes nodes.
      lim.max_nodes = kSampleNodes;
      const RunResult r = engine.run(subtree(p), 0, nullptr, lim, nullptr);
      if (stopped()) return -1;
      if (r.st.complete || p.size() >= 64)
        return nodes + weight * static_cast<double>(r.st.nodes);
      // Too large: on down the random path, until the part left is about kProbeNodes again
      // (each such try multiplies the known size by kSampleNodes / kProbeNodes).
      size = std::max(size, static_cast<double>(kSampleNodes) * weight);
    }
    std::vector<std::uint32_t> children;
    lim.max_nodes = 0;
    double listed = 0;
    const std::size_t count = children_of(engine, p, children, lim, listed);
    nodes += weight * listed;
    if (stopped()) return -1;
    if (count == 0) return nodes;  // a dead end: the node alone
    go_down(p, children, count, rng_);
    weight *= static_cast<double>(count);
  }
}

double random_paths_nodes(Engine& engine, std::size_t paths, std::uint64_t seed,
                          const std::atomic<bool>* stop) {
  std::uint64_t rng = seed * 0x9E3779B97F4A7C15ull | 1;
  SolveLimits lim;
  lim.stop = stop;
  std::vector<std::uint32_t> children;
  double sum = 0;
  for (std::size_t k = 0; k < paths; ++k) {
    TreePath p;
    double weight = 1, nodes = 1;  // the root
    for (;;) {
      double listed = 0;
      const std::size_t count = children_of(engine, p, children, lim, listed);
      if (stop && stop->load(std::memory_order_relaxed)) return -1;
      if (count == 0) break;  // a leaf: a solution or a dead end
      weight *= static_cast<double>(count);
      nodes += weight;
      go_down(p, children, count, rng);
    }
    sum += nodes;
  }
  return paths ? sum / static_cast<double>(paths) : 0;
}

FrontierEstimate::Result FrontierEstimate::nodes(const std::vector<TreeSpan>& left,
                                                 double done_mean) const {
  Result res;
  if (!built()) return res;
  const auto rs = ranges(left);
  for (const auto& [lo, hi] : rs) res.left += hi - lo;
  // The frontier nodes that spans of `left` start inside (searched in part), and their samples'
  // sizes (-1: none). Their samples still count in the mean: they stand for their neighbours
  // until the search leaves them (dropping a heavy one as the search enters it would take its
  // weight off while its work is still ahead).
  std::vector<std::pair<std::size_t, double>> inside;
  for (const TreeSpan& s : left) {
    if (s.begin.size() <= depth_) continue;
    const std::size_t k = first_not_before(s.begin);
    const auto at = paths_.begin() + static_cast<std::ptrdiff_t>((k > 0 ? k - 1 : 0) * depth_);
    if (k > 0 && std::equal(at, at + depth_, s.begin.begin())) {
      inside.emplace_back(k - 1, -1.0);
    } else {
      inside.emplace_back(count_, -1.0);  // (not listed: none)
    }
  }
  double sum = 0, weights = 0;
  for (std::size_t j = 0; j < index_.size(); ++j) {
    const std::size_t k = index_[j];
    auto it = std::upper_bound(rs.begin(), rs.end(), k,
                               [](std::size_t v, const auto& r) { return v < r.first; });
    if (it == rs.begin() || k >= std::prev(it)->second) {
      bool in = false;
      for (auto& [node, size] : inside) {
        if (node == k) {
          size = sizes_[j];
          in = true;
        }
      }
      if (!in) continue;
    }
    const double w = weight(k);
    sum += w * sizes_[j];
    weights += w;
    ++res.samples;
  }
  const double n = static_cast<double>(res.samples);
  double mean;
  if (n == 0) {
    if (done_mean < 0 && res.left > 0) return res;  // not known yet
    mean = std::max(0.0, done_mean);
  } else {
    // The samples' mean alone: the mean of the subtrees finished (of other nodes) was taken as
    // far as it agreed with the samples within their standard error, but on a tree whose late
    // subtrees are heavier (bedlam_sym) it held the estimate 10-20% low for much of the run,
    // the samples' standard error being wide enough to pass it (docs/design/progress-estimate.md).
    // Each sample weighs one over the density of the draws at its place (all one where they were
    // even).
    mean = sum / weights;
  }
  // Spans that start inside a frontier node's subtree: about half of it is left (of its sample's
  // size where it was sampled).
  double partial = 0;
  for (const auto& [node, size] : inside) partial += 0.5 * (size >= 0 ? size : mean);
  const double f = static_cast<double>(res.left);
  res.nodes = f * mean + shallow_left(left) + partial;
  return res;
}

}  // namespace cubex::detail

namespace cubex {

double estimate_search_nodes(const Problem& problem, Backend backend, std::size_t paths,
                             std::uint64_t seed, const std::atomic<bool>* stop) {
  const std::unique_ptr<detail::Engine> engine = detail::make_engine(problem, backend);
  engine->for_short_runs();
  return detail::random_paths_nodes(*engine, paths, seed, stop);
}

}  // namespace cubex
