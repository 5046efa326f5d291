// cubex solve FILE [--count | --first | --all] [--json OUT] [--jsonl OUT] [--quiet]
//                  [--progress [SECONDS]] [--mpi] [the options of the solve layer's table]
//
// A client of the solve layer (cubex/solve.hpp): it parses the command line into cubex::Options,
// prints the solutions and the summary, and streams the JSON outputs. Every decision on how to
// answer (checks, memo or search, symmetry, threads, checkpoints) is the solve layer's.
#include <algorithm>
#include <boost/program_options.hpp>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>

#include "cli.hpp"
#include "cubex/cubex.hpp"
#include "cubex/formats.hpp"
#include "cubex/output/checkpoint.hpp"
#include "cubex/output/solve_output.hpp"
#include "search.hpp"

namespace po = boost::program_options;

namespace cubex::cli {

namespace {

// Adds the rows of the options table (cubex/options.hpp) to `opts`.
void add_table_options(po::options_description& opts) {
  for (const OptionRow& row : option_table()) {
    if (row.value) {
      opts.add_options()(row.name, po::value<std::string>()->value_name(row.value), row.help);
    } else {
      opts.add_options()(row.name, row.help);
    }
  }
}

// The options of the table that the command line gave, checked and stored.
Options table_options(const po::variables_map& vm) {
  Options o;
  for (const OptionRow& row : option_table()) {
    if (!vm.count(row.name)) continue;
    row.set(o, row.value ? vm[row.name].as<std::string>() : std::string("yes"));
  }
  return o;
}

double progress_seconds(const std::string& s) {
  if (s.empty()) return 0;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0' || !std::isfinite(v) || v < 0.01 || v > 1e7) {
    throw UsageError("expected --progress SECONDS, a number from 0.01 to 10000000, found '" +
                     excerpt(s) + "'");
  }
  return v;
}

// "0.32 s" under a minute, else "1:02:03" (elapsed_text).
std::string seconds_text(double s) {
  if (s >= 60) return elapsed_text(s);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f s", s);
  return buf;
}

// What --resume goes on with, for stderr: the checkpoint, its mode and how far it had got.
std::string resume_text(const std::string& path) {
  CheckpointRun run;
  const JobState st = read_checkpoint(path, &run);
  std::string out =
      "resuming the search saved in " + printable(path) + " (--symmetry " + run.symmetry + "): ";
  const std::string found = with_commas(st.counts.total) + " solution" +
                            (st.counts.total == 1 ? "" : "s") + " and " +
                            with_commas(st.counts.nodes) + " nodes in " + seconds_text(st.seconds);
  if (st.complete()) return out + "it had finished (" + found + "): nothing is left to search\n";
  char done[32];
  const double f = st.weight_total > 0 ? st.weight_done / st.weight_total : 0;
  std::snprintf(done, sizeof done, "%.1f%% done", 100 * std::min(1.0, std::max(0.0, f)));
  return out + done + ", " + found + " so far\n";
}

}  // namespace

