// cubex/io/files.hpp - reading whole files and writing them atomically.
#pragma once

#include <string>
#include <string_view>

namespace cubex {

// Reads a whole file; throws InputError("cannot open ...") when it cannot.
std::string read_file(const std::string& path);

// Writes `content` to `path` through a temporary file in the same folder that is renamed into
// place, so `path` is either untouched or complete. Throws std::runtime_error with the reason.
void write_file_atomic(const std::string& path, std::string_view content);

}  // namespace cubex
