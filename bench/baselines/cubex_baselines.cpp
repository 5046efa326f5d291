// cubex-baselines: every puzzle's compiled exact-cover matrix solved by dancing links (the core),
// by CBC (a 0/1 program) and by CaDiCaL (a CNF), side by side; for Happy Cubes also the seed's
// own integer program. Every solution a baseline returns is verified twice: against the matrix
// (check_solution) and by the puzzle's own verifier (the path of `cubex verify`).
//
//   cubex-baselines [--time-limit S] [--all-time-limit A] [--all-max N] [--json OUT]
//                   [--svg OUT] PUZZLE...
//
// Per instance and solver: the time to a first solution (or to proving there is none), capped at
// S seconds; when dancing links finds at most N solutions in all (a "small" puzzle), every solver
// also enumerates them (MILP: a no-good cut per solution; SAT: a blocking clause), capped at A
// seconds (default S), and the solution sets must be equal. Exit status: 0 when every check passed,
// 1 when a solution failed verification or two solvers disagreed, 2 for bad arguments or input.
//
// Built only with -DCUBEX_BASELINES=ON.
#include <sched.h>

#include <CbcConfig.h>
#include <algorithm>
#include <cadical.hpp>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "baselines.hpp"
#include "cubex/error.hpp"
#include "cubex/happycube/puzzle.hpp"
#include "cubex/puzzle.hpp"
#include "cubex/render/svg.hpp"
#include "cubex/util/files.hpp"

namespace bl = cubex::baselines;
using nlohmann::json;

namespace {

struct Options {
  double time_limit = 20;
  double all_time_limit = -1;  // default: time_limit
  std::uint64_t all_max = 6000;
  std::string json_out, svg_out;
  std::vector<std::string> files;
};

[[noreturn]] void usage_error(const std::string& what) {
  std::cerr << "cubex-baselines: " << what
            << "\nusage: cubex-baselines [--time-limit S] [--all-time-limit S] [--all-max N] "
               "[--json OUT] [--svg OUT] "
               "PUZZLE...\n";
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage_error("expected a value after " + a);
      return argv[++i];
    };
    try {
      if (a == "--time-limit") {
        std::size_t used = 0;
        const std::string v = value();
        o.time_limit = std::stod(v, &used);
        if (used != v.size() || !(o.time_limit > 0)) throw std::invalid_argument(v);
      } else if (a == "--all-time-limit") {
        std::size_t used = 0;
        const std::string v = value();
        o.all_time_limit = std::stod(v, &used);
        if (used != v.size() || !(o.all_time_limit > 0)) throw std::invalid_argument(v);
      } else if (a == "--all-max") {
        std::size_t used = 0;
        const std::string v = value();
        o.all_max = std::stoull(v, &used);
        if (used != v.size()) throw std::invalid_argument(v);
      } else if (a == "--json") {
        o.json_out = value();
      } else if (a == "--svg") {
        o.svg_out = value();
      } else if (a == "-h" || a == "--help") {
        std::cout << "usage: cubex-baselines [--time-limit S] [--all-time-limit S] [--all-max N] "
                     "[--json OUT] "
                     "[--svg OUT] PUZZLE...\n"
                     "  --time-limit S  cap per solver and instance, first solution and "
                     "enumeration each (default 20)\n"
                     "  --all-time-limit S  cap for each enumeration instead (default: the "
                     "--time-limit)\n"
                     "  --all-max N     enumerate with every solver when dancing links finds at "
                     "most N solutions (default 6000)\n"
                     "  --json OUT      results as JSON\n"
                     "  --svg OUT       bar chart (log scale) of the times\n";
        std::exit(0);
      } else if (!a.empty() && a[0] == '-') {
        usage_error("unknown option '" + a + "'");
      } else {
        o.files.push_back(a);
      }
    } catch (const std::logic_error&) {
      usage_error("expected a positive number after " + a + ", found '" + argv[i] + "'");
    }
  }
  if (o.files.empty()) usage_error("expected at least one puzzle file");
  if (o.all_time_limit < 0) o.all_time_limit = o.time_limit;
  return o;
}

