// load_puzzle: one place that maps a file extension to its front end.
#include <algorithm>
#include <filesystem>

#include "cubex/error.hpp"
#include "cubex/puzzle.hpp"

namespace cubex {

std::unique_ptr<Puzzle> load_puzzle(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  if (ext == ".dlx" || ext == ".xc") return load_exact_cover(path);
  throw InputError(path, "expected a puzzle file ending in .dlx or .xc, found '" + ext + "'");
}

}  // namespace cubex
