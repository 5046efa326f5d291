// cubex/io/files.hpp - reading whole files and writing them atomically.
#pragma once

#include <string>
#include <string_view>

namespace cubex {

// Reads a whole file (or a pipe, to its end); throws InputError("cannot open ...") when it
// cannot, and when it holds more than limits().max_file_bytes (cubex/limits.hpp).
std::string read_file(const std::string& path);

// Writes `content` to `path` through a temporary file in the same folder that is renamed into
// place, so `path` is either untouched or complete. A symbolic link is written through (the file
// it names is replaced); a device or pipe (/dev/stdout, /dev/full, a FIFO) is written directly.
// Throws std::runtime_error with the reason ("cannot write PATH: No space left on device").
void write_file_atomic(const std::string& path, std::string_view content);

}  // namespace cubex
