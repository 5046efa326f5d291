// Where the bitset backend applies and where it prunes: run on any CPU (no target pragma), before
// an engine is built.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "../engine.hpp"
#include "kernels.hpp"

namespace cubex::detail {

std::uint32_t bitset_prune_limit(const Problem& p, const EngineTuning& tuning) {
  if (tuning.prune == BitsetPrune::kOff || tuning.mrv != BitsetMrv::kAuto ||
      p.has_multiplicities() || p.num_options() == 0)
    return 0;
  // Pruning shrinks the trees 4x (Soma) to 130x (y25) and, since its counts are kept in byte
  // lanes and its tests run in registers, costs less than it saves except on small matrices,
  // whose plain nodes are cheapest (Soma's 688 options: 0.034 s pruned against 0.029 s plain);
  // see docs/design/pruning.md. So: on where columns are short (on average at most 64 options per
  // primary item, as in y25: the rule that also picks the counts mode), or from 1024 options.
  std::size_t entries = 0;
  const std::size_t m = p.num_options(), words = (m + 63) / 64;
  std::vector<std::uint32_t> len(p.num_items(), 0);
  for (OptionId o = 0; o < m; ++o)
    for (ItemId i : p.option(o)) entries += p.item(i).primary, ++len[i];
  const bool short_columns = p.num_primary() > 0 && entries <= std::size_t{64} * p.num_primary();
  const bool on = short_columns || m >= kPruneMinOptions || tuning.prune == BitsetPrune::kOn;
  // The counts must fit the byte lanes (Tables): at most 256 short items and 64 long ones.
  std::size_t nshort = 0, nlong = 0;
  for (ItemId i = 0; i < p.num_items(); ++i)
    if (p.item(i).primary) (len[i] <= tuning.short_max ? nshort : nlong) += 1;
  const bool lanes = nshort <= 256 && nlong <= 64;
  return on && lanes && m < 0xFFFF && m * words * 8 <= kConflictBytes ? kPruneBelow : 0;
}
bool bitset_supported(const Problem& p) {
  if (p.has_multiplicities() || p.num_options() == 0) return false;
  if (!__builtin_cpu_supports("popcnt") || !__builtin_cpu_supports("avx2") ||
      !__builtin_cpu_supports("bmi2")) {
    return false;
  }
  // Memory of the dense columns (and kill rows of coloured entries: at most one per entry) and
  // of the per-level stacks: about (items + primary items) x option words.
  const std::size_t words = (p.num_options() + 63) / 64;
  std::size_t coloured = 0;
  if (p.has_colours()) {
    for (OptionId o = 0; o < p.num_options(); ++o)
      for (ColourId c : p.option_colours(o)) coloured += c != 0;
  }
  return (p.num_items() + p.num_primary() + coloured + 2) * words * 8 <= (std::size_t{64} << 20);
}

}  // namespace cubex::detail
