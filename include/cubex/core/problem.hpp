// cubex/core/problem.hpp - an exact-cover problem: named items and the options that cover them.
//
// This is the whole vocabulary of the core. A puzzle front end builds a Problem, the Solver
// (solver.hpp) enumerates its solutions, and the front end maps the chosen options back to
// placements. Nothing here knows about cubes.
//
//   * A primary item must be covered between `lo` and `hi` times (exactly once by default).
//     A range other than 1..1 is a multiplicity, as in Knuth's Algorithm M (dlx3): twenty-five
//     identical pieces become one item with lo = hi = 25, not twenty-five labelled copies.
//   * A secondary item may be covered at most once, unless it is coloured (Knuth's XCC, as in
//     his dlx2 and Algorithm C): an option may give each of its secondary items a colour
//     (ColourId >= 1; 0 = no colour). Options that give a secondary item the same colour may
//     all cover it; an option that covers it without a colour, or with another colour, excludes
//     them. Primary items take no colour.
//   * An option is a set of distinct items with at least one primary item among them.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "cubex/error.hpp"

namespace cubex {

using ItemId = std::uint32_t;
using OptionId = std::uint32_t;
using ColourId = std::uint32_t;  // 0: no colour; named colours are 1, 2, ...

struct Item {
  std::string name;
  bool primary = true;
  std::uint32_t lo = 1;  // primary only: fewest times the item must be covered
  std::uint32_t hi = 1;  // primary only: most times it may be covered (secondary: always 1)
};

// Thrown for a malformed problem (duplicate item, bad option...). Readers of files catch it and
// add the file and line; programs that build problems directly get the plain message.
class ProblemError : public Error {
 public:
  explicit ProblemError(const std::string& what) : Error(Kind::input, what) {}
};

// The largest multiplicity (upper bound `hi`) an item may have: the solver counts coverings in
// 32-bit signed integers.
constexpr std::uint32_t kMaxMultiplicity = 0x7fffffff;

// Threads: a Problem is built by one thread; once built, its const members may be called from
// any number of threads at once (solvers only read it).
class Problem {
 public:
  // Adds an item; names must be unique and non-empty. Throws ProblemError otherwise, when
  // lo > hi, or when hi > kMaxMultiplicity. Items may be added in any order; the solver sorts
  // primaries first.
  ItemId add_primary(std::string name, std::uint32_t lo = 1, std::uint32_t hi = 1);
  ItemId add_secondary(std::string name);

  // Adds an option covering `items` (distinct, at least one primary). Returns its index, which
  // is the order of insertion starting at 0.
  OptionId add_option(std::span<const ItemId> items);
  OptionId add_option(std::initializer_list<ItemId> items) {
    return add_option(std::span<const ItemId>(items.begin(), items.size()));
  }
  // The same with a colour per entry (colours[k] for items[k]; 0 = none). Throws ProblemError
  // when the sizes differ, a colour is given to a primary item or a colour id was never made by
  // add_colour.
  OptionId add_option(std::span<const ItemId> items, std::span<const ColourId> colours);

  // Keeps the options o with keep[o] (keep has an entry per option), in their order, and drops
  // the others: option k is then the k-th kept one. The items stay as they are.
  void keep_options(const std::vector<bool>& keep);

  // The id of the colour called `name` (non-empty), made on first use: 1, 2, ... in order.
  ColourId add_colour(std::string_view name);
  std::size_t num_colours() const { return colour_names_.size(); }
  // The name of colour c >= 1.
  const std::string& colour_name(ColourId c) const { return colour_names_[c - 1]; }
  // The colour of each entry of option o, parallel to option(o) (0 = none).
  std::span<const ColourId> option_colours(OptionId o) const {
    const std::size_t size = option_start_[o + 1] - option_start_[o];
    if (!has_colours_) return std::span<const ColourId>(zeros_).first(size);
    return std::span<const ColourId>(option_colours_).subspan(option_start_[o], size);
  }
  // True when some option gives some item a colour.
  bool has_colours() const { return has_colours_; }

  std::size_t num_items() const { return items_.size(); }
  std::size_t num_options() const { return option_start_.size() - 1; }
  std::size_t num_entries() const { return option_items_.size(); }
  std::size_t num_primary() const { return num_primary_; }

  const Item& item(ItemId i) const { return items_[i]; }
  std::span<const Item> items() const { return items_; }
  std::span<const ItemId> option(OptionId o) const {
    return std::span<const ItemId>(option_items_)
        .subspan(option_start_[o], option_start_[o + 1] - option_start_[o]);
  }
  std::optional<ItemId> find(std::string_view name) const;
  // Makes room for `n` items in all, so that adding them never rehashes the names at once (a
  // million cells: one rehash would hold up a stop between two polls, cubex/stop.hpp).
  void reserve_items(std::size_t n) {
    items_.reserve(n);
    by_name_.reserve(n);
  }

  // Makes room for `options` more options with `entries` more entries in all, so that adding
  // them copies nothing.
  void reserve_options(std::size_t options, std::size_t entries) {
    option_start_.reserve(option_start_.size() + options);
    option_items_.reserve(option_items_.size() + entries);
    if (has_colours_) option_colours_.reserve(option_colours_.size() + entries);
  }

  // True when every primary item is 1..1 (plain exact cover, Algorithm X).
  bool has_multiplicities() const { return has_multiplicities_; }

 private:
  ItemId add_item(Item item);

  std::vector<Item> items_;
  std::unordered_map<std::string, ItemId> by_name_;
  std::vector<std::uint32_t> option_start_{0};
  std::vector<ItemId> option_items_;
  // Parallel to option_items_ while some option has a colour (has_colours_); empty while none
  // has (all 0).
  std::vector<ColourId> option_colours_;
  std::vector<ColourId> zeros_;  // as many 0s as the longest option has items
  std::vector<std::string> colour_names_;
  std::unordered_map<std::string, ColourId> colour_by_name_;
  std::vector<std::uint32_t> seen_;  // scratch for duplicate detection in add_option
  std::uint32_t stamp_ = 0;
  std::size_t num_primary_ = 0;
  bool has_multiplicities_ = false;
  bool has_colours_ = false;
};

// Checks that `chosen` is a solution of `problem` by counting, independently of the solver:
// every primary item covered within its range, every secondary item at most once or only by
// options that give it the same colour. Returns an
// empty string when it is, otherwise what is wrong.
std::string check_solution(const Problem& problem, std::span<const OptionId> chosen);

}  // namespace cubex
