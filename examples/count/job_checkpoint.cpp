// Counts a puzzle up to symmetry on four threads, saving its state to a checkpoint every minute
// (and on a stop, and at the end), and resuming from it if it exists:
//   job_checkpoint puzzles/voxel/soma.json soma.ck
#include <cubex/cubex.hpp>
#include <filesystem>
#include <iostream>

int main(int argc, char** argv) {
  if (argc != 3) return std::cerr << "usage: job_checkpoint PUZZLE CHECKPOINT\n", 2;
  try {
    auto puzzle = cubex::load(argv[1]);
    cubex::Options opt;
    opt.threads = 4;
    opt.checkpoint = argv[2];
    if (std::filesystem::exists(opt.checkpoint)) opt.resume = opt.checkpoint;
    const cubex::Result r = cubex::solve(*puzzle, opt);
    std::cout << r.counts.total << " solutions, " << r.counts.unique << " up to symmetry\n";
  } catch (const cubex::Error& e) {
    return std::cerr << "job_checkpoint: " << e.what() << "\n", 2;
  }
}
