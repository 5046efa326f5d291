// cubex/error.hpp - the one error type, cubex::Error, with a kind.
//
// Every error cubex throws on purpose is a cubex::Error (or one of the names below, which are
// Errors of one kind each): a client catches that one type and reads kind() to decide what to
// do, e.g. the CLI's exit status (input, usage, limit: 2; internal: 1).
//   input     the input is wrong: a file, a JSON document, a matrix built by a program
//   usage     the options are wrong or conflict (a flag's value, a backend that does not apply)
//   limit     the input is too large for a limit (cubex::Limits); the message names the flag
//   internal  cubex's own fault
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

// The length of the UTF-8 sequence that starts s[i] (1..4), or 0 when the bytes there are not
// UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).
inline std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  if (c < 0x80) return 1;
  std::size_t len;
  unsigned char lo = 0x80, hi = 0xbf;  // range of the second byte
  if (c >= 0xc2 && c <= 0xdf) {
    len = 2;
  } else if (c >= 0xe0 && c <= 0xef) {
    len = 3;
    if (c == 0xe0) lo = 0xa0;
    if (c == 0xed) hi = 0x9f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    len = 4;
    if (c == 0xf0) lo = 0x90;
    if (c == 0xf4) hi = 0x8f;
  } else {
    return 0;
  }
  if (i + len > s.size() || b(1) < lo || b(1) > hi) return 0;
  for (std::size_t k = 2; k < len; ++k)
    if ((b(k) >> 6) != 2) return 0;
  return len;
}

// True when `s` is valid UTF-8 (as JSON output needs).
inline bool is_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t len = utf8_length(s, i);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

// A piece of the input for an error message: at most `max` bytes of it (then "..."), control
// bytes and bytes that are not UTF-8 written as \xNN, so that a binary or endless input neither
// floods the terminal nor sends it escape sequences. With `keep_newlines`, '\n' stays as it is.
inline std::string excerpt(std::string_view s, std::size_t max = 40, bool keep_newlines = false) {
  static const char* const hex = "0123456789abcdef";
  std::string out;
  std::size_t i = 0;
  while (i < s.size() && i < max) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t len = utf8_length(s, i);
    const bool control = len == 1 && (c < 0x20 || c == 0x7f) && !(keep_newlines && c == '\n');
    if (len == 0 || control) {
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

// A name from the input (a piece, an item, a puzzle), or a message that quotes one, made safe for
// a terminal: control bytes (ESC included) and bytes that are not UTF-8 written as \xNN, newlines
// kept when `keep_newlines`. What cubex prints that comes from a file goes through this.
inline std::string printable(std::string_view s, bool keep_newlines = false) {
  return excerpt(s, std::string_view::npos, keep_newlines);
}

class Error : public std::runtime_error {
 public:
  enum class Kind { input, usage, limit, internal };

  // An error without a place: what() is `message`.
  Error(Kind kind, const std::string& message)
      : std::runtime_error(message), kind_(kind), message_(message) {}

  Kind kind() const { return kind_; }
  // "input", "usage", "limit", "internal".
  const char* kind_name() const {
    switch (kind_) {
      case Kind::input: return "input";
      case Kind::usage: return "usage";
      case Kind::limit: return "limit";
      default: return "internal";
    }
  }
  // The place, where the error has one: the file ("" when none), its line and column (1-based;
  // 0: not known), or the JSON path in it ("pieces[3].cells[2]"; "" when none).
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  int column() const { return col_; }
  const std::string& json_path() const { return path_; }
  // The message without the place.
  const std::string& message() const { return message_; }

 protected:
  Error(Kind kind, const std::string& what, std::string file, int line, int col, std::string path,
        std::string message)
      : std::runtime_error(what),
        kind_(kind),
        file_(std::move(file)),
        line_(line),
        col_(col),
        path_(std::move(path)),
        message_(std::move(message)) {}

 private:
  Kind kind_;
  std::string file_;
  int line_ = 0, col_ = 0;
  std::string path_;
  std::string message_;
};

// Bad input, with its place.
class InputError : public Error {
 public:
  // A place in a text file (line and column are 1-based; column 0 means "the whole line").
  InputError(const std::string& file, int line, int col, const std::string& message)
      : Error(Kind::input, place(file, line, col) + message, file, line, col, "", message) {}
  // A place in a JSON document, named by its path such as "pieces[3].cells[2]".
  InputError(const std::string& file, const std::string& json_path, const std::string& message)
      : Error(Kind::input, file + ": " + (json_path.empty() ? "" : json_path + ": ") + message,
              file, 0, 0, json_path, message) {}
  // The file as a whole (cannot be opened, wrong kind...).
  InputError(const std::string& file, const std::string& message)
      : Error(Kind::input, file + ": " + message, file, 0, 0, "", message) {}

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

};

// Options that are wrong or conflict: a flag's value, a mode that does not apply.
class UsageError : public Error {
 public:
  explicit UsageError(const std::string& message) : Error(Kind::usage, message) {}
};

}  // namespace cubex
