// JSON parsing with places in the errors (cubex/util/json.hpp).
#include "cubex/util/json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>
#include <vector>

#include "cubex/error.hpp"
#include "cubex/limits.hpp"
#include "cubex/util/files.hpp"

namespace cubex {
namespace {

struct Place {
  int line = 1, col = 1;
};

Place place_of(std::string_view text, std::size_t end) {
  Place p;
  end = std::min(end, text.size());
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++p.line;
      p.col = 1;
    } else {
      ++p.col;
    }
  }
  return p;
}

bool number_char(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

// Throws when arrays and objects nest deeper than the limit, or a number is too large for a
// double (nlohmann would throw an out_of_range error without a place). Brackets and digits inside
// strings do not count; a malformed document is left to the parser.
void check_depth(std::string_view text, const std::string& file, std::uint32_t max_depth) {
  std::uint32_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      std::size_t j = i;
      while (j < text.size() && number_char(text[j])) ++j;
      const std::string token(text.substr(i, j - i));
      const double v = std::strtod(token.c_str(), nullptr);
      if (std::isinf(v)) {
        const Place p = place_of(text, i);
        throw InputError(file, p.line, p.col,
                         "expected a number within the range of a double, found " + excerpt(token));
      }
      i = j - 1;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) {
        const Place p = place_of(text, i);
        throw InputError(file, p.line, p.col,
                         "expected arrays and objects nested at most " + std::to_string(max_depth) +
                             " deep, found deeper nesting");
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
}

// Tracks the path of the value being parsed and the keys of each open object, to refuse a key
// given twice in one object.
class DuplicateKeys {
 public:
  explicit DuplicateKeys(const std::string& file) : file_(file) {}
  bool operator()(int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using E = nlohmann::json::parse_event_t;
    switch (event) {
      case E::object_start:
      case E::array_start:
        start_value();
        stack_.push_back(Frame{event == E::array_start, 0, {}, {}});
        break;
      case E::object_end:
      case E::array_end:
        if (!stack_.empty()) stack_.pop_back();
        break;
      case E::key: {
        if (stack_.empty()) break;
        Frame& f = stack_.back();
        f.key = parsed.get<std::string>();
        if (!f.keys.insert(f.key).second) {
          f.key.clear();
          throw InputError(file_, path(),
                           "expected each key once in an object, found \"" +
                               excerpt(parsed.get<std::string>(), 60) + "\" twice");
        }
        break;
      }
      case E::value:
        start_value();
        break;
    }
    return true;
  }

 private:
  struct Frame {
    bool array;
    std::size_t count;  // arrays: elements started so far
    std::set<std::string> keys;
    std::string key;  // objects: the key of the current member
  };
  void start_value() {
    if (!stack_.empty() && stack_.back().array) ++stack_.back().count;
  }
  std::string path() const {
    std::string p;
    for (const Frame& f : stack_) {
      if (f.array) {
        p += "[" + std::to_string(f.count ? f.count - 1 : 0) + "]";
      } else if (!f.key.empty() || &f != &stack_.back()) {
        if (!p.empty()) p += '.';
        p += excerpt(f.key, 60);
      }
    }
    return p;
  }
  const std::string& file_;
  std::vector<Frame> stack_;
};

}  // namespace

std::string dump_json(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

nlohmann::json parse_json_text(std::string_view text, const std::string& file,
                               const Limits& limits) {
  check_depth(text, file, limits.max_json_depth);
  try {
    return nlohmann::json::parse(text, DuplicateKeys(file));
  } catch (const nlohmann::json::out_of_range& e) {  // not expected after check_depth
    throw InputError(file, "expected JSON, " + excerpt(e.what(), 200));
  } catch (const nlohmann::json::parse_error& e) {
    const Place p = place_of(text, e.byte > 0 ? e.byte - 1 : 0);
    std::string what = e.what();
    const std::size_t at = what.find(": ");  // drop nlohmann's "[json.exception...] " prefix
    throw InputError(
        file, p.line, p.col,
        "expected JSON, " + excerpt(at == std::string::npos ? what : what.substr(at + 2), 200));
  }
}

std::optional<std::int64_t> json_int(const nlohmann::json& j, std::int64_t lo, std::int64_t hi) {
  if (j.is_number_unsigned()) {
    const auto v = j.get<std::uint64_t>();
    if (hi < 0 || v > std::uint64_t(hi) || (lo > 0 && v < std::uint64_t(lo))) return std::nullopt;
    return static_cast<std::int64_t>(v);
  }
  if (!j.is_number_integer()) return std::nullopt;
  const auto v = j.get<std::int64_t>();
  if (v < lo || v > hi) return std::nullopt;
  return v;
}

nlohmann::json read_json_file(const std::string& path, const Limits& limits) {
  return parse_json_text(read_text_file(path, limits), path, limits);
}

}  // namespace cubex
