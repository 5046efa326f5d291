// Solver: the public face of the two search backends (engine.hpp).
#include "cubex/core/solver.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

#include "dlx.hpp"
#include "engine.hpp"

namespace cubex {

namespace detail {

std::unique_ptr<Engine> make_bitset_engine(const Problem& p, const EngineTuning& tuning);
bool bitset_supported(const Problem& p);
std::unique_ptr<Engine> make_bitset_mult_engine(const Problem& p);  // bitset_mult.cpp
bool bitset_mult_supported(const Problem& p);

namespace {

// Multiplicities have their own bitset engine (Algorithm M on bitsets).
bool bitset_applies(const Problem& p) {
  return p.has_multiplicities() ? bitset_mult_supported(p) : bitset_supported(p);
}

// Dancing links. Every run leaves the matrix as it found it (Dlx::unwind), so one copy serves
// all runs; a clone copies the pristine matrix.
class DlxEngine final : public Engine {
 public:
  explicit DlxEngine(std::shared_ptr<const Dlx> pristine)
      : pristine_(std::move(pristine)), work_(*pristine_) {}
  std::unique_ptr<Engine> clone() const override { return std::make_unique<DlxEngine>(pristine_); }
  RunResult run(const TreeSpan& span, std::uint32_t depth, SolutionVisitor* visit,
                const SolveLimits& limits, const Control* control) override {
    return work_.multiplicities ? work_.run_at<true>(span, depth, visit, limits, control)
                                : work_.run_at<false>(span, depth, visit, limits, control);
  }

 private:
  std::shared_ptr<const Dlx> pristine_;
  Dlx work_;
};

}  // namespace

std::vector<OptionId> search_order(const Problem& p) {
  std::vector<OptionId> order(p.num_options());
  for (OptionId o = 0; o < order.size(); ++o) order[o] = o;
  if (p.has_multiplicities()) return order;
  // Items as the engines number them: primaries first, in the problem's order.
  std::vector<std::uint32_t> internal(p.num_items());
  std::uint32_t n = 0;
  for (ItemId i = 0; i < p.num_items(); ++i)
    if (p.item(i).primary) internal[i] = n++;
  for (ItemId i = 0; i < p.num_items(); ++i)
    if (!p.item(i).primary) internal[i] = n++;
  // Sort keys flattened: option o's sorted internal items at key[start[o] .. start[o + 1]).
  // The first two keys of each, + 1 (0 where there is none), decide most comparisons.
  std::vector<std::uint32_t> start(p.num_options() + 1, 0), key;
  std::vector<std::uint64_t> head(p.num_options());
  key.reserve(p.num_entries());
  std::vector<std::uint64_t> mark((p.num_items() + 63) / 64, 0);
  for (OptionId o = 0; o < p.num_options(); ++o) {
    const std::size_t b = key.size();
    const auto items = p.option(o);
    if (items.size() * 4 >= mark.size()) {  // (an option's items are distinct: marks sort them)
      for (ItemId i : items) mark[internal[i] / 64] |= std::uint64_t{1} << (internal[i] % 64);
      for (std::size_t w = 0; w < mark.size(); ++w)
        for (; mark[w]; mark[w] &= mark[w] - 1)
          key.push_back(static_cast<std::uint32_t>(64 * w + std::countr_zero(mark[w])));
    } else {
      for (ItemId i : items) key.push_back(internal[i]);
      const auto first = key.begin() + static_cast<std::ptrdiff_t>(b);
      if (!std::is_sorted(first, key.end())) std::sort(first, key.end());
    }
    start[o + 1] = static_cast<std::uint32_t>(key.size());
    const std::size_t len = key.size() - b;
    head[o] = (len > 0 ? std::uint64_t{key[b]} + 1 : 0) << 32 | (len > 1 ? key[b + 1] + 1u : 0u);
  }
  const auto less = [&](OptionId a, OptionId b) {
    if (head[a] != head[b]) return head[a] < head[b];
    return std::lexicographical_compare(key.begin() + start[a], key.begin() + start[a + 1],
                                        key.begin() + start[b], key.begin() + start[b + 1]);
  };
  // Options that come in order (a box of monocubes: a million of them) are left as they are:
  // the stable sort would keep them so, in seconds on a loaded machine, with no stop polled.
  if (!std::is_sorted(order.begin(), order.end(), less))
    std::stable_sort(order.begin(), order.end(), less);
  return order;
}

const char* search_order_name(const Problem& p) {
  return p.has_multiplicities() ? "input" : "sorted";
}

Backend resolve_backend(const Problem& p, Backend backend) {
  const std::uint64_t nodes =
      std::uint64_t{p.num_items()} + p.num_entries() + p.num_options() + 2;  // as Dlx lays out
  if (nodes > kMaxMatrixNodes) {
    throw ProblemError("the exact-cover matrix has " + std::to_string(nodes) +
                       " nodes; the solver takes at most " + std::to_string(kMaxMatrixNodes) +
                       " (its node indices are 32-bit)");
  }
  if (backend == Backend::kAuto) return bitset_applies(p) ? Backend::kBitset : Backend::kLinks;
  if (backend == Backend::kBitset && !bitset_applies(p)) {
    throw std::invalid_argument(
        "the bitset backend needs a problem with options, tables that fit in 64 MiB (with "
        "multiplicities: under 28,672 options), and a CPU with POPCNT, AVX2 and BMI2");
  }
  return backend;
}

// Change a version when its tree changes.
std::string choice_rule(const Problem& p, Backend backend, const EngineTuning& tuning) {
  if (resolve_backend(p, backend) == Backend::kBitset) {
    if (const std::uint32_t t = bitset_prune_limit(p, tuning))
      return "mrv-first+prune" + std::to_string(t) + "/1";
  }
  return "mrv-first/1";
}

std::unique_ptr<Engine> make_engine(const Problem& p, Backend backend,
                                    const EngineTuning& tuning) {
  if (resolve_backend(p, backend) == Backend::kBitset)
    return p.has_multiplicities() ? make_bitset_mult_engine(p) : make_bitset_engine(p, tuning);
  return std::make_unique<DlxEngine>(std::make_shared<const Dlx>(p));
}

}  // namespace detail

Solver::Solver(const Problem& problem, Backend backend)
    : problem_(problem), backend_(detail::resolve_backend(problem, backend)) {}
Solver::Solver(const Problem& problem, Backend backend, const EngineTuning& tuning)
    : problem_(problem), backend_(detail::resolve_backend(problem, backend)), tuning_(tuning) {}
Solver::~Solver() = default;

detail::Engine& Solver::engine() {
  if (!engine_) engine_ = detail::make_engine(problem_, backend_, tuning_);
  return *engine_;
}

SolveStats Solver::solve(SolutionVisitor visit, const SolveLimits& limits) {
  return engine().run(TreeSpan{}, 0, &visit, limits, nullptr).st;
}

SolveStats Solver::count(const SolveLimits& limits) {
  return engine().run(TreeSpan{}, 0, nullptr, limits, nullptr).st;
}

std::optional<std::vector<OptionId>> Solver::first() {
  std::optional<std::vector<OptionId>> result;
  solve([&](std::span<const OptionId> s) {
    result.emplace(s.begin(), s.end());
    return false;
  });
  return result;
}

}  // namespace cubex
