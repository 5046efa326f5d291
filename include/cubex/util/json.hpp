// cubex/util/json.hpp - parsing JSON text with errors that name the place.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "cubex/limits.hpp"

namespace cubex {

// Parses `text` (the contents of `file`). Throws InputError with the line and column of a syntax
// error, or of the first array/object nested deeper than limits.max_json_depth (checked
// before parsing, so no input can exhaust the stack of a recursive walk over the document).
nlohmann::json parse_json_text(std::string_view text, const std::string& file,
                               const Limits& limits = {});
// Every JSON object in the document must have distinct keys: a repeated key is an InputError
// naming its JSON path ("pieces[2]: key \"name\" appears twice") rather than the last one
// silently winning.

// Serialises `j` (indent < 0: compact). Strings that are not valid UTF-8 (a file name, a name
// read from a file in a legacy encoding) have each invalid byte replaced by U+FFFD instead of
// throwing: every JSON and HTML output of cubex goes through this.
std::string dump_json(const nlohmann::json& j, int indent = -1);

// read_file + parse_json_text.
nlohmann::json read_json_file(const std::string& path, const Limits& limits = {});

// The value of `j` when it is an integer from lo to hi, else nothing. (nlohmann keeps
// non-negative integers unsigned, and get<long>() turns 18446744073709551615 into -1: read
// integers through this.)
std::optional<std::int64_t> json_int(const nlohmann::json& j, std::int64_t lo, std::int64_t hi);

}  // namespace cubex
