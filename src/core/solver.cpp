// Solver: the public face of the dancing-links search in dlx.hpp.
#include "cubex/core/solver.hpp"

#include "dlx.hpp"

namespace cubex {

Solver::Solver(const Problem& problem) : problem_(problem) {}
Solver::~Solver() = default;

SolveStats Solver::solve(SolutionVisitor visit, const SolveLimits& limits) {
  dlx_ =
      std::make_unique<detail::Dlx>(problem_);  // fresh links: a stopped search leaves them mid-way
  return dlx_->multiplicities ? dlx_->run<true>(&visit, limits) : dlx_->run<false>(&visit, limits);
}

SolveStats Solver::count(const SolveLimits& limits) {
  dlx_ = std::make_unique<detail::Dlx>(problem_);
  return dlx_->multiplicities ? dlx_->run<true>(nullptr, limits)
                              : dlx_->run<false>(nullptr, limits);
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
