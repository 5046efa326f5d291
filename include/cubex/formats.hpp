// cubex/formats.hpp - the one table of puzzle file formats.
//
// Each format is registered once: its extension, one line of help, how to read it as a Puzzle,
// and for voxel formats how to read and write the model (`cubex convert`). load_puzzle, the
// commands' --help and the "unknown extension" message all read this table, so a new format is
// one entry in src/formats.cpp.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "cubex/puzzle.hpp"
#include "cubex/voxel/model.hpp"

namespace cubex {

struct PuzzleFormat {
  std::string_view extensions;  // ".dlx .xc": one or more, blank-separated, lower case
  std::string_view help;        // one line for --help
  std::unique_ptr<Puzzle> (*load)(const std::string& path, const LoadOptions& options);
  // Voxel formats: the model alone (nullptr where the format holds no voxel model).
  voxel::Model (*load_model)(const std::string& path, const LoadOptions& options) = nullptr;
  // Writes a canonical model as the file's contents (nullptr where cubex cannot write it).
  // Throws InputError (naming `path`) when the model cannot be expressed in the format.
  std::string (*write_model)(const voxel::Model& model, const std::string& path) = nullptr;
  // The file may hold several problems (LoadOptions::problem, `--problem`).
  bool problems = false;
};

// Every format cubex reads, in the order of the help.
std::span<const PuzzleFormat> puzzle_formats();
// The format of `path` by its extension (case-insensitive); throws InputError naming the known
// extensions when there is none.
const PuzzleFormat& format_of(const std::string& path);
// The table as help lines: "  .dlx .xc   Knuth's exact-cover format", one per format.
std::string formats_help();
// ".dlx, .xc, .json, .txt, .hcq or .xmpuzzle" (for messages), optionally only formats with a
// model writer.
std::string extension_list(bool writable_only = false);

// A voxel model from a file of a voxel format (`cubex convert`); throws InputError.
voxel::Model load_model(const std::string& path, const LoadOptions& options = {});
// Writes `model` to `path` in the format of its extension (atomically); throws InputError when
// the format cannot be written or cannot express the model.
void save_model(const voxel::Model& model, const std::string& path);

}  // namespace cubex
