// Counts the solutions of an exact-cover matrix in Knuth's format with the engine alone.
#include <cstdio>
#include <exception>

#include <cubex/core/solver.hpp>
#include <cubex/knuth/format.hpp>

int main(int argc, char** argv) {
  if (argc != 2) return std::fprintf(stderr, "usage: count_xc FILE.dlx\n"), 2;
  try {
    cubex::KnuthFile file = cubex::read_knuth_file(argv[1]);
    cubex::Solver solver(file.problem);
    cubex::SolveStats stats = solver.count();
    std::printf("%s: %llu solutions\n", argv[1], static_cast<unsigned long long>(stats.solutions));
  } catch (const std::exception& e) {
    return std::fprintf(stderr, "count_xc: %s\n", e.what()), 2;
  }
}
