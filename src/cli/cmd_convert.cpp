// cubex convert PUZZLE OUT     (a voxel puzzle between .json, .txt and .xmpuzzle)
// cubex compile FILE --dlx OUT [--symmetry none|rotations|auto] [--problem P]
#include <boost/program_options.hpp>
#include <iostream>

#include "cli.hpp"
#include "cubex/error.hpp"
#include "cubex/formats.hpp"
#include "cubex/knuth/format.hpp"
#include "cubex/puzzle.hpp"
#include "cubex/solve.hpp"
#include "cubex/symmetry.hpp"
#include "cubex/util/files.hpp"
#include "cubex/voxel/read.hpp"

namespace po = boost::program_options;

namespace cubex::cli {

int cmd_convert(const std::vector<std::string>& args) {
  po::options_description opts(
      "usage: cubex convert PUZZLE OUT [--problem NAME|INDEX]\n\n"
      "Writes the voxel puzzle PUZZLE in the format of OUT's extension (" +
      extension_list(true) +
      "),\ne.g. a BurrTools file from the project's JSON or back. The counts stay the same.\n"
      "Formats:\n" +
      formats_help() + "\noptions");
  std::string in, out;
  LoadOptions load;
  XmlLimitFlags xml;
  // clang-format off
  opts.add_options()
    ("help,h", "show this help")
    ("problem", po::value(&load.problem),
     "BurrTools files: the problem to convert, by name or number (default the first)");
  // clang-format on
  add_xml_limit_options(opts, xml);
  po::options_description hidden;
  hidden.add_options()("files", po::value<std::vector<std::string>>());
  po::variables_map vm;
  if (!parse_command(args, opts, hidden, "files", 2, vm)) return kExitOk;
  const auto files =
      vm.count("files") ? vm["files"].as<std::vector<std::string>>() : std::vector<std::string>{};
  if (files.size() != 2) throw UsageError("expected PUZZLE and OUT");
  in = files[0];
  out = files[1];
  apply_xml_limits(xml, load.limits);
  refuse_overwriting_input("", out, {in});
  voxel::Model model = load_model(in, load);
  // Compile before writing: a model that cannot be solved (a piece that fits nowhere) is
  // reported, not written.
  const std::unique_ptr<Puzzle> puzzle = voxel::make_puzzle(model, in, false);
  save_model(model, out);
  std::cout << "wrote " << out << ": " << puzzle->name() << " (pieces: " << model.pieces.size()
            << (model.pieces.size() == 1 ? " kind" : " kinds")
            << ", container: " << model.cells.size() << " cells)\n";
  return kExitOk;
}

int cmd_compile(const std::vector<std::string>& args) {
  po::options_description opts(
      "usage: cubex compile FILE --dlx OUT [--symmetry none|rotations|auto] [--problem P]\n\n"
      "Writes the exact-cover matrix of the puzzle in FILE in Knuth's format (for dlx1, dlx3 and\n"
      "other solvers; `cubex solve OUT` reads it back). Each option line follows a comment line\n"
      "naming its placement. By default (--symmetry none) its solutions are all the puzzle's\n"
      "solutions. With --symmetry auto or rotations, the matrix is the one cubex searches when\n"
      "counting up to symmetry: one item's options cut to one per class, so that every class of\n"
      "solutions is met; its solutions are then neither the total nor the unique count (cubex\n"
      "keeps one per class afterwards).\n\n"
      "options");
  std::string file, out, symmetry = "none";
  LoadOptions load;
  XmlLimitFlags xml;
  // clang-format off
  opts.add_options()
    ("help,h", "show this help")
    ("dlx", po::value(&out), "write the matrix to OUT")
    ("symmetry", po::value(&symmetry), "none (default), rotations or auto")
    ("problem", po::value(&load.problem),
     "BurrTools files: the problem, by name or number (default the first)");
  // clang-format on
  add_xml_limit_options(opts, xml);
  po::options_description hidden;
  hidden.add_options()("file", po::value(&file));
  po::variables_map vm;
  if (!parse_command(args, opts, hidden, "file", 1, vm)) return kExitOk;
  if (file.empty()) throw UsageError("expected a puzzle FILE");
  if (out.empty()) throw UsageError("expected --dlx OUT");
  apply_xml_limits(xml, load.limits);
  refuse_overwriting_input("dlx", out, {file});
  const std::optional<SymmetryMode> mode = parse_symmetry_mode(symmetry);
  if (!mode)
    throw UsageError("expected --symmetry none, rotations or auto, found '" + symmetry + "'");

  std::unique_ptr<Puzzle> puzzle = load_puzzle(file, load);
  const Problem& pb = puzzle->problem();
  Options o;
  o.symmetry = parse_symmetry(symmetry);
  const Plan plan(*puzzle, o);  // the matrix the search would walk
  const std::size_t order = plan.group().group.order();
  std::vector<std::string> header = {"cubex compile " + file + " --symmetry " + symmetry + ": " +
                                     puzzle->name() + " (" + puzzle->kind() + ")"};
  std::string text, summary;
  const Problem& r = plan.searched();
  if (order > 1) {
    header.push_back("restricted by a symmetry group of order " + std::to_string(order) + ": " +
                     std::to_string(r.num_options()) + " of " + std::to_string(pb.num_options()) +
                     " options" + (plan.anchored() ? "" : " (no anchor item: nothing cut)"));
    summary = with_commas(r.num_items()) + " items, " + with_commas(r.num_options()) + " of " +
              with_commas(pb.num_options()) + " options (symmetry group of order " +
              std::to_string(order) + ")";
  } else {
    summary = with_commas(pb.num_items()) + " items, " + with_commas(pb.num_options()) + " options";
  }
  text = to_knuth(r, header,
                  [&](OptionId opt) { return puzzle->option_label(plan.original_option(opt)); });
  try {
    write_file_atomic(out, text);
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
  std::cout << "wrote " << out << ": " << summary << "\n";
  return kExitOk;
}

}  // namespace cubex::cli
