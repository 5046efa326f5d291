// cubex/library/library.hpp - the puzzle library (puzzles/library/*.json): classic puzzles, each
// with its published count(s) and their source (docs/library-puzzles.md).
//
// A library file is an ordinary puzzle file (voxel or Happy Cube JSON) with an "expect" object:
//   "expect": {"total": N, "unique": M, "source": "book, paper or program and where",
//              "bench": true, "note": "...", "symmetry": "rotations", "cubex_issue": "..."}
// "total" and "unique" are cubex's counts (every solution; solutions up to the container's
// symmetry); at least one is given. "bench": the entry takes a second or more and is checked by
// bench/library_check.sh rather than by the tests.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cubex::library {

struct Expect {
  std::optional<std::uint64_t> total;
  std::optional<std::uint64_t> unique;
  std::string source;
  bool bench = false;
  std::string note;
  // The symmetry the counts are taken under, as `solve --symmetry`: "auto" (the default), or
  // "rotations" where the source counts up to rotations only.
  std::string symmetry = "auto";
  // A known difference between cubex and the source, awaiting a fix in cubex: the unique count
  // is then not compared (the text says what differs and why).
  std::string cubex_issue;
};

struct Entry {
  std::string path;                 // the file
  std::string id;                   // its stem: `cubex solve library:ID`
  std::string name;                 // the puzzle's "name"
  std::string kind;                 // "voxel" or "happy-cube"
  std::vector<std::string> sets;    // the named piece sets it uses
  std::vector<std::string> pieces;  // the names of its explicit pieces
  std::string container;            // "box [10, 6]", "named 8x8-centre-hole", "cells (n)", ...
  Expect expect;
};

// The folders searched, in order: each of $CUBEX_LIBRARY (':'-separated), the installed
// share/cubex/library, the source tree's puzzles/library. Only those that exist.
std::vector<std::string> search_path();

// The "expect" object of a parsed library file; throws InputError (naming `file`) when it is
// missing or malformed (no "source", neither "total" nor "unique").
Expect parse_expect(const nlohmann::json& doc, const std::string& file);

// Reads one library file's summary; throws InputError.
Entry read_entry(const std::string& path);

// Every entry of the first folder of search_path() that has any (or of `dir` when given),
// sorted by id.
std::vector<Entry> entries(const std::string& dir = "");

// "library:NAME" -> the path of NAME.json in the library; any other text is returned as it is.
// Throws InputError naming the folders searched when there is no such entry.
std::string resolve(const std::string& spec);

// True when every word (case-insensitive) occurs in the entry's id, name, kind, container,
// set names or piece names.
bool matches(const Entry& e, const std::vector<std::string>& words);

}  // namespace cubex::library
