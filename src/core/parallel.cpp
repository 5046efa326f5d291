// ParallelSolver: the tree cut into units (parallel.hpp), searched by a pool of threads.
#include "cubex/core/parallel.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <queue>
#include <stdexcept>
#include <thread>

#include "engine.hpp"

namespace cubex {

ParallelSolver::ParallelSolver(const Problem& problem, Backend backend, std::size_t target_units)
    : problem_(problem),
      backend_(detail::resolve_backend(problem, backend)),
      target_(std::max<std::size_t>(target_units, 1)),
      engine_(detail::make_engine(problem, backend_)) {
  // Split the heaviest node until there are enough; ties go to the leftmost path.
  struct Cmp {
    bool operator()(const WorkUnit& a, const WorkUnit& b) const {
      if (a.weight != b.weight) return a.weight < b.weight;
      return a.path > b.path;
    }
  };
  std::priority_queue<WorkUnit, std::vector<WorkUnit>, Cmp> open;
  open.push(WorkUnit{{}, 1.0});
  while (!open.empty() && open.size() + units_.size() < target_) {
    WorkUnit u = open.top();
    open.pop();
    const std::uint64_t children = engine_->run(u.path, 1, nullptr, {}).frontier;
    if (children == 0) {  // a solution or a dead end: a unit as it is
      units_.push_back(std::move(u));
      continue;
    }
    for (std::uint32_t c = 0; c < children; ++c) {
      WorkUnit v{u.path, u.weight / static_cast<double>(children)};
      v.path.push_back(c);
      open.push(std::move(v));
    }
  }
  while (!open.empty()) {
    units_.push_back(open.top());
    open.pop();
  }
  std::sort(units_.begin(), units_.end(),
            [](const WorkUnit& a, const WorkUnit& b) { return a.path < b.path; });
}

ParallelSolver::~ParallelSolver() = default;

UnitResult ParallelSolver::solve_unit(std::size_t unit, UnitVisitor* visit) {
  auto wrap = [&](std::span<const OptionId> s) { return (*visit)(unit, s); };
  SolutionVisitor sv(wrap);
  const detail::RunResult r = engine_->run(units_.at(unit).path, 0, visit ? &sv : nullptr, {});
  return UnitResult{r.st.solutions, r.st.nodes};
}

ParallelStats ParallelSolver::solve(UnitVisitor* visit, const ParallelOptions& opt) {
  if (opt.shard_count == 0 || opt.shard_index >= opt.shard_count) {
    throw std::invalid_argument("shard index must be below the shard count");
  }
  if (opt.skip && opt.skip->size() != units_.size()) {
    throw std::invalid_argument("the list of done units does not match the units");
  }
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };

  // This run's units: the shard's, less those done before.
  std::vector<std::size_t> todo;
  double weight_total = 0, weight_done = 0, weight_before = 0;
  std::size_t in_shard = 0;
  for (std::size_t u = 0; u < units_.size(); ++u) {
    if (u % opt.shard_count != opt.shard_index) continue;
    ++in_shard;
    weight_total += units_[u].weight;
    if (opt.skip && (*opt.skip)[u]) {
      weight_before += units_[u].weight;
    } else {
      todo.push_back(u);
    }
  }
  weight_done = weight_before;

  unsigned threads = opt.threads ? opt.threads : std::thread::hardware_concurrency();
  threads = std::max(1u, std::min<unsigned>(threads, std::max<std::size_t>(todo.size(), 1)));

  ParallelStats out;
  out.threads = threads;
  out.units_total = in_shard;
  SolveStats& st = out.st;
  st.solutions = opt.skipped_counts.solutions;
  st.nodes = opt.skipped_counts.nodes;
  std::uint64_t done_solutions = st.solutions, done_nodes = st.nodes;
  std::size_t units_done_total = in_shard - todo.size();

  std::mutex mu;  // guards the visitor, on_unit_done and everything below
  std::condition_variable cv;
  std::atomic<bool> halt{false};  // the workers' stop flag
  std::atomic<std::size_t> next{0};
  std::uint64_t visited = 0;  // solutions handed to the visitor (for the limit)
  unsigned running = threads;
  bool cut_short = false;

