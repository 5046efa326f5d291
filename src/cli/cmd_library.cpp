// cubex library [WORDS...] [--dir DIR] [--json]: lists the puzzle library's entries whose id,
// name, container, piece sets or piece names contain every WORD, with their recorded counts.
// `cubex solve library:ID` runs one (cubex/library/library.hpp, docs/library-puzzles.md).
#include <boost/program_options.hpp>
#include <iostream>

#include "cli.hpp"
#include "cubex/library/library.hpp"

namespace po = boost::program_options;

namespace cubex::cli {

namespace {
std::string count_text(const std::optional<std::uint64_t>& n) {
  return n ? with_commas(*n) : "-";
}
}  // namespace

int cmd_library(const std::vector<std::string>& args) {
  po::options_description opts(
      "usage: cubex library [WORDS...] [--dir DIR] [--json]\n\n"
      "Lists the puzzles of the library whose names or pieces match every WORD "
      "(case-insensitive),\n"
      "with their published counts. Run one with `cubex solve library:NAME`. The library is the\n"
      "first folder holding puzzles among $CUBEX_LIBRARY (':'-separated), the installed\n"
      "share/cubex/library and the source tree's puzzles/library.\n\noptions");
  std::vector<std::string> words;
  std::string dir;
  // clang-format off
  opts.add_options()
    ("help,h", "show this help")
    ("dir", po::value(&dir), "list the library in DIR instead")
    ("json", "write the entries as a JSON array");
  // clang-format on
  po::options_description hidden;
  hidden.add_options()("words", po::value(&words));
  po::variables_map vm;
  if (!parse_command(args, opts, hidden, "words", -1, vm)) return kExitOk;
  if (dir.empty() && library::search_path().empty())
    throw UsageError("no library folder found: set CUBEX_LIBRARY or pass --dir");
  const std::vector<library::Entry> all = library::entries(dir);
  std::vector<const library::Entry*> found;
  for (const library::Entry& e : all)
    if (library::matches(e, words)) found.push_back(&e);
  if (vm.count("json")) {
    nlohmann::json out = nlohmann::json::array();
    for (const library::Entry* e : found) {
      nlohmann::json x = {{"id", e->id},
                          {"name", e->name},
                          {"kind", e->kind},
                          {"file", e->path},
                          {"container", e->container},
                          {"sets", e->sets},
                          {"pieces", e->pieces},
                          {"source", e->expect.source},
                          {"bench", e->expect.bench}};
      if (e->expect.total) x["total"] = *e->expect.total;
      if (e->expect.unique) x["unique"] = *e->expect.unique;
      out.push_back(x);
    }
    std::cout << out.dump(2) << "\n";
    return kExitOk;
  }
  std::size_t width = 4;
  for (const library::Entry* e : found) width = std::max(width, e->id.size());
  for (const library::Entry* e : found) {
    std::string pieces;
    for (const std::string& s : e->sets) pieces += (pieces.empty() ? "" : " + ") + s;
    for (const std::string& p : e->pieces) pieces += (pieces.empty() ? "" : " + ") + p;
    std::cout << e->id << std::string(width + 2 - e->id.size(), ' ') << "total "
              << count_text(e->expect.total) << ", unique " << count_text(e->expect.unique) << "  ("
              << pieces << "; " << e->container << ")\n";
  }
  std::cout << found.size() << " of " << all.size() << " puzzles" << (words.empty() ? "" : " match")
            << "; run one with: cubex solve library:NAME\n";
  return kExitOk;
}

}  // namespace cubex::cli
