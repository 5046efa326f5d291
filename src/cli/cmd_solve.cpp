// cubex solve FILE [--count | --first | --all] [--limit N] [--json OUT] [--jsonl OUT] [--expand]
//                  [--threads N]
//                  [--symmetry none|rotations|auto] [--checkpoint FILE] [--resume FILE]
//                  [--shard K/N] [--max-nodes N]
#include <atomic>
#include <boost/program_options.hpp>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>

#include "cli.hpp"
#include "cubex/core/job.hpp"
#include "cubex/core/solver.hpp"
#include "cubex/error.hpp"
#include "cubex/formats.hpp"
#include "cubex/io/checkpoint.hpp"
#include "cubex/io/solve_output.hpp"
#include "cubex/limits.hpp"
#include "cubex/puzzle.hpp"
#include "cubex/symmetry.hpp"
#include "search.hpp"

namespace po = boost::program_options;

namespace cubex::cli {

namespace {
// A front end's remark as printed: "note: ..." unless it says what it is ("warning: ...").
std::string note_line(const std::string& n) {
  return n.rfind("warning:", 0) == 0 || n.rfind("note:", 0) == 0 ? n : "note: " + n;
}

// Counting by memo (symmetry.hpp, count_classes_by_memo) where the puzzle asks for it and only
// counts are wanted; nullopt when it does not apply or gives up (the search then counts), a
// stopped outcome when the stop flag ended it.
std::optional<SearchOutcome> count_by_memo(const Puzzle& puzzle, const SymmetricSolver* sym,
                                           const std::atomic<bool>* stop, MemoClasses& mc) {
  const std::vector<ItemId> order = puzzle.memo_order();
  if (order.empty() || !memo_applies(puzzle.problem()).empty()) return std::nullopt;
  std::optional<SymmetricSolver> trivial;
  if (!sym) sym = &trivial.emplace(puzzle.problem(), trivial_group(puzzle.problem().num_items()));
  MemoLimits ml;
  ml.stop = stop;
  ml.order = order;
  mc = count_classes_by_memo(*sym, ml);
  const bool stopped = !mc.complete && stop && stop->load();
  if (!mc.complete && !stopped) return std::nullopt;
  SearchOutcome out;
  JobResult& job = out.job;
  job.counts.unique = mc.stats.unique;
  job.counts.total = mc.stats.total;
  job.counts.symmetric = mc.stats.symmetric;
  job.counts.nodes = mc.states;
  job.complete = mc.complete;
  job.stopped = stopped;
  job.threads = 1;
  job.seconds = mc.stats.search.seconds;
  // The "search" object of --json, as a search of the same tree would write it, with backend
  // "memo" and the memo's states and table.
  const bool by_orbit = sym->group_order() > 1;
  const SearchJob tree(by_orbit ? sym->restricted() : puzzle.problem(), by_orbit ? sym : nullptr);
  const TreeIdentity id = tree.identity();
  out.json = {{"backend", "memo"},
              {"threads", 1},
              {"fingerprint", id.fingerprint},
              {"tree", tree_identity_json(id)},
              {"cut", id.cut},
              {"shard", "0/1"},
              {"complete", mc.complete},
              {"resumed", false},
              {"spans", 0},
              {"splits", 0},
              {"pending", 0},
              {"states", mc.states},
              {"table_bytes", mc.bytes}};
  return out;
}
}  // namespace

int cmd_solve(const std::vector<std::string>& args) {
  po::options_description opts(
      "usage: cubex solve FILE [--count | --first | --all] [--limit N] [--json OUT]\n"
      "                   [--jsonl OUT] [--expand] [--symmetry none|rotations|auto]\n"
      "                   [--problem NAME|INDEX]\n\n"
      "Solves the puzzle in FILE. The format follows the extension:\n" +
      formats_help() + "\noptions");
  std::string file, json_out, jsonl_out, symmetry;
  LoadOptions load;
  std::uint64_t limit = 0, max_nodes = limits().max_nodes;
  SearchOptions search;
  // clang-format off
  opts.add_options()
    ("help,h", "show this help")
    ("count", "count the solutions (the default)")
    ("first", "find and print the first solution")
    ("all", "print every solution (and put them in --json)")
    ("limit", po::value(&limit), "stop after N solutions")
    ("json", po::value(&json_out),
     "write counts, solutions and statistics to OUT as JSON (schema cubex-solve/1), solutions "
     "streamed as they are found; '-' is standard output (the summary then goes to stderr)")
    ("jsonl", po::value(&jsonl_out),
     "the same as JSON lines: a header line, a line per solution, an end line with the counts")
    ("expand", "list every solution of each class found, not one per class (with --first/--all)")
    ("symmetry", po::value(&symmetry)->default_value("auto"),
     "auto (default): also count solutions up to the puzzle's symmetry (rotations, and "
     "reflections where the pieces allow), listing one solution per class; rotations: "
     "rotations only; none: every solution counted and listed")
    ("quiet,q", "print only the summary, not the solutions")
    ("problem", po::value(&load.problem),
     "BurrTools files: the problem to solve, by name or number (1 = the first, the default)")
    ("max-nodes", po::value(&max_nodes),
     "refuse a puzzle whose exact-cover matrix has more nodes than this (default 20,000,000; "
     "up to 2,000,000,000)");
  // clang-format on
  add_search_options(opts, search);
  po::options_description hidden;
  hidden.add_options()("file", po::value(&file));
  po::variables_map vm;
  if (!parse_command(args, opts, hidden, "file", 1, vm)) return kExitOk;
  if (file.empty()) throw UsageError("expected a puzzle FILE");
  const int modes = static_cast<int>(vm.count("count") + vm.count("first") + vm.count("all"));
  if (modes > 1) throw UsageError("choose one of --count, --first and --all");
  std::optional<SymmetryMode> sym_mode = parse_symmetry_mode(symmetry);
  if (!sym_mode) {
    throw UsageError("expected --symmetry none, rotations or auto, found '" + symmetry + "'");
  }
  const std::string mode = vm.count("first") ? "first" : vm.count("all") ? "all" : "count";
  const bool expand = vm.count("expand") > 0;
  if (expand && mode == "count") throw UsageError("--expand lists solutions: add --all or --first");
  auto to_stdout = [](const std::string& p) { return p == "-" || p == "/dev/stdout"; };
  if (to_stdout(json_out) && to_stdout(jsonl_out)) {
    throw UsageError("--json - and --jsonl - would both write to standard output: choose one");
  }
  // With JSON on standard output, everything for people goes to standard error.
  const bool json_stdout = to_stdout(json_out) || to_stdout(jsonl_out);
  std::ostream& text = json_stdout ? std::cerr : std::cout;
  const bool keep = mode != "count";
  const bool print = keep && !vm.count("quiet");
  const bool colour = print && !json_stdout && stdout_wants_colour();

  if (!json_out.empty()) refuse_overwriting_input("json", json_out, {file, search.resume});
  if (!search.checkpoint.empty()) refuse_overwriting_input("checkpoint", search.checkpoint, {file});
  if (!search.resume.empty()) refuse_overwriting_input("resume", search.resume, {file});

  set_max_nodes(max_nodes);
  start_mpi(search, vm);  // --mpi: only rank 0 prints and writes files
  const bool root = search.rank == 0;
  load_resume(search);  // --resume: the checkpoint decides the symmetry mode and backend
  if (search.saved) {
    const CheckpointRun& r = search.saved_run;
    if (!vm["symmetry"].defaulted() && symmetry != r.symmetry) {
      throw UsageError("--symmetry " + symmetry + " differs from the checkpoint's '" + r.symmetry +
                       "' (leave it out: --resume takes it from the checkpoint)");
    }
    symmetry = r.symmetry;
    sym_mode = parse_symmetry_mode(symmetry);
    if (!sym_mode)
      throw InputError(search.resume, "run.symmetry", "expected none, rotations or auto");
    if (vm.count("backend") == 0) search.backend = r.backend;
  }
  g_activity = "reading and compiling the puzzle";
  std::unique_ptr<Puzzle> puzzle = load_puzzle(file, load);
  const Problem& pb = puzzle->problem();

  const std::vector<std::string> notes = puzzle->notes();
  if (const std::string why = puzzle->infeasible(); !why.empty()) {
    if (!root) return kExitOk;
    // No search: the reason is the answer (0 solutions, a normal result).
    std::cout << puzzle->name() << " (" << puzzle->kind() << ", " << with_commas(pb.num_items())
              << " items, " << with_commas(pb.num_options()) << " options)\n";
    for (const std::string& n : notes) std::cout << note_line(n) << "\n";
    std::cout << "no solution: " << why << "\nsolutions: 0\n";
    if (!json_out.empty()) {
      nlohmann::json j;
      j["puzzle"] = {{"file", file},
                     {"name", puzzle->name()},
                     {"kind", puzzle->kind()},
                     {"items", pb.num_items()},
                     {"options", pb.num_options()}};
      j["mode"] = mode;
      j["counts"] = {{"total", 0}, {"unique", 0}, {"group_order", 1}, {"symmetric", 0}};
      j["infeasible"] = {{"reason", why}};
      j["notes"] = notes;
      j["solutions"] = nlohmann::json::array();
      j["stats"] = {{"nodes", 0},       {"updates", 0},         {"seconds", 0.0},
                    {"complete", true}, {"interrupted", false}, {"threads", 0}};
      write_json(json_out, j);
    }
    return kExitOk;
  }

  install_stop_handlers();
  SolveLimits limits;
  limits.stop = &g_stop;
  limits.max_solutions = mode == "first" ? 1 : limit;
  if (mode == "first" && limit) limits.max_solutions = std::min<std::uint64_t>(limit, 1);

  g_activity = "preparing the search";
  const CubeGroup group = puzzle->symmetry_group(*sym_mode);
  const bool by_orbit = group.group.order() > 1;
  std::optional<SymmetricSolver> sym;
  if (by_orbit) sym.emplace(pb, group.group);
  const std::size_t kernel = sym ? sym->kernel() : 1;

  // The JSON outputs, opened (and their header buffered) before the search: a path that cannot
  // be written fails now, and nothing reaches it before the search has started.
  std::vector<std::unique_ptr<SolveStream>> streams;
  const nlohmann::json header = {{"puzzle",
                                  {{"file", file},
                                   {"name", puzzle->name()},
                                   {"kind", puzzle->kind()},
                                   {"items", pb.num_items()},
                                   {"options", pb.num_options()}}},
                                 {"mode", mode},
                                 {"expand", expand},
                                 {"symmetry",
                                  {{"mode", symmetry},
                                   {"order", group.group.order()},
                                   {"kernel", kernel},
                                   {"elements", group.symmetry},
                                   {"group", group_json(*puzzle, group)}}}};
  try {
    if (!json_out.empty() && root)
      streams.push_back(std::make_unique<SolveStream>(json_out, StreamFormat::kJson));
    if (!jsonl_out.empty() && root)
      streams.push_back(std::make_unique<SolveStream>(jsonl_out, StreamFormat::kJsonl));
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
  for (auto& st : streams) st->begin(header);

  std::uint64_t k = 0, classes = 0;
  auto emit = [&](std::span<const OptionId> s, std::uint64_t orbit, std::size_t element) {
    ++k;
    if (!streams.empty()) {
      nlohmann::json js = puzzle->solution_json(s);
      js["index"] = k;
      js["class"] = classes;
      js["orbit_size"] = orbit;
      js["element"] = element;
      for (auto& st : streams)
        if (!st->solution(js)) return false;  // the reader went away (`| head`): stop
    }
    if (print) {
      text << "Solution " << k;
      if (expand && by_orbit) {
        text << " (class " << with_commas(classes) << " of " << with_commas(orbit)
             << " solutions, symmetry element " << element << ")";
      } else if (by_orbit) {
        text << " (represents " << with_commas(orbit) << " up to symmetry)";
      }
      text << ":\n"
           << (colour ? puzzle->coloured_solution_text(s) : puzzle->solution_text(s)) << "\n";
      if (!json_stdout && !stdout_ok()) return false;  // nobody reads any more: stop searching
    }
    return true;
  };
  auto show = [&](std::span<const OptionId> s, std::uint64_t orbit) {
    ++classes;
    if (!expand || !sym) return emit(s, orbit, 0);
    for (const auto& [g, image] : orbit_of(*sym, s))
      if (!emit(image, orbit, g)) return false;
    return true;
  };
  ClassVisitor visitor(show);
  g_activity = "searching";
  // Counts alone of a puzzle that asks for it: by memo, unless a search option is given.
  std::optional<SearchOutcome> memo;
  MemoClasses memo_stats;
  if (!keep && limits.max_solutions == 0 && vm.count("backend") == 0 && search.checkpoint.empty() &&
      search.resume.empty() && search.shard.empty() && !search.mpi) {
    memo = count_by_memo(*puzzle, sym ? &*sym : nullptr, &g_stop, memo_stats);
  }
  const bool by_memo = memo.has_value();
  const SearchOutcome run = by_memo ? std::move(*memo)
                                    : run_search(pb, file, keep ? &visitor : nullptr, limits,
                                                 search, sym ? &*sym : nullptr, symmetry);
  if (!root) return kExitOk;  // rank 0 has the counts of all
  const JobResult& st = run.job;
  const JobCounts& sy = run.job.counts;
  const bool interrupted = st.stopped;

  text << printable(puzzle->name()) << " (" << puzzle->kind() << ", " << with_commas(pb.num_items())
       << " items, " << with_commas(pb.num_options()) << " options)\n";
  for (const std::string& n : notes) text << note_line(n) << "\n";
  // With symmetry, a search that stopped early has found whole classes: say how many, and how
  // many solutions they stand for ("1 class of 48", not "48" as if 48 had been found one by one).
  text << "solutions: ";
  if (st.complete || !by_orbit) {
    text << with_commas(sy.total);
  } else if (sy.unique == 1) {
    text << "1 class of " << with_commas(sy.total);
  } else {
    text << with_commas(sy.unique) << " classes, " << with_commas(sy.total) << " solutions in all";
  }
  if (!st.complete) {
    if (interrupted) {
      text << " (interrupted: counted so far)";
    } else if (limits.max_solutions == 1) {
      text << " (stopped at the first)";
    } else {
      text << " (stopped at the limit of " << with_commas(limits.max_solutions) << ")";
    }
  }
  text << "\n";
  if (by_orbit) {
    std::size_t reflections = 0;
    for (int m : group.symmetry) reflections += m >= 24;
    text << "unique: " << with_commas(sy.unique) << " up to " << group.group.order()
         << " symmetries (" << group.group.order() - reflections << " rotations, " << reflections
         << " reflections); " << with_commas(sy.symmetric) << " of them symmetric\n";
    if (kernel > 1) {
      text << "  (" << kernel - 1 << " of the symmetries move" << (kernel > 2 ? "" : "s")
           << " no cell, like the mirror in the plane of a flat puzzle: every class has at "
              "most "
           << group.group.order() / kernel << " solutions)\n";
    }
  }
  if (const auto rec = puzzle->recorded_counts()) {
    text << "recorded by " << rec->source << ":";
    if (rec->assemblies) text << " assemblies " << with_commas(*rec->assemblies);
    if (rec->solutions)
      text << (rec->assemblies ? "," : "") << " solutions " << with_commas(*rec->solutions);
    text << "\n  (BurrTools counts assemblies up to rotation and mirror images, as cubex's "
            "\"unique\" with --symmetry auto; its \"solutions\" are the assemblies that can "
            "also be taken apart, which cubex does not check)\n";
  }
  char rate[64];
  std::snprintf(rate, sizeof rate, "%.3f s, %.1f M nodes/s", st.seconds,
                st.seconds > 0 ? sy.nodes / st.seconds / 1e6 : 0.0);
  text << "nodes: " << with_commas(sy.nodes) << ", updates: " << with_commas(sy.updates) << ", "
       << rate << "\n";
  if (by_memo) {
    text << "  (counted by memo: " << with_commas(memo_stats.states)
         << " sub-problems, each counted once, in a table of "
         << with_commas(memo_stats.bytes >> 20)
         << " MiB; --backend links or bitset searches instead)\n";
  }

  if (!streams.empty()) {
    g_activity = "writing the JSON output";
    nlohmann::json footer = {{"counts",
                              {{"total", sy.total},
                               {"unique", sy.unique},
                               {"group_order", group.group.order()},
                               {"symmetric", sy.symmetric},
                               {"listed", k}}},
                             {"stats",
                              {{"nodes", sy.nodes},
                               {"updates", sy.updates},
                               {"seconds", st.seconds},
                               {"complete", st.complete},
                               {"interrupted", interrupted},
                               {"threads", st.threads}}},
                             {"search", run.json},
                             {"notes", notes}};
    if (const auto rec = puzzle->recorded_counts()) {
      nlohmann::json r = {{"source", rec->source}};
      if (rec->assemblies) r["assemblies"] = *rec->assemblies;
      if (rec->solutions) r["solutions"] = *rec->solutions;
      footer["recorded"] = r;
    }
    for (auto& out : streams) {
      try {
        out->end(footer);
      } catch (const std::runtime_error& e) {
        if (out->path() == "-" && out->error() == EPIPE)
          continue;  // the reader went away: a quiet end
        throw UsageError(e.what());
      }
    }
  }
  // An interrupted run of more than a minute without a checkpoint loses its work: say how to
  // keep it next time (stderr, so that the summary on stdout stays as it was).
  // (CUBEX_HINT_AFTER=SECONDS moves the minute, for the tests.)
  double hint_after = 60;
  if (const char* env = std::getenv("CUBEX_HINT_AFTER")) hint_after = std::atof(env);
  if (interrupted && search.checkpoint.empty() && st.seconds >= hint_after) {
    std::cerr << "interrupted after " << elapsed_text(st.seconds)
              << "; run with --checkpoint FILE to keep the work next time\n";
  }
  return interrupted ? kExitInterrupted : kExitOk;
}

}  // namespace cubex::cli
