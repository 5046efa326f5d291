// load_puzzle: one place that maps a file extension to its front end.
#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cubex/error.hpp"
#include "cubex/happycube/puzzle.hpp"
#include "cubex/happycube/reader.hpp"
#include "cubex/io/files.hpp"
#include "cubex/puzzle.hpp"
#include "cubex/voxel/read.hpp"

namespace cubex {
namespace {

// Parses a JSON file; a syntax error is reported with its line and column.
nlohmann::json read_json_file(const std::string& path) {
  const std::string text = read_file(path);
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    const std::size_t end = std::min(e.byte > 0 ? e.byte - 1 : 0, text.size());
    int line = 1, col = 1;
    for (std::size_t i = 0; i < end; ++i) {
      if (text[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    std::string what = e.what();
    const std::size_t at = what.find(": ");  // drop nlohmann's "[json.exception...] " prefix
    throw InputError(path, line, col,
                     "expected JSON, " + (at == std::string::npos ? what : what.substr(at + 2)));
  }
}

// A `.json` puzzle: its top-level "kind" names the front end ("voxel" when absent).
std::unique_ptr<Puzzle> load_json_puzzle(const std::string& path) {
  const nlohmann::json doc = read_json_file(path);
  if (doc.is_object() && doc.contains("kind") && doc["kind"] == "happy-cube") {
    return happycube::make_puzzle(happycube::parse_json(doc, path));
  }
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
  if (ext == ".hcq") return happycube::make_puzzle(happycube::read_hcq(path));
  throw InputError(path, "expected a puzzle file ending in .dlx, .xc, .json, .txt or .hcq, found '" +
                             ext + "'");
}

}  // namespace cubex
