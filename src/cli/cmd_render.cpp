// cubex render FILE [--solution K] --svg OUT.svg | --html OUT.html [--from SOLUTIONS.json]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>

#include "cli.hpp"
#include "cubex/core/solver.hpp"
#include "cubex/error.hpp"
#include "cubex/puzzle.hpp"
#include "cubex/render/html.hpp"
#include "cubex/render/steps.hpp"
#include "cubex/render/stl.hpp"
#include "cubex/render/svg.hpp"
#include "cubex/solve.hpp"
#include "cubex/symmetry.hpp"
#include "cubex/util/files.hpp"
#include "cubex/util/json.hpp"

namespace po = boost::program_options;

namespace cubex::cli {
namespace {

void write_output(const std::string& path, const std::string& content) {
  try {
    write_file_atomic(path, content);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
}

}  // namespace

int cmd_render(const std::vector<std::string>& args) {
  po::options_description opts(
      "usage: cubex render FILE [--solution K] --svg OUT.svg | --html OUT.html | --stl DIR\n"
      "                         [--from SOLUTIONS.json] [--limit N]\n"
      "                         [--symmetry none|rotations|auto]\n"
      "                         [--unit MM] [--gap MM] [--bevel MM] [--problem P]\n"
      "                         [--disassemble]\n\n"
      "Draws solutions of the puzzle in FILE (a voxel or Happy Cube puzzle). The solutions are\n"
      "found by solving FILE, or read with --from from a 'cubex solve FILE --json' output.\n"
      "By default one solution per symmetry class is drawn (turned or mirrored copies of it\n"
      "are left out), with the number of solutions it stands for; --symmetry none draws all.\n"
      "  --svg   solution K as a picture: voxel puzzles as the assembled cube in isometric view\n"
      "          beside each piece alone (flat puzzles as a 2-D drawing); Happy Cube as the net\n"
      "          with every plate in its place and the folded cube\n"
      "  --html  a self-contained 3-D viewer (no network): drag to turn, a slider to explode the\n"
      "          pieces, left and right arrows to step through the solutions\n"
      "  --stl   solution K for 3-D printing: one binary STL per piece (lying flat) and\n"
      "          assembly.stl with every piece in its place; millimetres, --gap MM apart,\n"
      "          edges chamfered by --bevel MM\n"
      "  --disassemble  take the solutions apart, as 'cubex solve --disassemble': only those\n"
      "          that come apart are drawn; the viewer plays each one's moves, --svg draws the\n"
      "          moves of solution K as a strip of steps\n\n"
      "options");
  std::string file, svg_out, html_out, from, stl_dir, symmetry = "auto";
  LoadOptions load;
  render::StlOptions stl;
  XmlLimitFlags xml;
  std::uint64_t k = 1, limit = 100;
  bool disassemble = false;
  // clang-format off
  opts.add_options()
    ("help,h", "show this help")
    ("solution", po::value(&k), "which solution to draw, 1 = the first (default 1)")
    ("svg", po::value(&svg_out), "write solution K as SVG to OUT.svg")
    ("html", po::value(&html_out), "write the 3-D viewer to OUT.html, opening at solution K")
    ("from", po::value(&from), "read the solutions from SOLUTIONS.json instead of solving")
    ("limit", po::value(&limit), "the viewer shows at most N solutions (default 100)")
    ("stl", po::value(&stl_dir), "write solution K as STL files into the folder DIR")
    ("problem", po::value(&load.problem),
     "BurrTools files: the problem, by name or number (default the first)")
    ("unit", po::value(&stl.unit), "STL: the edge of a cell in mm (default 10)")
    ("gap", po::value(&stl.gap),
     "STL: the space between two pieces that touch, in mm (default 0.2; more than 0); each "
     "piece shrinks by half of it on every side")
    ("bevel", po::value(&stl.bevel),
     "STL: chamfer the pieces' convex edges by MM, at 45 degrees (default 0: sharp edges; "
     "else 0.01 or more and less than (unit - gap) / 2); concave edges stay sharp")
    ("symmetry", po::value(&symmetry),
     "auto (default): one solution per class of solutions that are turned or mirrored copies of "
     "each other, as 'cubex solve' counts them; rotations: classes under rotations only; none: "
     "every solution (turned copies too). Applies when render solves FILE; a --from file is "
     "drawn as listed")
    ("disassemble", po::bool_switch(&disassemble),
     "draw the solutions that come apart, with their moves: the viewer plays them, --svg draws "
     "them as a strip of steps (voxel puzzles; not with --from or --stl)");
  // clang-format on
  add_xml_limit_options(opts, xml);
  po::options_description hidden;
  hidden.add_options()("file", po::value(&file));
  po::variables_map vm;
  if (!parse_command(args, opts, hidden, "file", 1, vm)) return kExitOk;
  if (file.empty()) throw UsageError("expected a puzzle FILE");
  apply_xml_limits(xml, load.limits);
  if (svg_out.empty() && html_out.empty() && stl_dir.empty())
    throw UsageError("expected --svg OUT.svg or --html OUT.html (or --stl DIR)");
  // The limits keep every triangle of the STL file non-degenerate in its 32-bit floats: a cell
  // of at least 0.1 mm, a gap of at least 0.01 mm and a thousandth of the cell.
  if (!stl_dir.empty() && !(stl.unit >= 0.1 && stl.unit <= 1000)) {
    std::ostringstream msg;
    msg << "expected --unit from 0.1 to 1000 mm, found " << stl.unit;
    throw UsageError(msg.str());
  }
  if (!stl_dir.empty() && !(stl.gap >= 0.01 && stl.gap >= stl.unit / 1000 && stl.gap < stl.unit)) {
    std::ostringstream msg;
    msg << "expected --gap of at least 0.01 mm and " << stl.unit / 1000
        << " mm (a thousandth of --unit), and less than --unit, found " << stl.gap;
    throw UsageError(msg.str());
  }
  if (!stl_dir.empty() && stl.bevel != 0 &&
      !(stl.bevel >= render::kMinBevel && stl.bevel < render::max_bevel(stl.unit, stl.gap))) {
    std::ostringstream msg;
    msg << "expected --bevel 0 (sharp edges) or at least " << render::kMinBevel << " and less than "
        << render::max_bevel(stl.unit, stl.gap) << " mm (half of --unit minus --gap), found "
        << stl.bevel;
    throw UsageError(msg.str());
  }
  if (k == 0) throw UsageError("--solution counts from 1, found 0");
  if (limit == 0) throw UsageError("--limit must be at least 1");
  const std::optional<SymmetryMode> sym_mode = parse_symmetry_mode(symmetry);
  if (!sym_mode) {
    throw UsageError("expected --symmetry none, rotations or auto, found '" + symmetry + "'");
  }
  if (!from.empty() && vm.count("symmetry")) {
    throw UsageError(
        "--symmetry chooses which solutions render finds; a --from file is drawn as listed "
        "(write it with 'cubex solve FILE --all --symmetry ... --json OUT')");
  }

  if (disassemble && (!from.empty() || !stl_dir.empty()))
    throw UsageError(
        "--disassemble takes apart the solutions render finds: leave out --from and --stl");

  for (const std::string* out : {&svg_out, &html_out}) {
    if (!out->empty())
      refuse_overwriting_input(out == &svg_out ? "svg" : "html", *out, {file, from});
  }
  if (!stl_dir.empty()) check_output_folder("stl", stl_dir);

  g_activity = "reading and compiling the puzzle";
  std::unique_ptr<Puzzle> puzzle = load_puzzle(file, load);
  // The solutions to draw: K for the picture, up to max(K, limit) for the viewer.
  const std::uint64_t want = html_out.empty() ? k : std::max(k, limit);
  std::vector<nlohmann::json> sols;
  // orbit[i]: how many solutions sols[i] stands for (its class under the symmetry group); 0
  // when not known (a --from file written without symmetry).
  std::vector<std::uint64_t> orbit;
  // With --disassemble: the moves of each solution.
  std::vector<render::Steps> steps;
  bool all_found = true;
  std::uint64_t total = 0;  // all solutions, when all_found and every orbit is known
  // When the listing stopped at the limit: the classes and solutions there are in all, where a
  // count of all (or the --from file's complete counts) says.
  std::optional<Count> classes, everything;
  if (!from.empty()) {
    const nlohmann::json doc = read_json_file(from);
    if (!doc.is_object() || !doc.contains("solutions") || !doc["solutions"].is_array()) {
      throw InputError(from, "", "expected an object with a \"solutions\" array");
    }
    const auto& list = doc["solutions"];
    for (std::size_t i = 0; i < list.size() && i < want; ++i) {
      sols.push_back(list[i]);
      const auto o = list[i].is_object() && list[i].contains("orbit_size")
                         ? json_int(list[i]["orbit_size"], 1, std::int64_t(1) << 62)
                         : std::nullopt;
      orbit.push_back(o ? std::uint64_t(*o) : 0);
    }
    all_found = list.size() <= want;
    // Written by `cubex solve --json` after a complete count: the number of classes in all.
    const nlohmann::json* c = doc.contains("counts") ? &doc["counts"] : nullptr;
    const bool complete = doc.contains("stats") && doc["stats"].is_object() &&
                          doc["stats"].value("complete", false) == true;
    if (complete && c && c->is_object() && c->contains("unique") &&
        (*c)["unique"].is_number_unsigned() && c->contains("total") &&
        (*c)["total"].is_number_unsigned()) {
      classes = (*c)["unique"].get<std::uint64_t>();
      everything = (*c)["total"].get<std::uint64_t>();
    }
  } else {
    install_stop_handlers();
    Options o;
    o.symmetry = parse_symmetry(symmetry);
    o.limit = want;
    o.threads = 1;
    o.stop = &g_stop;
    o.disassemble = disassemble;
    g_activity = disassemble ? "solving the puzzle and taking it apart" : "solving the puzzle";
    const Result r = solve(*puzzle, o, [&](const Solution& s) {
      sols.push_back(puzzle->solution_json(s.options));
      orbit.push_back(s.orbit);
      if (s.disassembly) {
        const std::optional<render::Scene> sc = puzzle->scene(sols.back());
        steps.push_back(sc ? render::scene_steps(*sc, *s.disassembly) : render::Steps{});
      }
      return true;
    });
    all_found = r.counts.complete;
    if (r.interrupted) return kExitInterrupted;
    if (!all_found && !html_out.empty()) {
      // The viewer shows the first classes: say of how many (a count of all, on every thread),
      // where that count ends within kCountSeconds; otherwise the page says "the first N".
      constexpr double kCountSeconds = 5;
      g_activity = "counting the solutions";
      std::atomic<bool> stop_count{false};
      const auto start = std::chrono::steady_clock::now();
      o.limit = 0;
      o.threads = 0;
      o.stop = &stop_count;
      o.progress_seconds = 0.1;
      o.on_progress = [&](const Progress&) {
        const std::chrono::duration<double> spent = std::chrono::steady_clock::now() - start;
        if (g_stop.load() || spent.count() > kCountSeconds) stop_count = true;
      };
      const Result all = solve(*puzzle, o);
      if (g_stop.load()) return kExitInterrupted;
      if (all.counts.complete && !all.interrupted) {
        classes = all.counts.unique;
        everything = all.counts.total;
        all_found = *classes == sols.size();  // the limit was the count
      }
    }
  }
  const bool by_class = std::any_of(orbit.begin(), orbit.end(), [](auto n) { return n > 1; });
  const bool orbits_known = std::none_of(orbit.begin(), orbit.end(), [](auto n) { return n == 0; });
  for (std::uint64_t n : orbit) total += n;
  const std::string source = from.empty() ? file : from;
  if (sols.size() < k) {
    throw InputError(
        source, "expected at least " + std::to_string(k) + " solution(s) for --solution " +
                    std::to_string(k) + ", found " + std::to_string(sols.size()) +
                    (disassemble ? " that come apart" : "") +
                    (by_class ? " up to symmetry (--symmetry none counts every solution)" : ""));
  }

  g_activity = "drawing the solutions";
  // Every solution drawn is re-checked first (a --from file may be stale or edited).
  std::vector<render::Scene> scenes;
  const std::size_t first = html_out.empty() ? k - 1 : 0;
  // (scenes[k - first - 1] is solution K.)
  const std::size_t last = html_out.empty() ? k : sols.size();
  for (std::size_t i = first; i < last; ++i) {
    const std::string why = puzzle->verify_solution(sols[i]);
    if (!why.empty()) {
      throw InputError(source, from.empty() ? "" : "solutions[" + std::to_string(i) + "]", why);
    }
    std::optional<render::Scene> sc = puzzle->scene(sols[i]);
    if (!sc) {
      throw UsageError(
          "cannot draw " + puzzle->kind() +
          " puzzles: they have no geometry (render draws voxel and happy-cube puzzles)");
    }
    if (by_class && orbit[i] > 0) sc->note = "stands for " + with_commas(orbit[i]) + " solutions";
    scenes.push_back(std::move(*sc));
  }
  // "solution 3 of 240 up to symmetry" or "solution 3 of 11,520"
  const std::string what =
      std::string(disassemble ? " that come apart" : "") + (by_class ? " up to symmetry" : "");
  const std::string what_one =
      std::string(disassemble ? " that comes apart" : "") + (by_class ? " up to symmetry" : "");

  if (!svg_out.empty()) {
    const render::Scene& sc = scenes[html_out.empty() ? 0 : k - 1];
    const render::Steps none;
    const render::Steps& st = k - 1 < steps.size() ? steps[k - 1] : none;
    // ("the only solution" only when render solved FILE: a --from file may hold the first only)
    std::string caption =
        all_found && by_class && sols.size() == 1 && from.empty()
            ? "the only solution" + what_one
            : "solution " + with_commas(k) +
                  (all_found ? " of " + with_commas(sols.size()) + what : what_one);
    if (!sc.note.empty()) caption += " (" + sc.note + ")";
    write_output(svg_out,
                 st.moves.empty() ? render::svg(sc, caption) : render::svg_steps(sc, st, caption));
    std::cout << "wrote " << svg_out << ": " << caption << "\n";
  }
  if (!html_out.empty()) {
    // "the first 100 solutions up to symmetry", "all 240 solutions up to symmetry (11,520 in
    // all)"; a --from file may hold some classes only: their solutions are not "all".
    const std::string count = with_commas(sols.size()) + " solutions" + what;
    std::string note;
    if (!all_found && classes) {
      // "the first 100 of 1,264 solutions up to symmetry (60,672 in all; --limit N for more)"
      note = "the first " + with_commas(sols.size()) + " of " + with_commas(*classes) +
             " solutions" + what +
             (by_class && everything ? " (" + with_commas(*everything) + " in all; " : " (") +
             "--limit N for more)";
    } else if (!all_found) {
      note = "the first " + count + " (--limit N for more)";
    } else if (sols.size() == 1) {
      note = (from.empty() ? "the only solution" : "1 solution") + what_one;
    } else {
      note = "all " + count;
    }
    if (all_found && by_class && orbits_known) {
      note += from.empty() ? " (" + with_commas(total) + " in all)"
                           : " (standing for " + with_commas(total) + ")";
    }
    write_output(html_out, render::html(scenes, k - 1, note, steps));
    std::cout << "wrote " << html_out << ": " << note << "\n";
  }
  if (!stl_dir.empty()) {
    const render::Scene& sc = scenes[k - 1 - first];
    const std::vector<render::StlFile> files = render::scene_stl(sc, stl);
    std::error_code ec;
    std::filesystem::create_directories(stl_dir, ec);
    if (ec) throw UsageError("cannot create " + stl_dir + ": " + ec.message());
    for (const render::StlFile& f : files) {
      const std::string path = (std::filesystem::path(stl_dir) / f.name).string();
      refuse_overwriting_input("stl", path, {file, from});
      write_output(path, f.data);
      std::cout << "wrote " << path << ": " << f.cells << " cells, " << with_commas(f.mesh.size())
                << " triangles\n";
    }
  }
  return kExitOk;
}

}  // namespace cubex::cli
