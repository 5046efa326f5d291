// The table of puzzle file formats (cubex/formats.hpp): one entry per format.
#include "cubex/formats.hpp"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cubex/error.hpp"
#include "cubex/happycube/puzzle.hpp"
#include "cubex/happycube/reader.hpp"
#include "cubex/library/library.hpp"
#include "cubex/limits.hpp"
#include "cubex/util/files.hpp"
#include "cubex/util/json.hpp"
#include "cubex/voxel/read.hpp"
#include "cubex/voxel/write.hpp"
#ifdef CUBEX_WITH_BURRTOOLS
#include "cubex/burrtools/xmpuzzle.hpp"
#endif

namespace cubex {
namespace {

bool is_happy_cube(const nlohmann::json& doc) {
  return doc.is_object() && doc.contains("kind") && doc["kind"] == "happy-cube";
}

// A `.json` puzzle: its top-level "kind" names the front end ("voxel" when absent).
std::unique_ptr<Puzzle> load_json_puzzle(const std::string& path, const LoadOptions& options) {
  const nlohmann::json doc = read_json_file(path, options.limits);
  if (is_happy_cube(doc))
    return happycube::make_puzzle(happycube::parse_json(doc, path), options.limits);
  return voxel::load_json(doc, path, options.limits);  // also reports a wrong or unknown "kind"
}

voxel::Model load_json_model(const std::string& path, const LoadOptions& options) {
  const nlohmann::json doc = read_json_file(path, options.limits);
  if (is_happy_cube(doc)) {
    throw InputError(path, "kind", "expected a voxel puzzle, found a Happy Cube puzzle");
  }
  return voxel::model_from_json(doc, path);
}

std::string write_json_model(const voxel::Model& model, const std::string&) {
  return voxel::to_json_text(model);
}

std::unique_ptr<Puzzle> load_dlx(const std::string& path, const LoadOptions& options) {
  return load_exact_cover(path, options.limits);
}
std::unique_ptr<Puzzle> load_txt(const std::string& path, const LoadOptions& options) {
  return voxel::load_txt(path, options.limits);
}
voxel::Model load_txt_model(const std::string& path, const LoadOptions& options) {
  return voxel::model_from_txt(read_file(path, options.limits), path);
}
std::unique_ptr<Puzzle> load_hcq(const std::string& path, const LoadOptions& options) {
  return happycube::make_puzzle(happycube::read_hcq(path, options.limits), options.limits);
}

const PuzzleFormat kFormats[] = {
    {".dlx .xc", "Knuth's exact-cover format (see docs/formats.md)", load_dlx},
    {".hcq", "Happy Cube tiles (six plates folded into a cube)", load_hcq},
    {".json",
     "a voxel puzzle (polycube packing; \"kind\": \"voxel\" or none), or \"kind\": "
     "\"happy-cube\": Happy Cube plates drawn as rows, any structure",
     load_json_puzzle, load_json_model, write_json_model},
    {".txt", "a wooden-cube puzzle: one piece per line, x y z x y z ...", load_txt, load_txt_model},
#ifdef CUBEX_WITH_BURRTOOLS
    {".xmpuzzle",
     "a BurrTools puzzle (cube grid; --problem NAME|INDEX picks one of several problems)",
     burrtools::load_xmpuzzle, burrtools::load_xmpuzzle_model, burrtools::write_xmpuzzle, true},
#endif
};

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

bool has_extension(const PuzzleFormat& f, const std::string& ext) {
  if (ext.empty()) return false;
  const std::string list = " " + std::string(f.extensions) + " ";
  return list.find(" " + ext + " ") != std::string::npos;
}

}  // namespace

std::span<const PuzzleFormat> puzzle_formats() {
  return kFormats;
}

std::string extension_list(bool writable_only) {
  std::vector<std::string> all;
  for (const PuzzleFormat& f : kFormats) {
    if (writable_only && !f.write_model) continue;
    std::string list(f.extensions);
    std::size_t start = 0;
    while (start < list.size()) {
      const std::size_t end = std::min(list.find(' ', start), list.size());
      all.push_back(list.substr(start, end - start));
      start = end + 1;
    }
  }
  std::string out;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (i > 0) out += i + 1 == all.size() ? " or " : ", ";
    out += all[i];
  }
  return out;
}

std::string formats_help() {
  // "  .ext        help", the help wrapped at 78 columns under itself.
  constexpr std::size_t kIndent = 14, kWidth = 78;
  std::string out;
  for (const PuzzleFormat& f : kFormats) {
    std::string line = "  " + std::string(f.extensions);
    line += std::string(line.size() < kIndent ? kIndent - line.size() : 1, ' ');
    const std::string help(f.help);
    std::size_t start = 0;
    while (start < help.size()) {
      std::size_t end = help.find(' ', start);
      if (end == std::string::npos) end = help.size();
      const std::string word = help.substr(start, end - start);
      if (line.size() + word.size() + 1 > kWidth && line.size() > kIndent) {
        out += line + "\n";
        line = std::string(kIndent, ' ');
      } else if (line.size() > kIndent) {
        line += ' ';
      }
      line += word;
      start = end + 1;
    }
    out += line + "\n";
  }
  return out;
}

const PuzzleFormat& format_of(const std::string& path) {
  const std::string ext = lower_extension(path);
  for (const PuzzleFormat& f : kFormats)
    if (has_extension(f, ext)) return f;
#ifndef CUBEX_WITH_BURRTOOLS
  if (ext == ".xmpuzzle") {
    throw InputError(path,
                     "this cubex was built without BurrTools support: tools/setup.sh builds it "
                     "in (installing zlib and pugixml), or configure with -DCUBEX_BURRTOOLS=ON");
  }
#endif
  throw InputError(
      path, "expected a puzzle file ending in " + extension_list() + ", found '" + ext + "'");
}

std::unique_ptr<Puzzle> load_puzzle(const std::string& spec, const LoadOptions& options) {
  const std::string path = library::resolve(spec);  // "library:NAME": an entry of the library
  try {
    const PuzzleFormat& format = format_of(path);
    if (!options.problem.empty() && !format.problems) {
      throw InputError(path, "--problem picks a problem of a file that holds several (" +
                                 std::string(".xmpuzzle") + "); this format holds one");
    }
    std::unique_ptr<Puzzle> puzzle = format.load(path, options);
    check_nodes(puzzle->problem(), options.limits);  // whatever the front end: never hand the solver more
    return puzzle;
  } catch (const LimitError& e) {  // a limit hit where the reader knew no better place
    throw InputError(path, e.what());
  }
}

voxel::Model load_model(const std::string& path, const LoadOptions& options) {
  const PuzzleFormat& format = format_of(path);
  if (!format.load_model) {
    throw InputError(path, "expected a voxel puzzle (" + extension_list(true) +
                               " or .txt), found a format without a voxel model");
  }
  try {
    return format.load_model(path, options);
  } catch (const LimitError& e) {
    throw InputError(path, e.what());
  }
}

void save_model(const voxel::Model& model, const std::string& path) {
  const PuzzleFormat* format = nullptr;
  try {
    format = &format_of(path);
  } catch (const InputError&) {
    format = nullptr;
  }
  if (!format || !format->write_model) {
    throw InputError(path, "expected an output file ending in " + extension_list(true) +
                               ", found '" + lower_extension(path) + "'");
  }
  const std::string content = format->write_model(model, path);
  try {
    write_file_atomic(path, content);
  } catch (const std::runtime_error& e) {
    throw InputError(path, e.what());
  }
}

}  // namespace cubex
