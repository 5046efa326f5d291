// `cubex solve` with the designer's flags (docs/library-puzzles.md): --unique, --forced,
// --check and --csv, over one file or several. Each file is loaded and solved through the solve
// layer (cubex/solve.hpp) with the command line's options; a file that fails is reported and the
// others go on (exit 2 at the end).
//
//   cubex solve FILE --unique [--json OUT]      "unique" / "not unique (at least 2 classes)"
//   cubex solve FILE --forced [--json OUT]      the placements every solution uses
//   cubex solve FILE... --check                 counts against each file's "expect"
//   cubex solve FILE... --csv OUT|-             one row per file
#include <chrono>
#include <iostream>
#include <sstream>

#include "cli.hpp"
#include "cubex/cubex.hpp"
#include "cubex/library/designer.hpp"
#include "cubex/library/library.hpp"
#include "cubex/util/files.hpp"
#include "cubex/util/json.hpp"

namespace cubex::cli {

namespace {

// A count disagrees with the published one (--check).
constexpr int kExitDisagree = 3;

// The expected counts of a JSON file, or nullopt (with the reason in `why`).
std::optional<library::Expect> expected(const std::string& path, std::string& why) {
  try {
    return library::parse_expect(read_json_file(library::resolve(path)), path);
  } catch (const std::exception& e) {
    why = e.what();
    return std::nullopt;
  }
}

}  // namespace

int solve_designer(const std::vector<std::string>& files, const Options& given,
                   const std::string& json_out, bool quiet) {
  if (!json_out.empty() && files.size() > 1)
    throw UsageError("--json writes one file's result: with several FILEs use --csv");
  if (!given.csv.empty()) refuse_overwriting_input("csv", given.csv, files);
  if (!json_out.empty()) refuse_overwriting_input("json", json_out, files);
  const bool csv_stdout = given.csv == "-" || given.csv == "/dev/stdout";
  // With the CSV on standard output, everything for people goes to standard error.
  std::ostream& text = csv_stdout ? std::cerr : std::cout;
  install_stop_handlers();
  std::string csv = library::csv_header() + "\n";
  bool failed = false, disagree = false, interrupted = false;
  for (const std::string& file : files) {
    if (g_stop.load()) {
      interrupted = true;
      break;
    }
    library::CsvRow row;
    row.file = file;
    const auto start = std::chrono::steady_clock::now();
    try {
      Options o = given;
      o.stop = &g_stop;
      std::optional<library::Expect> expect;
      if (o.check) {
        std::string why;
        expect = expected(file, why);
        if (!expect) throw InputError(file, "--check needs the file's \"expect\": " + why);
        // The published counts' symmetry, unless the command line chose one.
        if (!o.symmetry) o.symmetry = parse_symmetry(expect->symmetry);
      }
      g_activity = "reading and compiling the puzzle";
      std::unique_ptr<Puzzle> puzzle = load(file, o);
      row.name = puzzle->name();
      row.kind = puzzle->kind();
      row.items = puzzle->problem().num_items();
      row.options = puzzle->problem().num_options();
      g_activity = "searching";
      nlohmann::json extra;  // added to --json's counts (unique_verdict) or top level (forced)
      if (o.unique) {
        const library::UniqueVerdict v = library::unique_verdict(*puzzle, o);
        text << file << ": " << v.text() << "\n";
        extra["unique_verdict"] = v.json_value();
        row.nodes = v.nodes;
        row.unique = v.classes;
        row.complete = false;  // stopped at the second class: not a count
        interrupted = interrupted || !v.complete;
      }
      if (o.forced) {
        const library::Forced f = library::forced_options(*puzzle, o);
        const library::ForcedReport rep = library::describe_forced(*puzzle, f);
        text << file << ": " << with_commas(f.solutions) << " solutions; "
             << (f.solutions == 0 ? std::string("no solution, nothing forced")
                                  : with_commas(f.options.size()) + " placements in every one")
             << (f.complete ? "" : " (stopped early: not a proof)") << "\n";
        if (!quiet)
          for (const std::string& p : rep.placements) text << "  forced: " << p << "\n";
        if (!rep.fixed_pieces.empty()) {
          text << "  pieces whose position is fixed:";
          for (const std::string& p : rep.fixed_pieces) text << " " << p;
          text << "\n";
        }
        extra["forced"] = {{"solutions", f.solutions},
                           {"complete", f.complete},
                           {"options", f.options},
                           {"placements", rep.placements},
                           {"fixed_pieces", rep.fixed_pieces}};
        row.total = f.solutions;
        row.nodes = f.nodes;
        row.complete = f.complete;
        interrupted = interrupted || !f.complete;
      }
      if (!o.unique && !o.forced) {
        Plan plan(*puzzle, o);
        const Result r = plan.run();
        row.total = r.counts.total.saturated();
        row.unique = r.counts.unique.saturated();
        row.symmetric = r.counts.symmetric.saturated();
        row.nodes = r.nodes;
        row.complete = r.counts.complete && !r.interrupted;
        interrupted = interrupted || r.interrupted;
        if (expect) {
          const library::CheckResult c =
              library::check_counts(*expect, r.counts.total.saturated(), r.counts.unique.saturated());
          text << file << ": " << c.text << "\n";
          disagree = disagree || !c.agree;
        } else if (!csv_stdout || !quiet) {
          text << file << ": total " << with_commas(r.counts.total) << ", unique "
               << with_commas(r.counts.unique) << (row.complete ? "" : " (incomplete)") << "\n";
        }
        if (!json_out.empty()) write_json(json_out, result_json(plan, r, "count"));
      } else if (!json_out.empty()) {
        Plan plan(*puzzle, o);  // the header: puzzle and symmetry, as `solve --json` writes it
        nlohmann::json j = plan.header_json(o.unique ? "unique" : "forced");
        j["counts"] = {{"total", row.total},
                       {"unique", row.unique},
                       {"group_order", o.forced ? 1 : plan.group().group.order()},
                       {"symmetric", 0},
                       {"listed", 0}};
        if (extra.contains("unique_verdict"))
          j["counts"]["unique_verdict"] = extra["unique_verdict"];
        if (extra.contains("forced")) j["forced"] = extra["forced"];
        j["stats"] = {{"nodes", row.nodes}, {"complete", row.complete}};
        write_json(json_out, j);
      }
    } catch (const std::bad_alloc&) {
      throw;
    } catch (const UsageError&) {
      throw;  // the command line is wrong for every file
    } catch (const Interrupted&) {
      interrupted = true;  // a signal while the file was read and compiled: stop here
      break;
    } catch (const std::exception& e) {
      row.error = printable(e.what(), true);
      std::cerr << "cubex: " << row.error << "\n";
      failed = true;
    }
    row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    csv += library::csv_line(row) + "\n";
  }
  if (!given.csv.empty()) {
    if (csv_stdout) {
      std::cout << csv;
    } else {
      try {
        write_file_atomic(given.csv, csv);
      } catch (const std::runtime_error& e) {
        throw UsageError(e.what());
      }
    }
  }
  if (interrupted) return kExitInterrupted;
  if (failed) return kExitBadInput;
  return disagree ? kExitDisagree : kExitOk;
}

}  // namespace cubex::cli
