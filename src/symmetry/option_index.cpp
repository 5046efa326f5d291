// The option index of option_index.hpp.
#include "option_index.hpp"

#include <algorithm>
#include <limits>

namespace cubex::detail {

namespace {

constexpr OptionId kEmpty = std::numeric_limits<OptionId>::max();

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

}  // namespace

OptionIndex::OptionIndex(const Problem& problem, const Watch& watch) : problem_(problem) {
  PhasePoll poll(watch, "indexing the options", problem.num_options());
  const std::size_t n = problem.num_options();
  std::size_t cap = 16;
  while (cap < 2 * n) cap *= 2;
  mask_ = cap - 1;
  slot_.assign(cap, kEmpty);
  hash_.resize(n);
  stamp_.assign(problem.num_items(), 0);
  colour_.assign(problem.num_items(), 0);
  random_.resize(problem.num_items());
  for (ItemId i = 0; i < random_.size(); ++i) random_[i] = mix(i + 0x9e3779b97f4a7c15ULL);
  std::vector<ItemId> identity(problem.num_items());
  for (ItemId i = 0; i < identity.size(); ++i) identity[i] = i;
  for (OptionId o = 0; o < n; ++o) {
    poll.step();
    const auto items = problem.option(o);
    const auto colours = problem.option_colours(o);
    std::uint64_t h = items.size();
    for (std::size_t k = 0; k < items.size(); ++k) h += entry_hash(items[k], colours[k]);
    hash_[o] = h;
    std::uint64_t s = mix(h) & mask_;
    bool dup = false;
    for (; slot_[s] != kEmpty; s = (s + 1) & mask_) {
      if (hash_[slot_[s]] == h && same(slot_[s], items, colours, identity)) {
        if (!duplicate_) duplicate_ = std::pair{slot_[s], o};
        dup = true;
        break;
      }
    }
    if (!dup) slot_[s] = o;
  }
}

bool OptionIndex::same(OptionId c, std::span<const ItemId> items, std::span<const ColourId> colours,
                       std::span<const ItemId> perm) {
  const auto citems = problem_.option(c);
  if (citems.size() != items.size()) return false;
  if (++now_ == 0) {  // the stamps wrapped: start afresh
    std::fill(stamp_.begin(), stamp_.end(), 0);
    now_ = 1;
  }
  const auto ccolours = problem_.option_colours(c);
  for (std::size_t k = 0; k < citems.size(); ++k) {
    stamp_[citems[k]] = now_;
    colour_[citems[k]] = ccolours[k];
  }
  // The items of an option are distinct, and so are their images: equal sizes and every image
  // entry among the candidate's make the two sets equal.
  for (std::size_t k = 0; k < items.size(); ++k) {
    const ItemId i = perm[items[k]];
    if (stamp_[i] != now_ || colour_[i] != colours[k]) return false;
  }
  return true;
}

std::optional<OptionId> OptionIndex::image(OptionId o, std::span<const ItemId> perm) {
  const auto items = problem_.option(o);
  const auto colours = problem_.option_colours(o);
  std::uint64_t h = items.size();
  for (std::size_t k = 0; k < items.size(); ++k) h += entry_hash(perm[items[k]], colours[k]);
  for (std::uint64_t s = mix(h) & mask_; slot_[s] != kEmpty; s = (s + 1) & mask_) {
    if (hash_[slot_[s]] == h && same(slot_[s], items, colours, perm)) return slot_[s];
  }
  return std::nullopt;
}

}  // namespace cubex::detail
