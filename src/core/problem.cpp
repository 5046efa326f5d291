// Problem: building and checking an exact-cover matrix.
#include "cubex/core/problem.hpp"

#include <limits>

namespace cubex {

ItemId Problem::add_item(Item item) {
  if (item.name.empty()) throw ProblemError("item name is empty");
  if (item.hi > kMaxMultiplicity) {
    throw ProblemError("item '" + item.name + "': upper bound " + std::to_string(item.hi) +
                       " is more than the solver takes (" + std::to_string(kMaxMultiplicity) + ")");
  }
  if (item.lo > item.hi) {
    throw ProblemError("item '" + item.name + "': lower bound " + std::to_string(item.lo) +
                       " exceeds upper bound " + std::to_string(item.hi));
  }
  if (items_.size() >= std::numeric_limits<ItemId>::max() / 2) throw ProblemError("too many items");
  auto [it, inserted] = by_name_.emplace(item.name, static_cast<ItemId>(items_.size()));
  if (!inserted) throw ProblemError("duplicate item name '" + item.name + "'");
  if (item.primary) {
    ++num_primary_;
    if (item.lo != 1 || item.hi != 1) has_multiplicities_ = true;
  }
  items_.push_back(std::move(item));
  seen_.push_back(0);
  return it->second;
}

ItemId Problem::add_primary(std::string name, std::uint32_t lo, std::uint32_t hi) {
  return add_item(Item{std::move(name), true, lo, hi});
}

ItemId Problem::add_secondary(std::string name) {
  return add_item(Item{std::move(name), false, 0, 1});
}

OptionId Problem::add_option(std::span<const ItemId> items) {
  return add_option(items, {});
}

ColourId Problem::add_colour(std::string_view name) {
  if (name.empty()) throw ProblemError("colour name is empty");
  auto [it, inserted] =
      colour_by_name_.emplace(std::string(name), static_cast<ColourId>(colour_names_.size() + 1));
  if (inserted) colour_names_.emplace_back(name);
  return it->second;
}

OptionId Problem::add_option(std::span<const ItemId> items, std::span<const ColourId> colours) {
  if (!colours.empty() && colours.size() != items.size()) {
    throw ProblemError("option has " + std::to_string(items.size()) + " items but " +
                       std::to_string(colours.size()) + " colours");
  }
  if (items.empty()) throw ProblemError("option is empty");
  if (++stamp_ == 0) {  // wrapped: clear the stamps
    std::fill(seen_.begin(), seen_.end(), 0);
    stamp_ = 1;
  }
  bool has_primary = false;
  for (ItemId i : items) {
    if (i >= items_.size())
      throw ProblemError("option names item " + std::to_string(i) + ", which does not exist");
    if (seen_[i] == stamp_)
      throw ProblemError("item '" + items_[i].name + "' appears twice in one option");
    seen_[i] = stamp_;
    has_primary |= items_[i].primary;
  }
  bool coloured = false;
  for (std::size_t k = 0; k < colours.size(); ++k) {
    if (colours[k] == 0) continue;
    if (colours[k] > colour_names_.size())
      throw ProblemError("colour " + std::to_string(colours[k]) + " does not exist");
    if (items_[items[k]].primary)
      throw ProblemError("primary item '" + items_[items[k]].name + "' cannot take a colour");
    coloured = true;
  }
  if (!has_primary) throw ProblemError("option has no primary item");
  if (option_items_.size() + items.size() >= std::numeric_limits<std::uint32_t>::max() / 2) {
    throw ProblemError("too many option entries");
  }
  option_items_.insert(option_items_.end(), items.begin(), items.end());
  if (items.size() > zeros_.size()) zeros_.resize(items.size(), 0);
  // The colours are kept from the first option that gives one (all 0 before it).
  if (coloured && !has_colours_) option_colours_.assign(option_items_.size() - items.size(), 0);
  if (coloured || has_colours_) {
    if (colours.empty()) {
      option_colours_.resize(option_items_.size(), 0);
    } else {
      option_colours_.insert(option_colours_.end(), colours.begin(), colours.end());
    }
  }
  has_colours_ |= coloured;
  option_start_.push_back(static_cast<std::uint32_t>(option_items_.size()));
  return static_cast<OptionId>(num_options() - 1);
}

void Problem::keep_options(const std::vector<bool>& keep) {
  if (keep.size() != num_options()) {
    throw ProblemError("keep_options: " + std::to_string(keep.size()) + " flags for " +
                       std::to_string(num_options()) + " options");
  }
  std::size_t kept = 0, out = 0;
  bool coloured = false;
  std::uint32_t begin = 0;  // (option o's start, read before kept ones overwrite it)
  for (OptionId o = 0; o < keep.size(); ++o) {
    const std::uint32_t end = option_start_[o + 1];
    if (keep[o]) {
      const bool with_colours = has_colours_;
      for (std::uint32_t q = begin; q < end; ++q, ++out) {
        option_items_[out] = option_items_[q];
        if (with_colours) {
          option_colours_[out] = option_colours_[q];
          coloured |= option_colours_[q] != 0;
        }
      }
      option_start_[++kept] = static_cast<std::uint32_t>(out);
    }
    begin = end;
  }
  option_start_.resize(kept + 1);
  option_items_.resize(out);
  if (coloured) {
    option_colours_.resize(out);
  } else {
    option_colours_.clear();
  }
  has_colours_ = coloured;
}

std::optional<ItemId> Problem::find(std::string_view name) const {
  auto it = by_name_.find(std::string(name));
  if (it == by_name_.end()) return std::nullopt;
  return it->second;
}

std::string check_solution(const Problem& problem, std::span<const OptionId> chosen) {
  std::vector<std::uint64_t> covered(problem.num_items(), 0);
  std::vector<bool> used(problem.num_options(), false);
  // Per secondary item: the colour of its first covering entry, and whether all entries so far
  // agreed on one non-zero colour.
  std::vector<ColourId> colour(problem.num_items(), 0);
  std::vector<bool> shared(problem.num_items(), true);
  for (OptionId o : chosen) {
    if (o >= problem.num_options()) return "option " + std::to_string(o) + " does not exist";
    if (used[o]) return "option " + std::to_string(o) + " is chosen twice";
    used[o] = true;
    auto items = problem.option(o);
    auto colours = problem.option_colours(o);
    for (std::size_t k = 0; k < items.size(); ++k) {
      const ItemId i = items[k];
      if (covered[i]++ == 0) {
        colour[i] = colours[k];
        shared[i] = colours[k] != 0;
      } else if (colours[k] != colour[i]) {
        shared[i] = false;
      }
    }
  }
  for (ItemId i = 0; i < problem.num_items(); ++i) {
    const Item& it = problem.item(i);
    if (it.primary && (covered[i] < it.lo || covered[i] > it.hi)) {
      return "primary item '" + it.name + "' is covered " + std::to_string(covered[i]) +
             " times, expected " +
             (it.lo == it.hi ? std::to_string(it.lo)
                             : std::to_string(it.lo) + ".." + std::to_string(it.hi));
    }
    if (!it.primary && covered[i] > 1 && !shared[i]) {
      return "secondary item '" + it.name + "' is covered " + std::to_string(covered[i]) +
             " times" + (problem.has_colours() ? ", not all with the same colour" : "");
    }
  }
  return {};
}

}  // namespace cubex