// One solver on one instance.
struct Cell {
  bool ran_first = false;
  bool solved = false;  // first-solution question answered within the limit
  bool feasible = false;
  double first_seconds = 0;
  bool ran_all = false;
  bool all_complete = false;
  double all_seconds = 0;
  std::uint64_t solutions = 0;
};

struct Instance {
  std::string file, name, kind;
  std::size_t items = 0, options = 0;
  bl::CnfSize cnf;
  Cell dlx, cbc, cadical, seed;
  bool has_seed = false;
  int seed_vars = 0, seed_rows = 0;
  double seed_cost = -1;
  std::uint64_t seed_distinct = 0;  // distinct option sets among the seed model's solutions
  std::vector<std::string> problems;
};

std::string machine_note() {
  cpu_set_t set;
  int cpus = 0;
  if (sched_getaffinity(0, sizeof set, &set) == 0) cpus = CPU_COUNT(&set);
  std::string model = "unknown CPU";
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) == 0) {
      model = line.substr(line.find(':') + 2);
      break;
    }
  }
  std::string compiler = "unknown compiler";
#if defined(__clang__)
  compiler = "clang " __clang_version__;
#elif defined(__GNUC__)
  compiler = "g++ " __VERSION__;
#endif
  return std::to_string(cpus) + " CPUs (nproc), " + model + ", " + compiler + ", CBC " +
         CBC_VERSION + ", CaDiCaL " + CaDiCaL::Solver::version();
}

std::string fmt_seconds(double s) {
  char buf[32];
  if (s < 0.001) {
    std::snprintf(buf, sizeof buf, "%.1f us", s * 1e6);
  } else if (s < 1) {
    std::snprintf(buf, sizeof buf, "%.1f ms", s * 1e3);
  } else {
    std::snprintf(buf, sizeof buf, "%.2f s", s);
  }
  return buf;
}

std::string with_commas(std::uint64_t v) {
  std::string s = std::to_string(v);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3)
    s.insert(static_cast<std::size_t>(i), ",");
  return s;
}

std::string first_cell(const Cell& c, double limit) {
  if (!c.ran_first) return "-";
  if (!c.solved) return "> " + fmt_seconds(limit) + " (capped)";
  return fmt_seconds(c.first_seconds) + (c.feasible ? "" : " (none)");
}

std::string all_cell(const Cell& c) {
  if (!c.ran_all) return "-";
  if (!c.all_complete)
    return with_commas(c.solutions) + " in " + fmt_seconds(c.all_seconds) + " (capped)";
  return with_commas(c.solutions) + " in " + fmt_seconds(c.all_seconds);
}

json cell_json(const Cell& c) {
  json j;
  j["first_seconds"] = c.ran_first && c.solved ? json(c.first_seconds) : json(nullptr);
  j["all_seconds"] = c.ran_all ? json(c.all_seconds) : json(nullptr);
  j["solutions"] = c.ran_all ? json(c.solutions) : json(nullptr);
  j["solved"] = c.solved;
  j["feasible"] = c.solved ? json(c.feasible) : json(nullptr);
  j["all_complete"] = c.ran_all ? json(c.all_complete) : json(nullptr);
  return j;
}

// Verifies one solution a solver returned: against the matrix and with the puzzle's verifier.
std::string verify(const cubex::Puzzle& p, const bl::Solution& s) {
  if (std::string e = cubex::check_solution(p.problem(), s); !e.empty()) return "matrix: " + e;
  if (std::string e = p.verify_solution(p.solution_json(s)); !e.empty()) return "verifier: " + e;
  return "";
}

