// Counts the solutions of any puzzle file cubex reads, in all and up to symmetry, on two
// threads, with nothing but the front door (cubex/cubex.hpp):
//   count_puzzle puzzles/voxel/soma.json
#include <cubex/cubex.hpp>
#include <iostream>

int main(int argc, char** argv) {
  if (argc != 2) return std::cerr << "usage: count_puzzle FILE\n", 2;
  try {
    auto puzzle = cubex::load(argv[1]);
    cubex::Options opt;
    opt.threads = 2;
    opt.symmetry = cubex::Symmetry::automatic;
    const cubex::Counts c = cubex::count(*puzzle, opt);
    std::cout << puzzle->name() << ": " << c.total << " solutions, " << c.unique << " up to "
              << c.group_order << " symmetries\n";
  } catch (const cubex::Error& e) {
    return std::cerr << "count_puzzle: " << e.what() << "\n", e.kind() == cubex::Error::Kind::internal ? 1 : 2;
  }
}
