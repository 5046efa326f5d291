// cubex/io/json.hpp - parsing JSON text with errors that name the place.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace cubex {

// Parses `text` (the contents of `file`). Throws InputError with the line and column of a syntax
// error, or of the first array/object nested deeper than limits().max_json_depth (checked
// before parsing, so no input can exhaust the stack of a recursive walk over the document).
nlohmann::json parse_json_text(std::string_view text, const std::string& file);
// read_file + parse_json_text.
nlohmann::json read_json_file(const std::string& path);

}  // namespace cubex
