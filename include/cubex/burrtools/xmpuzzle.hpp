// cubex/burrtools/xmpuzzle.hpp - BurrTools `.xmpuzzle` files in and out (issue 18).
//
// A `.xmpuzzle` file is gzip-compressed XML (plain XML is read too). cubex reads the cube grid
// (gridType 0): the shapes as voxel strings ('_' empty, '#' filled, '+' variable, a colour number
// after a cell), one problem (pieces with a count or a min/max range, the result shape, maxHoles,
// colour rules) into a voxel Model; the rest of the file (saved solutions, the assembler's state,
// disassembly groups) is not needed to count. Every error names the file and the line and column
// in the XML text (after decompression). Writing gives a file the BurrTools GUI opens.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cubex/puzzle.hpp"
#include "cubex/voxel/model.hpp"

namespace cubex::burrtools {

// The bytes of a gzip stream inflated (a multi-member stream too), or `data` itself when it does
// not start with the gzip magic. Throws InputError naming `file` for corrupt or truncated data,
// data after the gzip stream, and more than limits().max_xml_bytes of XML (refused while
// inflating: no more than that is ever held).
std::string gunzip(std::string_view data, const std::string& file);
// `text` as a gzip stream.
std::string gzip(std::string_view text);

// One problem of a file, read.
struct Loaded {
  voxel::Model model;                              // canonical
  std::vector<std::string> notes;                  // for Puzzle::notes()
  std::optional<Puzzle::RecordedCounts> recorded;  // the counts the file saved
  std::vector<std::string> problems;               // the names of all problems in the file
  std::size_t chosen = 0;                          // index of the problem read
};

// Parses the (decompressed) XML `text` of `file`; `options.problem` picks the problem by its
// exact name, else (surrounding spaces ignored) by its 1-based number ("2" or "problem 2") or name
// (default the first). Before parsing, the text's elements, attributes and attribute values are
// checked against limits() (max_xml_elements, max_xml_attributes, max_xml_attribute_bytes).
// Throws InputError.
Loaded parse_xmpuzzle(std::string_view text, const std::string& file, const LoadOptions& options);

// Reads a file (gzip or plain XML).
Loaded read_xmpuzzle(const std::string& path, const LoadOptions& options);
std::unique_ptr<Puzzle> load_xmpuzzle(const std::string& path, const LoadOptions& options);
voxel::Model load_xmpuzzle_model(const std::string& path, const LoadOptions& options);

// The model as BurrTools XML (one problem, state unsolved). Throws InputError naming `path` when
// the model cannot be expressed, so that a conversion never changes the count: mirror images
// allowed for a piece that differs from its mirror image (BurrTools only turns pieces), a
// one-sided piece ("turn_over": false) that differs from its mirror image (BurrTools turns every
// piece over), or a "distinct" piece congruent to another (BurrTools counts them as identical).
std::string to_xml(const voxel::Model& model, const std::string& path);
// to_xml() compressed: the contents of a `.xmpuzzle` file.
std::string write_xmpuzzle(const voxel::Model& model, const std::string& path);

}  // namespace cubex::burrtools
