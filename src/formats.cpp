// load_puzzle: one place that maps a file extension to its front end.
#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cubex/error.hpp"
#include "cubex/happycube/puzzle.hpp"
#include "cubex/happycube/reader.hpp"
#include "cubex/io/files.hpp"
#include "cubex/puzzle.hpp"

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

}  // namespace

std::unique_ptr<Puzzle> load_puzzle(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  if (ext == ".dlx" || ext == ".xc") return load_exact_cover(path);
  if (ext == ".hcq") return happycube::make_puzzle(happycube::read_hcq(path));
  if (ext == ".json") {
    const nlohmann::json doc = read_json_file(path);
    if (doc.is_object() && doc.contains("kind") && doc["kind"] == "happy-cube") {
      return happycube::make_puzzle(happycube::parse_json(doc, path));
    }
    // Every other JSON kind belongs to the voxel front end, which this build does not have yet.
    throw InputError(path, "kind",
                     "expected \"happy-cube\", found " +
                         (doc.is_object() && doc.contains("kind") ? doc["kind"].dump()
                                                                  : std::string("no \"kind\"")) +
                         " (voxel JSON is not available in this build)");
  }
  throw InputError(
      path, "expected a puzzle file ending in .dlx, .xc, .hcq or .json, found '" + ext + "'");
}

}  // namespace cubex