// Runs a solver for the first solution and records it in `c`; verifies what it returned. Runs
// under kRepeatBelow seconds are repeated (kRepeats in all) and the fastest is kept: on a shared
// machine one sub-millisecond run says little.
constexpr double kRepeatBelow = 0.05;
constexpr int kRepeats = 5;
template <class F>
void first_run(Instance& in, const cubex::Puzzle& p, const char* who, Cell& c, F&& run) {
  bl::Solution got;
  const auto keep = [&](const bl::Solution& s) {
    got = s;
    return true;
  };
  const bl::Run r = run(keep);
  double best = r.seconds;
  for (int k = 1; k < kRepeats && r.seconds < kRepeatBelow; ++k)
    best = std::min(best, run([](const bl::Solution&) { return true; }).seconds);
  c.ran_first = true;
  c.solved = r.finished;
  c.feasible = r.solutions > 0;
  c.first_seconds = best;
  if (r.solutions > 0) {
    if (std::string e = verify(p, got); !e.empty())
      in.problems.push_back(std::string(who) + ": first solution invalid: " + e);
  }
}

using SolutionSet = std::set<bl::Solution>;

// Runs an enumeration and records it; returns the solutions found.
template <class F>
SolutionSet all_run(Instance& in, const char* who, Cell& c, F&& run) {
  SolutionSet found;
  std::uint64_t repeats = 0;
  const bl::Run r = run([&](const bl::Solution& s) {
    if (!found.insert(s).second) ++repeats;
    return true;
  });
  c.ran_all = true;
  c.all_complete = r.finished;
  c.all_seconds = r.seconds;
  c.solutions = r.solutions;
  if (repeats > 0) in.problems.push_back(std::string(who) + ": returned the same solution twice");
  return found;
}

Instance run_instance(const std::string& file, const Options& opt) {
  const std::unique_ptr<cubex::Puzzle> puzzle = cubex::load_puzzle(file);
  const cubex::Problem& pb = puzzle->problem();
  Instance in;
  in.file = file;
  in.name = puzzle->name();
  in.kind = puzzle->kind();
  in.items = pb.num_items();
  in.options = pb.num_options();
  in.cnf = bl::cnf_size(pb);
  const double lim = opt.time_limit;
  std::cerr << "cubex-baselines: " << file << " (" << in.options << " options)" << std::endl;

  first_run(in, *puzzle, "dlx", in.dlx,
            [&](const bl::Visit& v) { return bl::dlx_run(pb, false, lim, v); });
  first_run(in, *puzzle, "cbc", in.cbc,
            [&](const bl::Visit& v) { return bl::cbc_run(pb, false, lim, v); });
  first_run(in, *puzzle, "cadical", in.cadical,
            [&](const bl::Visit& v) { return bl::cadical_run(pb, false, lim, v); });
  const cubex::happycube::Model* model = cubex::happycube::model_of(*puzzle);
  if (model != nullptr) {
    in.has_seed = true;
    bl::SeedRun sr;
    first_run(in, *puzzle, "cbc_seed", in.seed, [&](const bl::Visit& v) {
      sr = bl::happy_seed_run(*model, false, lim, v);
      return sr.run;
    });
    in.seed_vars = sr.variables;
    in.seed_rows = sr.rows;
    in.seed_cost = sr.first_cost;
    if (!sr.error.empty()) in.problems.push_back("cbc_seed: " + sr.error);
  }
  // Every solver that answered must agree on solvable or not.
  for (const Cell* c : {&in.cbc, &in.cadical, in.has_seed ? &in.seed : nullptr}) {
    if (c != nullptr && c->solved && in.dlx.solved && c->feasible != in.dlx.feasible)
      in.problems.push_back("solvers disagree on whether the puzzle has a solution");
  }

  // Enumeration: dancing links first (it decides whether the puzzle is small).
  const double alim = opt.all_time_limit;
  SolutionSet reference = all_run(
      in, "dlx", in.dlx, [&](const bl::Visit& v) { return bl::dlx_run(pb, true, alim, v); });
  if (!in.dlx.all_complete || in.dlx.solutions > opt.all_max) return in;
  for (const auto& s : reference) {
    if (std::string e = verify(*puzzle, s); !e.empty()) {
      in.problems.push_back("dlx: a solution failed verification: " + e);
      break;
    }
  }
  const auto compare = [&](const char* who, const Cell& c, const SolutionSet& got) {
    for (const auto& s : got) {
      if (std::string e = verify(*puzzle, s); !e.empty()) {
        in.problems.push_back(std::string(who) + ": a solution failed verification: " + e);
        return;
      }
    }
    if (c.all_complete && got != reference)
      in.problems.push_back(std::string(who) + ": found " + std::to_string(got.size()) +
                            " distinct solutions, dancing links " +
                            std::to_string(reference.size()));
    if (!c.all_complete &&
        !std::includes(reference.begin(), reference.end(), got.begin(), got.end()))
      in.problems.push_back(std::string(who) + ": found a solution dancing links did not");
  };
  compare("cbc", in.cbc, all_run(in, "cbc", in.cbc, [&](const bl::Visit& v) {
            return bl::cbc_run(pb, true, alim, v);
          }));
  compare("cadical", in.cadical, all_run(in, "cadical", in.cadical, [&](const bl::Visit& v) {
            return bl::cadical_run(pb, true, alim, v);
          }));
  if (model != nullptr) {
    const SolutionSet got = all_run(in, "cbc_seed", in.seed, [&](const bl::Visit& v) {
      bl::SeedRun sr = bl::happy_seed_run(*model, true, alim, v);
      if (!sr.error.empty()) in.problems.push_back("cbc_seed: " + sr.error);
      return sr.run;
    });
    in.seed_distinct = got.size();
    compare("cbc_seed", in.seed, got);
  }
  return in;
}

