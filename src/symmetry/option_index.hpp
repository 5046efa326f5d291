// Finding an option by its (item, colour) entries, for the symmetry group's action on options:
// a hash table over the options, with a hash that does not depend on the order of the entries,
// so that the image of an option under a permutation of the items is looked up without sorting.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "cubex/core/problem.hpp"
#include "cubex/stop.hpp"

namespace cubex::detail {

class OptionIndex {
 public:
  // Indexes every option of `problem` (kept by reference). `duplicate()` then names the first two
  // options that cover the same items with the same colours, if any (the later one is not
  // indexed). Polls `watch` every few thousand options (throws Interrupted, cubex/stop.hpp).
  explicit OptionIndex(const Problem& problem, const Watch& watch = {});
  OptionIndex(Problem&&, const Watch& = {}) = delete;

  // The option whose entries are those of option o with every item i replaced by perm[i] (the
  // colours kept), or nullopt when there is none. perm must have an entry for every item.
  std::optional<OptionId> image(OptionId o, std::span<const ItemId> perm);

  const std::optional<std::pair<OptionId, OptionId>>& duplicate() const { return duplicate_; }

 private:
  std::uint64_t entry_hash(ItemId item, ColourId colour) const {
    return random_[item] * (2 * std::uint64_t{colour} + 1);
  }
  // Whether option c has exactly the entries (perm[items[k]], colours[k]).
  bool same(OptionId c, std::span<const ItemId> items, std::span<const ColourId> colours,
            std::span<const ItemId> perm);

  const Problem& problem_;
  std::vector<std::uint64_t> random_;  // [item]: a fixed pseudo-random value
  std::vector<std::uint64_t> hash_;    // [option]: the sum of its entries' hashes and its size
  std::vector<OptionId> slot_;         // open addressing; kEmpty where free
  std::uint64_t mask_ = 0;
  std::optional<std::pair<OptionId, OptionId>> duplicate_;
  // Scratch for same(): stamp_[item] == stamp when the candidate covers the item, with colour_.
  std::vector<std::uint32_t> stamp_;
  std::vector<ColourId> colour_;
  std::uint32_t now_ = 0;
};

}  // namespace cubex::detail
