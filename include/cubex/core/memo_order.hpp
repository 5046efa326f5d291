// cubex/core/memo_order.hpp - orders of the items for the memo to branch on, from the matrix
// alone (MemoLimits::order in cubex/core/memo.hpp).
//
// The memo branches on the first item of its order that is not yet covered, so its sub-problems
// are the ways of covering the items just behind that place: the fewer items still uncovered
// that share an option with an item before it (the frontier), the fewer sub-problems. A front
// end that knows the geometry gives its own order (a box swept along its longest axis); these
// work on any matrix, a Knuth file's included.
#pragma once

#include <atomic>
#include <span>
#include <vector>

#include "cubex/core/problem.hpp"

namespace cubex {

// The items of range 1..1 in breadth-first order (Cuthill and McKee's): two items are neighbours
// when an option covers both; each part of that graph starts from an item at the far end of it
// (found by two breadth-first passes, after George and Liu) and lists the neighbours of each
// item by their number of options, fewest first. On a square of cells tiled by dominoes the
// frontier then runs along the diagonals, short near the corners: the 16x16 square takes 362,598
// sub-problems instead of the 1,333,781 of a sweep along its rows. Items that lie in more than
// four times as many options as the median one (a piece item, where a piece has far more
// placements than a cell has ways to be covered) join the order last, and the other primary items
// (other ranges) follow, in the problem's order. Returns an empty order when `stop` is set before
// it ends.
std::vector<ItemId> breadth_first_order(const Problem& problem,
                                        const std::atomic<bool>* stop = nullptr);

// How many sub-problems `order` is likely to cost the memo, up to a factor common to all orders
// of one problem: the sum over the places in the order of 2^f, where f is the number of items
// after the place that share an option with an item at or before it. Only items of range 1..1
// that are in the order count. Lower is better; a sweep along rows of L-trominoes beats the
// breadth-first order, whose frontiers are the square's growing L-shaped rings (the cost says
// so).
double frontier_cost(const Problem& problem, std::span<const ItemId> order);

}  // namespace cubex