// ---- output --------------------------------------------------------------------------------

std::string markdown(const std::vector<Instance>& all, const Options& opt) {
  std::ostringstream o;
  o << "| instance | items | options | CNF vars / clauses | DLX first | CBC first | CaDiCaL first "
       "| DLX all | CBC all | CaDiCaL all |\n";
  o << "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const Instance& in : all) {
    o << "| " << in.name << " | " << in.items << " | " << with_commas(in.options) << " | "
      << with_commas(static_cast<std::uint64_t>(in.cnf.variables)) << " / "
      << with_commas(in.cnf.clauses) << " | " << first_cell(in.dlx, opt.time_limit) << " | "
      << first_cell(in.cbc, opt.time_limit) << " | " << first_cell(in.cadical, opt.time_limit)
      << " | " << all_cell(in.dlx) << " | " << all_cell(in.cbc) << " | " << all_cell(in.cadical)
      << " |\n";
  }
  bool any_seed = false;
  for (const Instance& in : all) any_seed = any_seed || in.has_seed;
  if (any_seed) {
    o << "\nHappy Cube seed model (x[piece, place, flip, turns], CBC, minimising flips + half "
         "turns):\n\n";
    o << "| instance | variables | rows | optimum first | cost | all | cubes found | same as DLX "
         "|\n";
    o << "|---|---:|---:|---:|---:|---:|---:|---|\n";
    for (const Instance& in : all) {
      if (!in.has_seed) continue;
      // Complete and no problem recorded: compare() found the sets equal.
      const bool same = in.seed.ran_all && in.seed.all_complete && in.dlx.all_complete &&
                        in.seed_distinct == in.dlx.solutions && in.problems.empty();
      const bool subset = in.seed.ran_all && in.problems.empty();
      o << "| " << in.name << " | " << in.seed_vars << " | " << in.seed_rows << " | "
        << first_cell(in.seed, opt.time_limit) << " | " << in.seed_cost << " | "
        << (in.seed.ran_all
                ? fmt_seconds(in.seed.all_seconds) + (in.seed.all_complete ? "" : " (capped)")
                : "-")
        << " | " << (in.seed.ran_all ? with_commas(in.seed_distinct) : "-") << " | "
        << (!in.seed.ran_all ? "-"
            : same           ? "yes"
            : subset         ? "each one found is a DLX solution (capped)"
                             : "NO")
        << " |\n";
    }
  }
  o << "\nTimes are wall clock per solver and instance, including building that solver's model "
       "from the compiled matrix; capped at "
    << opt.time_limit << " s each (first solution) and " << opt.all_time_limit
    << " s (all solutions). \"all\": every solution (no-good cuts for CBC, blocking "
       "clauses for CaDiCaL), run when dancing links finds at most "
    << opt.all_max << ".\nMachine: " << machine_note() << ".\n";
  return o.str();
}

