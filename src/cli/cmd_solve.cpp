// cubex solve FILE [--count | --first | --all] [--limit N] [--json OUT] [--threads N]
//             [--checkpoint FILE] [--resume FILE] [--shard K/N]
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>

#include "cli.hpp"
#include "cubex/core/solver.hpp"
#include "cubex/puzzle.hpp"
#include "search.hpp"

namespace po = boost::program_options;

namespace cubex::cli {

int cmd_solve(const std::vector<std::string>& args) {
  po::options_description opts(
      "usage: cubex solve FILE [--count | --first | --all] [--limit N] [--json OUT]\n\n"
      "Solves the puzzle in FILE. The format follows the extension:\n"
      "  .dlx, .xc   Knuth's exact-cover format (see README)\n"
      "  .hcq        Happy Cube tiles (six plates folded into a cube)\n"
      "  .json       a voxel puzzle (polycube packing; \"kind\": \"voxel\" or none), or\n"
      "              \"kind\": \"happy-cube\": Happy Cube plates drawn as rows, any structure\n"
      "  .txt        a wooden-cube puzzle: one piece per line, x y z x y z ...\n\n"
      "options");
  std::string file, json_out, symmetry = "none";
  std::uint64_t limit = 0;
  SearchOptions search;
  // clang-format off
  opts.add_options()
    ("help,h", "show this help")
    ("count", "count the solutions (the default)")
    ("first", "find and print the first solution")
    ("all", "print every solution (and put them in --json)")
    ("limit", po::value(&limit), "stop after N solutions")
    ("json", po::value(&json_out), "write counts, solutions and statistics to OUT as JSON")
    ("symmetry", po::value(&symmetry), "none: count every solution (default)")
    ("quiet,q", "print only the summary, not the solutions");
  // clang-format on
  add_search_options(opts, search);
  po::options_description hidden;
  hidden.add_options()("file", po::value(&file));
  po::variables_map vm;
  if (!parse_command(args, opts, hidden, "file", 1, vm)) return kExitOk;
  if (file.empty()) throw UsageError("expected a puzzle FILE");
  const int modes = static_cast<int>(vm.count("count") + vm.count("first") + vm.count("all"));
  if (modes > 1) throw UsageError("choose one of --count, --first and --all");
  if (symmetry != "none") {
    throw UsageError("expected --symmetry none, found '" + symmetry + "'");
  }
  const std::string mode = vm.count("first") ? "first" : vm.count("all") ? "all" : "count";
  const bool keep = mode != "count";
  const bool print = keep && !vm.count("quiet");

  std::unique_ptr<Puzzle> puzzle = load_puzzle(file);
  const Problem& pb = puzzle->problem();

  install_stop_handlers();
  SolveLimits limits;
  limits.stop = &g_stop;
  limits.max_solutions = mode == "first" ? 1 : limit;
  if (mode == "first" && limit) limits.max_solutions = std::min<std::uint64_t>(limit, 1);

  nlohmann::json solutions = nlohmann::json::array();
  std::uint64_t k = 0;
  auto on_solution = [&](std::span<const OptionId> s) {
    ++k;
    if (!json_out.empty()) solutions.push_back(puzzle->solution_json(s));
    if (print) std::cout << "Solution " << k << ":\n" << puzzle->solution_text(s) << "\n";
    return true;
  };
  SolutionVisitor visitor(on_solution);
  const SearchOutcome run = run_search(pb, file, keep ? &visitor : nullptr, limits, search);
  const SolveStats& st = run.st;
  const bool interrupted = g_stop.load();

  std::cout << puzzle->name() << " (" << puzzle->kind() << ", " << with_commas(pb.num_items())
            << " items, " << with_commas(pb.num_options()) << " options)\n";
  std::cout << "solutions: " << with_commas(st.solutions)
            << (st.complete   ? ""
                : interrupted ? " (interrupted: counted so far)"
                              : " (stopped at the limit)")
            << "\n";
  char rate[64];
  std::snprintf(rate, sizeof rate, "%.3f s, %.1f M nodes/s", st.seconds,
                st.seconds > 0 ? st.nodes / st.seconds / 1e6 : 0.0);
  std::cout << "nodes: " << with_commas(st.nodes) << ", updates: " << with_commas(st.updates)
            << ", " << rate << "\n";

  if (!json_out.empty()) {
    nlohmann::json j;
    j["puzzle"] = {{"file", file},
                   {"name", puzzle->name()},
                   {"kind", puzzle->kind()},
                   {"items", pb.num_items()},
                   {"options", pb.num_options()}};
    j["mode"] = mode;
    j["counts"] = {{"total", st.solutions}};
    j["solutions"] = std::move(solutions);
    j["stats"] = {{"nodes", st.nodes},          {"updates", st.updates},
                  {"seconds", st.seconds},      {"complete", st.complete},
                  {"interrupted", interrupted}, {"threads", run.threads}};
    j["search"] = run.json;
    write_json(json_out, j);
  }
  return interrupted ? kExitInterrupted : kExitOk;
}

}  // namespace cubex::cli
