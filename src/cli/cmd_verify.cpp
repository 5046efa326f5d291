// cubex verify PUZZLE SOLUTIONS.json - re-checks every solution of a `cubex solve --json` file.
#include <boost/program_options.hpp>
#include <iostream>

#include "cli.hpp"
#include "cubex/error.hpp"
#include "cubex/io/json.hpp"
#include "cubex/limits.hpp"
#include "cubex/puzzle.hpp"

namespace po = boost::program_options;

namespace cubex::cli {

int cmd_verify(const std::vector<std::string>& args) {
  po::options_description opts(
      "usage: cubex verify PUZZLE SOLUTIONS.json\n\n"
      "Re-checks every solution in SOLUTIONS.json (written by 'cubex solve PUZZLE --all --json')\n"
      "against PUZZLE from scratch. Exit status 0 when all are valid, 2 otherwise.\n\n"
      "options");
  std::uint64_t max_nodes = limits().max_nodes;
  // clang-format off
  opts.add_options()
    ("help,h", "show this help")
    ("quiet,q", "print only failures and the summary")
    ("max-nodes", po::value(&max_nodes), "as for 'cubex solve': the largest matrix to build");
  // clang-format on
  std::vector<std::string> files;
  po::options_description hidden;
  hidden.add_options()("files", po::value(&files));
  po::variables_map vm;
  if (!parse_command(args, opts, hidden, "files", 2, vm)) return kExitOk;
  if (files.size() != 2) throw UsageError("expected PUZZLE and SOLUTIONS.json");

  set_max_nodes(max_nodes);
  g_activity = "reading and compiling the puzzle";
  std::unique_ptr<Puzzle> puzzle = load_puzzle(files[0]);
  g_activity = "reading and checking the solutions";
  const nlohmann::json doc = read_json_file(files[1]);
  if (!doc.is_object() || !doc.contains("solutions") || !doc["solutions"].is_array()) {
    throw InputError(files[1], "", "expected an object with a \"solutions\" array");
  }
  const auto& sols = doc["solutions"];
  std::size_t bad = 0;
  for (std::size_t k = 0; k < sols.size(); ++k) {
    std::string why = puzzle->verify_solution(sols[k]);
    if (!why.empty()) {
      ++bad;
      std::cerr << "cubex: " << printable(files[1]) << ": solutions[" << k
                << "]: " << printable(why, true) << "\n";
    } else if (!vm.count("quiet")) {
      std::cout << "solution " << k + 1 << ": ok\n";
    }
  }
  std::cout << sols.size() - bad << " of " << sols.size() << " solutions valid\n";
  return bad ? kExitBadInput : kExitOk;
}

}  // namespace cubex::cli
