// cubex/cubex.hpp - the front door: everything a C++ program needs for the common case.
//
//   #include <cubex/cubex.hpp>
//
//   auto puzzle = cubex::load("puzzles/voxel/soma.json");   // any supported format
//   cubex::Options opt;                                      // one table of options
//   opt.threads = 2;
//   opt.symmetry = cubex::Symmetry::automatic;              // none | rotations | automatic
//   cubex::Counts c = cubex::count(*puzzle, opt);           // c.total, c.unique, c.symmetric
//   std::cout << c.total << ' ' << c.unique << '\n';         // 11520 240
//
//   // Listing: a sink sees each solution (one per class with symmetry); return false to stop.
//   opt.limit = 3;
//   cubex::solve(*puzzle, opt, [&](const cubex::Solution& s) {
//     std::cout << puzzle->solution_text(s.options);
//     return true;
//   });
//
//   // Progress, stop, checkpoints: opt.on_progress, opt.stop, opt.checkpoint / opt.resume.
//   // Errors: cubex::Error, with kind() input, usage, limit or internal, and the place
//   // (file(), line(), json_path()) where the input was wrong.
//
// The headers below are the public API (docs/library.md); the others under cubex/ are for
// programs that build on the engine itself (cubex/core/*.hpp) or on one front end.
#pragma once

#include "cubex/error.hpp"    // cubex::Error
#include "cubex/options.hpp"  // cubex::Options, Symmetry, CountBy, the options table
#include "cubex/puzzle.hpp"   // cubex::Puzzle: a loaded puzzle, its problem, drawing, JSON
#include "cubex/solve.hpp"    // load, count, solve, Plan, Counts, Result, Solution
