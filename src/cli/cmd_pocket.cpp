// cubex pocket solve|table - the 2x2x2 Rubik's cube: optimal solutions from the distance table.
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>

#include "cli.hpp"
#include "cubex/pocket/cube.hpp"
#include "cubex/pocket/table.hpp"

namespace po = boost::program_options;

namespace cubex::cli {
namespace {

using pocket::Metric;

const char kPocketUsage[] =
    "usage: cubex pocket COMMAND [OPTIONS]\n\n"
    "The 2x2x2 Rubik's cube (pocket cube): 3,674,160 states with the DBL corner kept in place.\n"
    "Optimal solutions come from a complete distance table built by breadth-first search\n"
    "(about a second) and cached in $XDG_CACHE_HOME/cubex or ~/.cache/cubex.\n\n"
    "commands:\n"
    "  solve     an optimal solution of a scramble or a sticker state\n"
    "  table     the number of states at each distance (God's number is the largest)\n\n"
    "'cubex pocket COMMAND --help' describes a command's options.\n";

Metric parse_metric(const std::string& s) {
  if (s == "htm") return Metric::kHalfTurn;
  if (s == "qtm") return Metric::kQuarterTurn;
  throw UsageError("expected --metric htm or qtm, found '" + s + "'");
}

std::string metric_words(Metric m) {
  return m == Metric::kHalfTurn ? "half-turn metric" : "quarter-turn metric";
}

void add_table_options(po::options_description& opts, std::string& metric) {
  // clang-format off
  opts.add_options()
    ("metric", po::value(&metric)->default_value("htm"),
     "htm: half-turn metric, a half turn counts 1 (moves U U2 U' R R2 R' F F2 F');\n"
     "qtm: quarter-turn metric, a half turn counts 2 (moves U U' R R' F F')")
    ("no-cache", "build the table in memory; neither read nor write the cache");
  // clang-format on
}

// The cache file `get_table` reads (and may write), "" with --no-cache or without a cache folder.
std::string cache_file(Metric metric, const po::variables_map& vm) {
  const std::string dir = vm.count("no-cache") ? "" : pocket::default_cache_dir();
  return dir.empty() ? "" : pocket::cache_path(dir, metric);
}

// --json OUT is checked like every command's outputs, before any work: not the table's cache
// file (the same path, a symbolic or a hard link to it), not a folder, in a folder that exists
// and takes new files.
void check_json_out(const std::string& json_out, Metric metric, const po::variables_map& vm) {
  if (json_out.empty()) return;
  const std::string cache = cache_file(metric, vm);
  refuse_overwriting_input("json", json_out,
                           cache.empty() ? std::vector<std::string>{} : std::vector{cache});
}

pocket::LoadedTable get_table(Metric metric, const po::variables_map& vm) {
  pocket::LoadedTable t =
      pocket::load_or_build(metric, vm.count("no-cache") ? "" : pocket::default_cache_dir());
  if (!t.note.empty()) std::cerr << "cubex pocket: " << t.note << "\n";
  return t;
}

std::string table_origin(const pocket::LoadedTable& t) {
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.2f s", t.seconds);
  if (t.source == pocket::LoadedTable::Source::kLoaded) {
    return "loaded from " + t.path + " in " + secs;
  }
  std::string s = std::string("built in ") + secs;
  if (!t.path.empty() && t.note.find("not written") == std::string::npos) {
    s += ", cached in " + t.path;
  }
  return s;
}

int pocket_solve(const std::vector<std::string>& args) {
  po::options_description opts(
      "usage: cubex pocket solve \"SCRAMBLE\" [--metric htm|qtm] [--json OUT]\n"
      "       cubex pocket solve --state STICKERS [--metric htm|qtm] [--json OUT]\n\n"
      "Prints an optimal move sequence that solves the cube, and its length.\n"
      "SCRAMBLE: moves in standard notation, e.g. \"R U R' U'\": faces U D R L F B, whole-cube\n"
      "  rotations x y z; a suffix 2 (half turn) or ' (counter-clockwise). The solution uses\n"
      "  U, R and F only (the DBL corner stays in place) and solves the scrambled cube in the\n"
      "  orientation it is in after the scramble.\n"
      "STICKERS: 24 colour letters, faces U R F D L B, four stickers each, read row by row as\n"
      "  seen from outside (U with B at the top, D with F at the top, R F L B with U at the\n"
      "  top); any 6 letters, spaces ignored. Solved: \"UUUU RRRR FFFF DDDD LLLL BBBB\".\n"
      "In the quarter-turn metric the solution is written with quarter turns only.\n"
      "Exit status 2 for an unknown move or an impossible state.\n\n"
      "options");
  std::string metric_s, state, json_out;
  std::vector<std::string> scramble_words;
  // clang-format off
  opts.add_options()
    ("help,h", "show this help")
    ("state", po::value(&state), "solve the cube with these 24 stickers instead of a scramble");
  add_table_options(opts, metric_s);
  opts.add_options()
    ("json", po::value(&json_out),
     "write metric, scramble, state, sequence (list of moves), solution and distance to OUT");
  // clang-format on
  po::options_description hidden;
  hidden.add_options()("scramble", po::value(&scramble_words));
  po::variables_map vm;
  if (!parse_command(args, opts, hidden, "scramble", -1, vm)) return kExitOk;
  const Metric metric = parse_metric(metric_s);
  const bool has_state = vm.count("state") > 0;
  if (has_state == (vm.count("scramble") > 0)) {
    throw UsageError("expected a SCRAMBLE or --state STICKERS (exactly one of them)");
  }
  check_json_out(json_out, metric, vm);
  std::string scramble;
  for (const std::string& w : scramble_words) scramble += (scramble.empty() ? "" : " ") + w;

  // Read the input completely (errors exit 2 before any work or output).
  std::vector<pocket::Turn> turns;
  std::string stickers;
  if (has_state) {
    for (char c : state) {
      if (c != ' ' && c != '\t') stickers += c;
    }
  } else {
    turns = pocket::parse_turns(scramble, "scramble");
    pocket::Facelets f = pocket::solved_facelets();
    pocket::apply(f, turns);
    stickers = pocket::to_string(f);
  }
  const pocket::Corners corners = pocket::from_facelets(has_state ? state : stickers, "--state");

  const pocket::LoadedTable table = get_table(metric, vm);
  std::vector<pocket::Turn> solution;
  for (int m : table.table.solve(pocket::encode(corners))) solution.push_back(pocket::move_turn(m));
  const int distance = static_cast<int>(solution.size());

  if (has_state) {
    std::cout << "state: " << stickers << "\n";
  } else {
    const int len =
        metric == Metric::kHalfTurn ? pocket::htm_length(turns) : pocket::qtm_length(turns);
    std::cout << "scramble: " << pocket::to_string(turns) << " (" << len << " "
              << (metric == Metric::kHalfTurn ? "htm" : "qtm") << ")\n";
  }
  std::cout << "solution: " << (solution.empty() ? "(already solved)" : pocket::to_string(solution))
            << "\n";
  std::cout << "length: " << distance << " (" << metric_words(metric) << ", optimal)\n";
  std::cout << "table: " << table_origin(table) << "\n";

  if (!json_out.empty()) {
    nlohmann::json seq = nlohmann::json::array();
    for (const pocket::Turn& t : solution) seq.push_back(pocket::to_string(t));
    nlohmann::json j;
    j["puzzle"] = "2x2x2";
    j["metric"] = std::string(pocket::metric_name(metric));
    if (has_state) {
      j["state"] = stickers;
    } else {
      j["scramble"] = pocket::to_string(turns);
      j["state"] = stickers;
    }
    j["sequence"] = seq;
    j["solution"] = pocket::to_string(solution);
    j["distance"] = distance;
    write_json(json_out, j);
  }
  return kExitOk;
}

int pocket_table(const std::vector<std::string>& args) {
  po::options_description opts(
      "usage: cubex pocket table [--metric htm|qtm] [--json OUT]\n\n"
      "Prints the number of 2x2x2 states at each distance from solved (the DBL corner kept in\n"
      "place, 3,674,160 states), the total and God's number (the largest distance).\n\n"
      "options");
  std::string metric_s, json_out;
  opts.add_options()("help,h", "show this help");
  add_table_options(opts, metric_s);
  opts.add_options()("json", po::value(&json_out),
                     "write metric, distribution (states per distance), states and "
                     "gods_number to OUT");
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(opts).run(), vm);
  po::notify(vm);
  if (vm.count("help")) {
    std::cout << opts << "\n";
    return kExitOk;
  }
  const Metric metric = parse_metric(metric_s);
  check_json_out(json_out, metric, vm);
  const pocket::LoadedTable table = get_table(metric, vm);
  const std::vector<std::uint64_t> dist = table.table.distribution();
  std::uint64_t total = 0;
  std::cout << "2x2x2 cube, " << metric_words(metric) << "\n";
  std::cout << "distance      states\n";
  for (std::size_t d = 0; d < dist.size(); ++d) {
    char line[64];
    std::snprintf(line, sizeof line, "%8zu  %10s\n", d, with_commas(dist[d]).c_str());
    std::cout << line;
    total += dist[d];
  }
  std::cout << "total: " << with_commas(total) << "\n";
  std::cout << "God's number: " << dist.size() - 1 << "\n";
  std::cout << "table: " << table_origin(table) << "\n";
  if (!json_out.empty()) {
    nlohmann::json j;
    j["puzzle"] = "2x2x2";
    j["metric"] = std::string(pocket::metric_name(metric));
    j["distribution"] = dist;
    j["states"] = total;
    j["gods_number"] = dist.size() - 1;
    write_json(json_out, j);
  }
  return kExitOk;
}

}  // namespace

int cmd_pocket(const std::vector<std::string>& args) {
  if (args.empty()) {
    std::cerr << kPocketUsage;
    return kExitBadInput;
  }
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (args[0] == "solve") return pocket_solve(rest);
  if (args[0] == "table") return pocket_table(rest);
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::cout << kPocketUsage;
    return kExitOk;
  }
  throw UsageError("unknown command '" + args[0] +
                   "' (expected solve or table; see 'cubex "
                   "pocket --help')");
}

}  // namespace cubex::cli
