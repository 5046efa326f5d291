// load_puzzle: one place that maps a file extension to its front end.
#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cubex/error.hpp"
#include "cubex/happycube/puzzle.hpp"
#include "cubex/happycube/reader.hpp"
#include "cubex/io/files.hpp"
#include "cubex/io/json.hpp"
#include "cubex/limits.hpp"
#include "cubex/puzzle.hpp"
#include "cubex/voxel/read.hpp"

namespace cubex {
namespace {

// A `.json` puzzle: its top-level "kind" names the front end ("voxel" when absent).
std::unique_ptr<Puzzle> load_json_puzzle(const std::string& path) {
  const nlohmann::json doc = read_json_file(path);
  if (doc.is_object() && doc.contains("kind") && doc["kind"] == "happy-cube") {
    return happycube::make_puzzle(happycube::parse_json(doc, path));
  }
  return voxel::load_json(doc, path);  // also reports a wrong or unknown "kind"
}

std::unique_ptr<Puzzle> load_puzzle_unchecked(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  if (ext == ".dlx" || ext == ".xc") return load_exact_cover(path);
  if (ext == ".json") return load_json_puzzle(path);
  if (ext == ".txt") return voxel::load_txt(path);
  if (ext == ".hcq") return happycube::make_puzzle(happycube::read_hcq(path));
  throw InputError(path, "expected a puzzle file ending in .dlx, .xc, .json, .txt or .hcq, found '" +
                             ext + "'");
}

}  // namespace

std::unique_ptr<Puzzle> load_puzzle(const std::string& path) {
  try {
    std::unique_ptr<Puzzle> puzzle = load_puzzle_unchecked(path);
    check_nodes(puzzle->problem());  // whatever the front end: never hand the solver more
    return puzzle;
  } catch (const LimitError& e) {  // a limit hit where the reader knew no better place
    throw InputError(path, e.what());
  }
}

}  // namespace cubex
