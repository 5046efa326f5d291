// load_puzzle: one place that maps a file extension to its front end.
#include <algorithm>
#include <filesystem>

#include "cubex/error.hpp"
#include "cubex/io/files.hpp"
#include "cubex/puzzle.hpp"
#include "cubex/voxel/read.hpp"

namespace cubex {
namespace {

// A `.json` puzzle: its top-level "kind" names the front end ("voxel" when absent).
std::unique_ptr<Puzzle> load_json_puzzle(const std::string& path) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(read_file(path));
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(path, std::string("expected JSON: ") + e.what());
  }
  const nlohmann::json* kind = doc.is_object() && doc.contains("kind") ? &doc["kind"] : nullptr;
  [[maybe_unused]] const std::string k = kind && kind->is_string() ? kind->get<std::string>() : "voxel";
  // Each other JSON front end is one line here, e.g.:
  //   if (k == "happy-cube") return happy_cube::load_json(doc, path);
  return voxel::load_json(doc, path);  // also reports a wrong or unknown "kind"
}

}  // namespace

std::unique_ptr<Puzzle> load_puzzle(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  if (ext == ".dlx" || ext == ".xc") return load_exact_cover(path);
  if (ext == ".json") return load_json_puzzle(path);
  if (ext == ".txt") return voxel::load_txt(path);
  throw InputError(path, "expected a puzzle file ending in .dlx, .xc, .json or .txt, found '" + ext + "'");
}

}  // namespace cubex
