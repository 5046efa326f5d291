// cubex/core/tree_estimate.hpp - how large a search tree is, before searching it.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "cubex/core/problem.hpp"
#include "cubex/core/solver.hpp"

namespace cubex {

// Knuth's estimate of the nodes of the tree that a Solver with `backend` walks on `problem`
// (TAOCP 7.2.2, "estimating the running time"): down a random path from the root, a node with
// c1 children, then one of those with c2, and so on, stands for 1 + c1 + c1 c2 + ... nodes. The
// mean over `paths` such paths is unbiased but spreads widely: it is usually low on a tree whose
// size hides in rare heavy branches, and 16 paths give the order of magnitude (the 8x8 domino
// tilings' tree: about 10^12 nodes; pent6x10.dlx: within a factor of 3 of its 231,576). The
// paths follow `seed`: the same seed gives the same estimate. Returns -1 when `stop` cut it
// short. Throws as Solver's constructor.
double estimate_search_nodes(const Problem& problem, Backend backend, std::size_t paths,
                             std::uint64_t seed = 1, const std::atomic<bool>* stop = nullptr);

}  // namespace cubex
