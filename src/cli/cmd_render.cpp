// cubex render FILE [--solution K] --svg OUT.svg | --html OUT.html [--from SOLUTIONS.json]
#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>

#include "cli.hpp"
#include "cubex/core/solver.hpp"
#include "cubex/error.hpp"
#include "cubex/io/files.hpp"
#include "cubex/puzzle.hpp"
#include "cubex/render/html.hpp"
#include "cubex/render/stl.hpp"
#include "cubex/render/svg.hpp"

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
      "                         [--unit MM] [--gap MM] [--bevel MM]\n\n"
      "Draws solutions of the puzzle in FILE (a voxel or Happy Cube puzzle). The solutions are\n"
      "found by solving FILE, or read with --from from a 'cubex solve FILE --json' output.\n"
      "  --svg   solution K as a picture: voxel puzzles as the assembled cube in isometric view\n"
      "          beside each piece alone (flat puzzles as a 2-D drawing); Happy Cube as the net\n"
      "          with every plate in its place and the folded cube\n"
      "  --html  a self-contained 3-D viewer (no network): drag to turn, a slider to explode the\n"
      "          pieces, left and right arrows to step through the solutions\n"
      "  --stl   solution K for 3-D printing: one binary STL per piece (lying flat) and\n"
      "          assembly.stl with every piece in its place; millimetres, --gap MM apart\n\n"
      "options");
  std::string file, svg_out, html_out, from, stl_dir;
  LoadOptions load;
  render::StlOptions stl;
  std::uint64_t k = 1, limit = 100;
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
     "STL: chamfer the pieces' edges by MM; not implemented yet, only 0 (sharp edges)");
  // clang-format on
  po::options_description hidden;
  hidden.add_options()("file", po::value(&file));
  po::variables_map vm;
  if (!parse_command(args, opts, hidden, "file", 1, vm)) return kExitOk;
  if (file.empty()) throw UsageError("expected a puzzle FILE");
  if (svg_out.empty() && html_out.empty() && stl_dir.empty())
    throw UsageError("expected --svg OUT.svg or --html OUT.html (or --stl DIR)");
  if (!stl_dir.empty() && !(stl.unit > 0 && stl.unit <= 1000))
    throw UsageError("expected --unit between 0 and 1000 mm");
  if (!stl_dir.empty() && !(stl.gap > 0 && stl.gap < stl.unit))
    throw UsageError("expected --gap greater than 0 and less than --unit");
  if (stl.bevel != 0) {
    throw UsageError(
        "--bevel is not implemented yet: the pieces have sharp edges (only --bevel 0; "
        "see docs/interop.md)");
  }
  if (k == 0) throw UsageError("--solution counts from 1, found 0");
  if (limit == 0) throw UsageError("--limit must be at least 1");

  std::unique_ptr<Puzzle> puzzle = load_puzzle(file, load);
  // The solutions to draw: K for the picture, up to max(K, limit) for the viewer.
  const std::uint64_t want = html_out.empty() ? k : std::max(k, limit);
  std::vector<nlohmann::json> sols;
  bool all_found = true;
  if (!from.empty()) {
    nlohmann::json doc;
    try {
      doc = nlohmann::json::parse(read_file(from));
    } catch (const nlohmann::json::parse_error& e) {
      throw InputError(from, std::string("expected JSON: ") + e.what());
    }
    if (!doc.is_object() || !doc.contains("solutions") || !doc["solutions"].is_array()) {
      throw InputError(from, "", "expected an object with a \"solutions\" array");
    }
    const auto& list = doc["solutions"];
    for (std::size_t i = 0; i < list.size() && i < want; ++i) sols.push_back(list[i]);
    all_found = list.size() <= want;
  } else {
    install_stop_handlers();
    SolveLimits limits;
    limits.stop = &g_stop;
    limits.max_solutions = want;
    Solver solver(puzzle->problem());
    const SolveStats st = solver.solve(
        [&](std::span<const OptionId> s) {
          sols.push_back(puzzle->solution_json(s));
          return true;
        },
        limits);
    if (g_stop.load()) return kExitInterrupted;
    all_found = st.complete;
  }
  const std::string source = from.empty() ? file : from;
  if (sols.size() < k) {
    throw InputError(source, "expected at least " + std::to_string(k) +
                                 " solution(s) for --solution " + std::to_string(k) + ", found " +
                                 std::to_string(sols.size()));
  }

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
    scenes.push_back(std::move(*sc));
  }

  if (!svg_out.empty()) {
    const render::Scene& sc = scenes[html_out.empty() ? 0 : k - 1];
    const std::string caption =
        "solution " + with_commas(k) + (all_found ? " of " + with_commas(sols.size()) : "");
    write_output(svg_out, render::svg(sc, caption));
    std::cout << "wrote " << svg_out << ": " << caption << "\n";
  }
  if (!html_out.empty()) {
    const std::string note =
        all_found ? "all " + with_commas(sols.size()) + " solutions"
                  : "the first " + with_commas(sols.size()) + " solutions (--limit N for more)";
    write_output(html_out, render::html(scenes, k - 1, note));
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
      write_output(path, f.data);
      std::cout << "wrote " << path << ": " << f.cells << " cells, " << with_commas(f.mesh.size())
                << " triangles\n";
    }
  }
  return kExitOk;
}

}  // namespace cubex::cli
