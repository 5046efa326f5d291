// cubex/error.hpp - the one error type for bad input, whatever the reader.
//
// Messages follow one style, so that editors and scripts can jump to the place:
//   FILE:LINE:COL: what was expected, what was found     (text formats)
//   FILE: pieces[3].cells[2]: what was expected, ...     (JSON formats: the JSON path)
//   FILE: what went wrong                                (the file as a whole)
// The CLI prints "cubex: " + what() and exits with status 2.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace cubex {

// A piece of the input for an error message: at most `max` bytes of it (then "..."), control
// bytes and bytes that are not UTF-8 written as \xNN, so that a binary or endless input neither
// floods the terminal nor sends it escape sequences.
inline std::string excerpt(std::string_view s, std::size_t max = 40) {
  static const char* const hex = "0123456789abcdef";
  std::string out;
  std::size_t i = 0;
  while (i < s.size() && i < max) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t len = c < 0x80         ? 1
                      : (c >> 5) == 6  ? 2
                      : (c >> 4) == 14 ? 3
                      : (c >> 3) == 30 ? 4
                                       : 0;
    bool ok = len > 0 && i + len <= s.size() && (len == 1 || c >= 0xc2);
    for (std::size_t k = 1; ok && k < len; ++k)
      ok = (static_cast<unsigned char>(s[i + k]) >> 6) == 2;
    if (ok && len == 1 && (c < 0x20 || c == 0x7f)) ok = false;
    if (!ok) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
      ++i;
    } else {
      out.append(s.substr(i, len));
      i += len;
    }
  }
  if (i < s.size()) out += "...";
  return out;
}

class InputError : public std::runtime_error {
 public:
  // A place in a text file (line and column are 1-based; column 0 means "the whole line").
  InputError(const std::string& file, int line, int col, const std::string& message)
      : std::runtime_error(place(file, line, col) + message),
        file_(file),
        line_(line),
        col_(col),
        message_(message) {}
  // A place in a JSON document, named by its path such as "pieces[3].cells[2]".
  InputError(const std::string& file, const std::string& json_path, const std::string& message)
      : std::runtime_error(file + ": " + (json_path.empty() ? "" : json_path + ": ") + message),
        file_(file),
        path_(json_path),
        message_(message) {}
  // The file as a whole (cannot be opened, wrong kind...).
  InputError(const std::string& file, const std::string& message)
      : std::runtime_error(file + ": " + message), file_(file), message_(message) {}

  const std::string& file() const { return file_; }
  int line() const { return line_; }
  int column() const { return col_; }
  const std::string& json_path() const { return path_; }
  const std::string& message() const { return message_; }

 private:
  static std::string place(const std::string& file, int line, int col) {
    std::string s = file;
    s += ':';
    s += std::to_string(line);
    if (col > 0) {
      s += ':';
      s += std::to_string(col);
    }
    s += ": ";
    return s;
  }

  std::string file_;
  int line_ = 0, col_ = 0;
  std::string path_;
  std::string message_;
};

}  // namespace cubex
