// Counts a puzzle up to symmetry on four threads with cubex::SearchJob, saving its state to a
// checkpoint every minute (and on a stop, and at the end), and resuming from it if it exists:
//   job_checkpoint puzzles/voxel/soma.json soma.ck
#include <cubex/core/job.hpp>
#include <cubex/io/checkpoint.hpp>
#include <cubex/io/files.hpp>
#include <cubex/puzzle.hpp>
#include <cubex/symmetry.hpp>
#include <exception>
#include <filesystem>
#include <iostream>

int main(int argc, char** argv) {
  if (argc != 3) return std::cerr << "usage: job_checkpoint PUZZLE CHECKPOINT\n", 2;
  const std::string file = argv[1], ck = argv[2];
  try {
    auto puzzle = cubex::load_puzzle(file);
    cubex::SymmetricSolver sym(puzzle->problem(),
                               puzzle->symmetry_group(cubex::SymmetryMode::kAuto).group);
    cubex::SearchJob job(sym.restricted(), &sym);  // one solution per class, judged per thread
    cubex::JobOptions opt;
    opt.threads = 4;
    cubex::JobState saved;
    if (std::filesystem::exists(ck)) opt.resume = &(saved = cubex::read_checkpoint(ck));
    opt.on_checkpoint = [&](const cubex::JobState& s) {  // every minute, on a stop, at the end
      const cubex::CheckpointRun run{file, "auto", "", sym.group_order()};
      cubex::write_file_atomic(ck, cubex::checkpoint_json(s, run).dump());
    };
    const cubex::JobResult r = job.run(opt);
    std::cout << r.counts.total << " solutions, " << r.counts.unique << " up to symmetry\n";
  } catch (const std::exception& e) {
    return std::cerr << "job_checkpoint: " << e.what() << "\n", 2;
  }
}
