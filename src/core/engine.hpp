// The interface both search backends implement (dlx.hpp: dancing links, the general path and the
// reference; bitset.hpp: live-option bitsets, the fast path for plain exact cover).
//
// Tree addresses. Both backends walk the same search tree: at every node the primary item with
// the fewest remaining options is chosen (ties: the first item), and its children are tried in a
// fixed order. A node is named by its path from the root, the list of child indices taken at
// each level (the "choice prefix"). `run(prefix, ...)` replays the prefix and searches only the
// subtree below it; `depth` > 0 stops `depth` levels below the prefix and counts the nodes met
// there (`frontier`) instead of searching them. Work units, checkpoints and shards are built on
// these two calls (parallel.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "cubex/core/problem.hpp"
#include "cubex/core/solver.hpp"

namespace cubex::detail {

struct RunResult {
  SolveStats st;
  std::uint64_t frontier = 0;  // nodes met at the depth limit (not searched)
};

class Engine {
 public:
  virtual ~Engine() = default;
  // Searches the subtree at `prefix` (empty: the whole tree). An invalid prefix (an index past
  // the last child, or through a leaf) names an empty subtree: no solutions, no nodes.
  virtual RunResult run(std::span<const std::uint32_t> prefix, std::uint32_t depth,
                        SolutionVisitor* visit, const SolveLimits& limits) = 0;
  // An independent engine for another thread (shares read-only tables where it can).
  virtual std::unique_ptr<Engine> clone() const = 0;
};

// How the bitset backend finds the item with the fewest options: kScan counts them with
// popcounts at every node, kCounts keeps the counts per level and decrements them for every
// option that dies; kAuto picks by the average column length. A test hook: engines built while
// it is set use it.
enum class BitsetMrv { kAuto, kScan, kCounts };
extern BitsetMrv g_bitset_mrv;

// kAuto picks the bitset backend when the problem has no multiplicities, the CPU has POPCNT, AVX2
// and BMI2, and its tables stay small (items x options / 8 bytes); otherwise dancing links.
std::unique_ptr<Engine> make_engine(const Problem& p, Backend backend);
Backend resolve_backend(const Problem& p, Backend backend);

}  // namespace cubex::detail