int cmd_solve(const std::vector<std::string>& args) {
  po::options_description opts(
      "usage: cubex solve FILE [--count | --first | --all] [--limit N] [--json OUT]\n"
      "                   [--jsonl OUT] [--expand] [--symmetry none|rotations|auto]\n"
      "                   [--problem NAME|INDEX]\n\n"
      "Solves the puzzle in FILE. The format follows the extension:\n" +
      formats_help() + "\noptions");
  std::string file, json_out, jsonl_out, progress;
  double hint_after = 60;
  double progress_after = 1;
  MpiRank mpi;
  // clang-format off
  opts.add_options()
    ("help,h", "show this help")
    ("count", "count the solutions (the default)")
    ("first", "find and print the first solution")
    ("all", "print every solution (and put them in --json)")
    ("json", po::value(&json_out)->value_name("OUT"),
     "write counts, solutions and statistics to OUT as JSON (schema cubex-solve/1), solutions "
     "streamed as they are found; '-' is standard output (the summary then goes to stderr)")
    ("jsonl", po::value(&jsonl_out)->value_name("OUT"),
     "the same as JSON lines: a header line, a line per solution, an end line with the counts")
    ("quiet,q", "print only the summary, not the solutions")
    ("progress", po::value(&progress)->implicit_value("10")->value_name("SECONDS"),
     "print a progress line to stderr every SECONDS (default 10), also into logs")
    ("mpi", po::bool_switch(&mpi.on),
     "one search over the ranks of `mpirun -n N cubex solve ... --mpi` (each with --threads); "
     "rank 0 hands out the work, prints, writes --json and the checkpoint (needs a cubex "
     "built with -DCUBEX_MPI=ON)");
  // clang-format on
  add_table_options(opts);
  po::options_description hidden;
  // --hint-after SECONDS: how long an interrupted run without a checkpoint must have run before
  // the hint to use one is printed (a minute; the tests shorten it). --progress-after SECONDS:
  // how long a run goes before its progress line shows on a terminal (a second; the tests too).
  std::vector<std::string> files;  // several with --csv or --check (cmd_solve_designer.cpp)
  hidden.add_options()("file", po::value(&files))("hint-after", po::value(&hint_after))(
      "progress-after", po::value(&progress_after));
  po::variables_map vm;
  if (!parse_command(args, opts, hidden, "file", -1, vm)) return kExitOk;
  if (files.empty()) throw UsageError("expected a puzzle FILE");
  if (files.size() > 1 || vm.count("unique") || vm.count("forced") || vm.count("check") ||
      vm.count("csv")) {
    return solve_designer(files, table_options(vm), json_out, vm.count("quiet") > 0);
  }
  file = files.front();
  const int modes = static_cast<int>(vm.count("count") + vm.count("first") + vm.count("all"));
  if (modes > 1) throw UsageError("choose one of --count, --first and --all");
  Options o = table_options(vm);
  const std::string mode = vm.count("first") ? "first" : vm.count("all") ? "all" : "count";
  if (o.expand && mode == "count") throw UsageError("--expand lists solutions: add --all or --first");
  if (mode == "first") o.limit = 1;
  const double progress_every = progress_seconds(progress);
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

  // No output may replace an input: the puzzle, the checkpoint resumed.
  if (!json_out.empty()) refuse_overwriting_input("json", json_out, {file, o.resume});
  if (!jsonl_out.empty()) refuse_overwriting_input("jsonl", jsonl_out, {file, o.resume});
  if (!json_out.empty() && !jsonl_out.empty() && !to_stdout(json_out))
    refuse_overwriting_input("jsonl", jsonl_out, {json_out});
  if (!o.checkpoint.empty()) {
    refuse_overwriting_input("checkpoint", o.checkpoint, {file, json_out, jsonl_out});
  }
  if (!o.resume.empty()) refuse_overwriting_input("resume", o.resume, {file});

  start_mpi(mpi, vm, o);  // --mpi: only rank 0 prints and writes files
  o.distributor = mpi.distributor.get();
  g_activity = "reading and compiling the puzzle";
  std::unique_ptr<Puzzle> puzzle;
  std::optional<Plan> plan;
  ProgressLine line;
  // A signal from here on ends the run within about a second in every phase (cubex/stop.hpp):
  // reading and compiling throw Interrupted (exit 130, nothing written), a stop while the plan
  // is made gives an interrupted Result, the search stops as it always did.
  install_stop_handlers();
  o.stop = &g_stop;
  PhaseLine phases(mpi.root() ? progress_every : 0, progress_after);
  o.phases = phases.board();
  try {
    puzzle = load(file, o);
    line = progress_line(progress_every, progress_after);
    if (line.report && mpi.root()) {
      o.on_progress = [&phases, report = line.report](const Progress& p) {
        phases.stop();  // the search's own lines take over
        report(p);
      };
      o.progress_seconds = line.seconds;
    }
    o.on_checkpoint_error = [&](const std::string& e) {
      std::cerr << "cubex: warning: could not write the checkpoint (the search goes on): "
                << printable(e) << "\n";
    };
    g_activity = "preparing the search";
    plan.emplace(*puzzle, o);
    if (!o.resume.empty() && mpi.root()) std::cerr << resume_text(o.resume) << std::flush;
  } catch (const Interrupted& e) {
    phases.stop();
    mpi.fail(std::string("interrupted while ") + e.phase(), kExitInterrupted);
    throw;
  } catch (const std::exception& e) {
    // Under MPI the other ranks would wait for this one: end them all, with the reader's message.
    const auto* err = dynamic_cast<const Error*>(&e);
    mpi.fail(e.what(), err && err->kind() != Error::Kind::internal ? kExitBadInput : kExitInternal);
    throw;
  }
  const bool root = mpi.root();

  // The JSON outputs, opened (and their header buffered) before the search: a path that cannot
  // be written fails now, and nothing reaches it before the search has started.
  std::vector<std::unique_ptr<SolveStream>> streams;
  try {
    if (!json_out.empty() && root)
      streams.push_back(std::make_unique<SolveStream>(json_out, StreamFormat::kJson));
    if (!jsonl_out.empty() && root)
      streams.push_back(std::make_unique<SolveStream>(jsonl_out, StreamFormat::kJsonl));
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
  const nlohmann::json header = plan->header_json(mode);
  for (auto& st : streams) st->begin(header);

  const bool by_orbit = plan->group().group.order() > 1;
  auto sink = [&](const Solution& s) {
    if (!streams.empty()) {
      nlohmann::json js = puzzle->solution_json(s.options);
      js["index"] = s.index;
      js["class"] = s.class_index;
      js["orbit_size"] = s.orbit;
      js["element"] = s.element;
      if (o.disassemble)
        js["disassembly"] = s.disassembly ? disassembly::to_json(*s.disassembly) : nullptr;
      for (auto& st : streams)
        if (!st->solution(js)) return false;  // the reader went away (`| head`): stop
    }
    if (print) {
      text << "Solution " << s.index;
      if (o.expand && by_orbit) {
        text << " (class " << with_commas(s.class_index) << " of " << with_commas(s.orbit)
             << " solutions, symmetry element " << s.element << ")";
      } else if (by_orbit) {
        text << " (represents " << with_commas(s.orbit) << " up to symmetry)";
      }
      if (s.disassembly) {
        text << (s.disassembly->status == disassembly::Status::kApart
                     ? ", level " + s.disassembly->level_text()
                     : std::string(", does not come apart"));
      }
      text << ":\n"
           << (colour ? puzzle->coloured_solution_text(s.options)
                      : puzzle->solution_text(s.options))
           << "\n";
      if (!json_stdout && !stdout_ok()) return false;  // nobody reads any more: stop searching
    }
    return true;
  };
  g_activity = "searching";
  Result r;
  try {
    r = keep ? plan->run(sink) : plan->run();
  } catch (const std::exception& e) {
    const auto* err = dynamic_cast<const Error*>(&e);
    mpi.fail(e.what(), err && err->kind() != Error::Kind::internal ? kExitBadInput : kExitInternal);
    throw;
  }
  phases.stop();
  line.finish();
  if (!root) return kExitOk;  // rank 0 has the counts of all

  text << summary_text(*plan, r);
  if (!streams.empty()) {
    g_activity = "writing the JSON output";
    const nlohmann::json footer = footer_json(*plan, r);
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
  const std::string checkpoint = !o.checkpoint.empty() ? o.checkpoint : o.resume;
  if (!r.checkpoint_error.empty()) {
    throw UsageError("the counts above are as the search found them, but the checkpoint could "
                     "not be written: " + r.checkpoint_error);
  }
  if (r.interrupted && !checkpoint.empty() && !r.stopped_in) {
    std::cerr << "saved the search in " << checkpoint << "; go on with: cubex solve " << file
              << " --resume " << checkpoint << "\n";
  }
  // An interrupted run of more than a minute without a checkpoint loses its work: say how to
  // keep it next time (stderr, so that the summary on stdout stays as it was).
  if (r.interrupted && checkpoint.empty() && r.seconds >= hint_after) {
    std::cerr << "interrupted after " << elapsed_text(r.seconds)
              << "; run with --checkpoint FILE to keep the work next time\n";
  }
  return r.interrupted ? kExitInterrupted : kExitOk;
}

}  // namespace cubex::cli
