// Counts the solutions of any puzzle file cubex reads, in all and up to symmetry.
#include <cstdio>
#include <exception>

#include <cubex/core/solver.hpp>
#include <cubex/puzzle.hpp>
#include <cubex/symmetry.hpp>

int main(int argc, char** argv) {
  if (argc != 2) return std::fprintf(stderr, "usage: count_puzzle FILE\n"), 2;
  try {
    auto puzzle = cubex::load_puzzle(argv[1]);
    cubex::SymmetricSolver solver(puzzle->problem(),
                                  puzzle->symmetry_group(cubex::SymmetryMode::kAuto).group);
    cubex::SymmetryStats s = solver.count();
    std::printf("%s: %llu solutions, %llu up to %zu symmetries\n", puzzle->name().c_str(),
                static_cast<unsigned long long>(s.total), static_cast<unsigned long long>(s.unique),
                s.group_order);
  } catch (const std::exception& e) {
    return std::fprintf(stderr, "count_puzzle: %s\n", e.what()), 2;
  }
}
