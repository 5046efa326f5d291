// cubex/knuth/format.hpp - Knuth's exact-cover text format (dlx1/dlx3), as read by `cubex solve
// FILE.dlx` or `FILE.xc`. See docs/formats.md for the grammar.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "cubex/core/problem.hpp"
#include "cubex/error.hpp"
#include "cubex/limits.hpp"

namespace cubex {

struct KnuthFile {
  Problem problem;
  std::vector<int> option_line;  // 1-based line of each option in the file
};

// Parses `text`; `name` is used in error messages. Throws InputError.
KnuthFile parse_knuth(std::string_view text, const std::string& name, const Limits& limits = {});
// Reads and parses a file. Throws InputError (also when it cannot be read).
KnuthFile read_knuth_file(const std::string& path, const Limits& limits = {});

// Writes `problem` in Knuth's format, colours as 'item:colour' (names must be non-blank and free
// of ':' and '|').
std::string to_knuth(const Problem& problem);
// The same with comment lines: `header` lines first (each written as "| line"), then before each
// option the line "| " + comment(o) (line breaks in it become blanks).
std::string to_knuth(const Problem& problem, const std::vector<std::string>& header,
                     const std::function<std::string(OptionId)>& comment);

}  // namespace cubex