  auto worker = [&](detail::Engine& engine) {
    SolveLimits lim;
    lim.stop = &halt;
    const bool need_visitor = visit || opt.limits.max_solutions;
    for (;;) {
      if (opt.limits.stop && opt.limits.stop->load(std::memory_order_relaxed)) halt = true;
      if (halt.load(std::memory_order_relaxed)) break;
      const std::size_t j = next.fetch_add(1);
      if (j >= todo.size()) break;
      const std::size_t u = todo[j];
      auto on_solution = [&](std::span<const OptionId> s) {
        std::lock_guard<std::mutex> lock(mu);
        if (halt.load(std::memory_order_relaxed)) return false;
        ++visited;
        if (visit && !(*visit)(u, s)) {
          halt = true;
          return false;
        }
        if (opt.limits.max_solutions && visited >= opt.limits.max_solutions) halt = true;
        return true;
      };
      SolutionVisitor sv(on_solution);
      const detail::RunResult r = engine.run(units_[u].path, 0, need_visitor ? &sv : nullptr, lim);
      // Complete means every solution of the unit was counted (and visited): its counts are
      // final. A unit cut short (stop flag, limit, visitor) is not done.
      std::lock_guard<std::mutex> lock(mu);
      st.solutions += r.st.solutions;
      st.nodes += r.st.nodes;
      st.updates += r.st.updates;
      if (r.st.complete) {
        done_solutions += r.st.solutions;
        done_nodes += r.st.nodes;
        weight_done += units_[u].weight;
        ++units_done_total;
        ++out.units_done;
        if (opt.on_unit_done && !opt.on_unit_done(u, UnitResult{r.st.solutions, r.st.nodes})) {
          halt = true;
          cut_short = true;
        }
      } else {
        cut_short = true;
      }
    }
    std::lock_guard<std::mutex> lock(mu);
    --running;
    cv.notify_all();
  };

  std::vector<std::unique_ptr<detail::Engine>> engines;
  std::vector<std::thread> pool;
  for (unsigned k = 0; k < threads; ++k) engines.push_back(engine_->clone());
  for (unsigned k = 0; k < threads; ++k) pool.emplace_back(worker, std::ref(*engines[k]));

  auto progress = [&] {  // under mu
    Progress p;
    p.solutions = done_solutions;
    p.nodes = done_nodes;
    p.units_done = units_done_total;
    p.units_total = in_shard;
    const double span = weight_total - weight_before;
    p.fraction = weight_total > 0 ? std::min(1.0, weight_done / weight_total) : 1.0;
    if (units_done_total == in_shard) p.fraction = 1.0;
    p.elapsed = elapsed();
    const double run_fraction = span > 0 ? (weight_done - weight_before) / span : 1.0;
    if (run_fraction >= 1.0 || units_done_total == in_shard) {
      p.eta = 0;
    } else if (run_fraction > 0) {
      p.eta = p.elapsed * (1 - run_fraction) / run_fraction;
    }
    return p;
  };
  {
    std::unique_lock<std::mutex> lock(mu);
    const auto tick = std::chrono::duration<double>(opt.tick_seconds > 0 ? opt.tick_seconds : 0.25);
    auto next_tick = std::chrono::steady_clock::now() + tick;
    while (running > 0) {
      cv.wait_for(lock, std::chrono::milliseconds(20));
      if (opt.limits.stop && opt.limits.stop->load()) halt = true;
      if (opt.on_tick && std::chrono::steady_clock::now() >= next_tick) {
        opt.on_tick(progress());
        next_tick = std::chrono::steady_clock::now() + tick;
      }
    }
    if (opt.on_tick) opt.on_tick(progress());
  }
  for (auto& t : pool) t.join();

  st.complete = !cut_short && units_done_total == in_shard;
  // With a visitor the engines count a solution the visitor refused; report what was visited.
  if (visit || opt.limits.max_solutions) st.solutions = opt.skipped_counts.solutions + visited;
  st.seconds = elapsed();
  return out;
}

}  // namespace cubex