json to_json(const std::vector<Instance>& all, const Options& opt) {
  json results = json::array();
  for (const Instance& in : all) {
    json solvers = {
        {"dlx", cell_json(in.dlx)}, {"cbc", cell_json(in.cbc)}, {"cadical", cell_json(in.cadical)}};
    if (in.has_seed) {
      json s = cell_json(in.seed);
      s["variables"] = in.seed_vars;
      s["rows"] = in.seed_rows;
      s["optimum"] = in.seed_cost;
      s["distinct_solutions"] = in.seed.ran_all ? json(in.seed_distinct) : json(nullptr);
      solvers["cbc_seed"] = s;
    }
    results.push_back({{"instance", in.name},
                       {"file", in.file},
                       {"kind", in.kind},
                       {"items", in.items},
                       {"options", in.options},
                       {"cnf_variables", in.cnf.variables},
                       {"cnf_clauses", in.cnf.clauses},
                       {"solvers", solvers},
                       {"problems", in.problems}});
  }
  return {{"results", results},
          {"time_limit_seconds", opt.time_limit},
          {"all_time_limit_seconds", opt.all_time_limit},
          {"all_max", opt.all_max},
          {"machine", machine_note()}};
}

using cubex::render::xml_escape;

// Grouped bars on a log scale: one group per instance, one bar per solver; one panel for the
// first solution and one for all solutions. A capped run is drawn to the limit, hatched.
std::string svg_chart(const std::vector<Instance>& all, const Options& opt) {
  struct Series {
    const char* label;
    const char* colour;
    const Cell Instance::*cell;
  };
  const Series series[] = {{"DLX (cubex)", "#2b6cb0", &Instance::dlx},
                           {"CBC", "#c05621", &Instance::cbc},
                           {"CaDiCaL", "#2f855a", &Instance::cadical},
                           {"CBC seed model", "#805ad5", &Instance::seed}};
  double lo = 1e-4, hi = std::max(opt.time_limit, opt.all_time_limit);
  for (const Instance& in : all)
    for (const Series& s : series) {
      const Cell& c = in.*s.cell;
      if (c.ran_first && c.solved) lo = std::min(lo, c.first_seconds);
      if (c.ran_all) lo = std::min(lo, c.all_seconds);
    }
  const double dlo = std::floor(std::log10(std::max(lo, 1e-7)));
  const double dhi = std::ceil(std::log10(hi) + 1e-9);
  const int group_w = 4 * 16 + 24, left = 70, panel_h = 260, top = 60, gap = 150;
  const int width = left + static_cast<int>(all.size()) * group_w + 40;
  const int height = top + 2 * (panel_h + gap) + 20;
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
    << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  o << "<defs><pattern id=\"hatch\" width=\"4\" height=\"4\" patternUnits=\"userSpaceOnUse\" "
       "patternTransform=\"rotate(45)\"><rect width=\"2\" height=\"4\" fill=\"#fff\" "
       "opacity=\"0.6\"/></pattern></defs>\n";
  o << "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n";
  o << "<text x=\"" << left
    << "\" y=\"20\" font-size=\"14\" font-weight=\"bold\">cubex "
       "baselines: dancing links, CBC and CaDiCaL on the same exact-cover matrices (seconds, log "
       "scale)</text>\n";
  o << "<text x=\"" << left << "\" y=\"38\">" << xml_escape(machine_note()) << "; capped at "
    << opt.time_limit << " s (first) and " << opt.all_time_limit
    << " s (all); hatched bars hit the cap</text>\n";
  for (std::size_t k = 0; k < 4; ++k) {
    const int x = left + static_cast<int>(k) * 150;
    o << "<rect x=\"" << x << "\" y=\"46\" width=\"10\" height=\"10\" fill=\"" << series[k].colour
      << "\"/><text x=\"" << x + 14 << "\" y=\"55\">" << series[k].label << "</text>\n";
  }
  for (int panel = 0; panel < 2; ++panel) {
    const int y0 = top + 20 + panel * (panel_h + gap);
    const auto ypos = [&](double s) {
      const double f =
          (std::log10(std::clamp(s, std::pow(10.0, dlo), std::pow(10.0, dhi))) - dlo) / (dhi - dlo);
      return y0 + panel_h - f * panel_h;
    };
    o << "<text x=\"" << left << "\" y=\"" << y0 - 6 << "\" font-weight=\"bold\">"
      << (panel == 0 ? "time to the first solution" : "time to all solutions (small puzzles)")
      << "</text>\n";
    for (int d = static_cast<int>(dlo); d <= static_cast<int>(dhi); ++d) {
      const double y = ypos(std::pow(10.0, d));
      o << "<line x1=\"" << left << "\" x2=\"" << width - 30 << "\" y1=\"" << y << "\" y2=\"" << y
        << "\" stroke=\"#ddd\"/><text x=\"" << left - 6 << "\" y=\"" << y + 4
        << "\" text-anchor=\"end\">1e" << d << "</text>\n";
    }
    for (std::size_t i = 0; i < all.size(); ++i) {
      const Instance& in = all[i];
      const int gx = left + static_cast<int>(i) * group_w + 12;
      for (std::size_t k = 0; k < 4; ++k) {
        const Cell& c = in.*series[k].cell;
        double v;
        bool capped;
        if (panel == 0) {
          if (!c.ran_first) continue;
          capped = !c.solved;
          v = capped ? opt.time_limit : c.first_seconds;
        } else {
          if (!c.ran_all) continue;
          capped = !c.all_complete;
          v = c.all_seconds;
        }
        const double y = ypos(v), base = y0 + panel_h;
        const int x = gx + static_cast<int>(k) * 16;
        o << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"14\" height=\"" << base - y
          << "\" fill=\"" << series[k].colour << "\"><title>" << xml_escape(in.name) << ", "
          << series[k].label << ": " << fmt_seconds(v) << (capped ? " (capped)" : "")
          << "</title></rect>\n";
        if (capped)
          o << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"14\" height=\"" << base - y
            << "\" fill=\"url(#hatch)\"/>\n";
      }
      o << "<text transform=\"translate(" << gx + 30 << "," << y0 + panel_h + 12
        << ") rotate(30)\">" << xml_escape(in.name) << "</text>\n";
    }
    o << "<line x1=\"" << left << "\" x2=\"" << width - 30 << "\" y1=\"" << y0 + panel_h
      << "\" y2=\"" << y0 + panel_h << "\" stroke=\"#000\"/>\n";
  }
  o << "</svg>\n";
  return o.str();
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse(argc, argv);
  std::vector<Instance> results;
  try {
    for (const std::string& f : opt.files) results.push_back(run_instance(f, opt));
  } catch (const cubex::InputError& e) {
    std::cerr << "cubex-baselines: " << e.what() << "\n";
    return 2;
  }
  std::cout << markdown(results, opt);
  int failures = 0;
  for (const Instance& in : results)
    for (const std::string& p : in.problems) {
      std::cerr << "cubex-baselines: " << in.file << ": " << p << "\n";
      ++failures;
    }
  try {
    if (!opt.json_out.empty())
      cubex::write_file_atomic(opt.json_out, to_json(results, opt).dump(2) + "\n");
    if (!opt.svg_out.empty()) cubex::write_file_atomic(opt.svg_out, svg_chart(results, opt));
  } catch (const std::exception& e) {
    std::cerr << "cubex-baselines: " << e.what() << "\n";
    return 2;
  }
  return failures == 0 ? 0 : 1;
}
