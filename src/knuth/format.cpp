// Reader and writer for Knuth's exact-cover format.
//
//   | comment lines start with '|' (after optional blanks); blank lines are skipped
//   A B 2|C 0:3|D | x y      <- item line: primaries (with optional multiplicity), '|', secondaries
//   A x                      <- one option per line: the items it covers
//   A x:red                  <- a secondary item may take a colour (Knuth's XCC): options that
//                               give it the same colour may share it
//
// Every line, the last one too, must end in a newline (a missing one means a truncated file).
#include "cubex/knuth/format.hpp"

#include <charconv>
#include <limits>

#include "cubex/limits.hpp"
#include "cubex/util/files.hpp"

namespace cubex {
namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

struct Token {
  std::string_view text;
  int col;  // 1-based
};

std::vector<Token> tokenize(std::string_view line) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_blank(line[i])) ++i;
    std::size_t j = i;
    while (j < line.size() && !is_blank(line[j])) ++j;
    if (j > i) out.push_back({line.substr(i, j - i), static_cast<int>(i) + 1});
    i = j;
  }
  return out;
}

std::string quoted(std::string_view s) {
  std::string q;
  q += '\'';
  q += excerpt(s);
  q += '\'';
  return q;
}

struct Parser {
  const std::string& file;
  int line = 0;

  [[noreturn]] void fail(int col, const std::string& msg) const {
    throw InputError(file, line, col, msg);
  }

  void check_name(std::string_view name, int col) const {
    if (name.empty()) fail(col, "expected an item name, found nothing");
    for (char c : name) {
      if (c == ':' || c == '|') {
        fail(col, "expected an item name (no ':' or '|'), found " + quoted(name));
      }
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
        fail(col, "expected an item name, found a control character in " + quoted(name));
      }
    }
    // Names go into JSON (--json, checkpoints, the viewer), which is UTF-8.
    for (std::size_t i = 0; i < name.size();) {
      const std::size_t len = utf8_length(name, i);
      if (len == 0) {
        fail(col + static_cast<int>(i), "expected an item name in UTF-8, found the byte " +
                                            excerpt(name.substr(i, 1)) + " in " + quoted(name));
      }
      i += len;
    }
  }

  std::uint32_t number(std::string_view s, int col, std::string_view token) const {
    std::uint32_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || p != s.data() + s.size() ||
        v > static_cast<std::uint32_t>(std::numeric_limits<std::int32_t>::max() / 2)) {
      fail(col, "expected a multiplicity 'b|name' or 'a:b|name' with whole numbers, found " +
                    quoted(token));
    }
    return v;
  }

  void item_line(std::string_view text, Problem& pb) {
    bool secondary = false;
    for (Token t : tokenize(text)) {
      if (t.text[0] == '|') {  // "|" or "|name": the secondary items start here
        if (secondary) fail(t.col, "expected item names, found a second '|' on the item line");
        secondary = true;
        t.text.remove_prefix(1);
        ++t.col;
        if (t.text.empty()) continue;
      }
      std::string_view name = t.text;
      std::uint32_t lo = 1, hi = 1;
      if (auto bar = t.text.find('|'); bar != std::string_view::npos) {
        if (secondary) {
          fail(t.col, "expected a secondary item name (they take no multiplicity), found " +
                          quoted(t.text));
        }
        std::string_view range = t.text.substr(0, bar);
        name = t.text.substr(bar + 1);
        if (range.empty()) {
          fail(t.col, "expected a multiplicity before '|' (or blanks around a lone '|'), found " +
                          quoted(t.text));
        }
        if (auto colon = range.find(':'); colon != std::string_view::npos) {
          lo = number(range.substr(0, colon), t.col, t.text);
          hi = number(range.substr(colon + 1), t.col, t.text);
        } else {
          lo = hi = number(range, t.col, t.text);
        }
        if (name.empty()) fail(t.col, "expected an item name after " + quoted(range) + "|");
        if (lo > hi) {
          fail(t.col, "expected lower bound <= upper bound in " + quoted(t.text));
        }
      }
      check_name(name, t.col + static_cast<int>(name.data() - t.text.data()));
      try {
        if (secondary) {
          pb.add_secondary(std::string(name));
        } else {
          pb.add_primary(std::string(name), lo, hi);
        }
      } catch (const ProblemError& e) {
        fail(t.col, std::string("expected distinct item names: ") + e.what());
      }
    }
  }

  void option_line(std::string_view text, Problem& pb, std::vector<ItemId>& items,
                   std::vector<ColourId>& colours) {
    items.clear();
    colours.clear();
    for (const Token& t : tokenize(text)) {
      if (t.text.find('|') != std::string_view::npos) {
        fail(t.col, "expected an item name, found " + quoted(t.text) +
                        " ('|' belongs on the item line or at the start of a comment)");
      }
      std::string_view name = t.text;
      ColourId colour = 0;
      if (auto colon = t.text.find(':'); colon != std::string_view::npos) {
        name = t.text.substr(0, colon);
        std::string_view cname = t.text.substr(colon + 1);
        if (cname.empty() || cname.find(':') != std::string_view::npos) {
          fail(t.col,
               "expected 'item:colour' with a non-empty colour name, found " + quoted(t.text));
        }
        for (char c : cname) {
          if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            fail(t.col, "expected a colour name, found a control character in " + quoted(t.text));
        }
        colour = pb.add_colour(cname);
      }
      auto id = pb.find(name);
      if (!id) fail(t.col, "expected an item named on the item line, found " + quoted(name));
      if (colour && pb.item(*id).primary) {
        fail(t.col, "expected a colour on a secondary item only, found " + quoted(t.text) +
                        " on the primary item " + quoted(name));
      }
      for (ItemId seen : items) {
        if (seen == *id)
          fail(t.col, "expected distinct items, found " + quoted(name) + " twice in one option");
      }
      items.push_back(*id);
      colours.push_back(colour);
    }
    bool primary = false;
    for (ItemId i : items) primary |= pb.item(i).primary;
    if (!primary) fail(0, "expected at least one primary item in the option, found none");
    pb.add_option(items, colours);
  }
};

}  // namespace

KnuthFile parse_knuth(std::string_view text, const std::string& name, const Limits& limits) {
  std::string storage;
  text = unix_newlines(text, storage);
  KnuthFile out;
  Parser ps{name};
  bool have_items = false;
  std::vector<ItemId> items;
  std::vector<ColourId> colours;
  std::size_t pos = 0;
  while (pos < text.size()) {
    ++ps.line;
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) {
      ps.fail(static_cast<int>(text.size() - pos) + 1,
              "expected a newline at the end of the line, found the end of the file "
              "(is the file truncated?)");
    }
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    if (line.find('\0') != std::string_view::npos) {
      ps.fail(static_cast<int>(line.find('\0')) + 1, "expected text, found a NUL byte");
    }
    std::size_t first = 0;
    while (first < line.size() && is_blank(line[first])) ++first;
    if (first == line.size() || line[first] == '|') continue;  // blank or comment
    if (!have_items) {
      ps.item_line(line, out.problem);
      have_items = true;
      if (out.problem.num_primary() == 0) {
        ps.fail(static_cast<int>(first) + 1, "expected at least one primary item on the item line");
      }
    } else {
      ps.option_line(line, out.problem, items, colours);
      out.option_line.push_back(ps.line);
      if (const std::uint64_t nodes = matrix_nodes(out.problem); nodes > limits.max_nodes) {
        ps.fail(0, too_many_nodes(nodes, limits));
      }
    }
  }
  if (!have_items) {
    throw InputError(name, ps.line + 1, 0, "expected the item line, found the end of the file");
  }
  return out;
}

KnuthFile read_knuth_file(const std::string& path, const Limits& limits) {
  return parse_knuth(read_text_file(path, limits), path, limits);
}

std::string to_knuth(const Problem& problem) {
  return to_knuth(problem, {}, nullptr);
}

std::string to_knuth(const Problem& problem, const std::vector<std::string>& header,
                     const std::function<std::string(OptionId)>& comment) {
  auto comment_line = [](std::string s) {
    for (char& c : s)
      if (c == '\n' || c == '\r') c = ' ';
    return "| " + s + "\n";
  };
  std::string out;
  for (const std::string& h : header) out += comment_line(h);
  for (const Item& it : problem.items()) {
    if (!it.primary) continue;
    if (it.lo != 1 || it.hi != 1) {
      out += it.lo == it.hi ? std::to_string(it.hi) + "|"
                            : std::to_string(it.lo) + ":" + std::to_string(it.hi) + "|";
    }
    out += it.name + ' ';
  }
  bool bar = false;
  for (const Item& it : problem.items()) {
    if (it.primary) continue;
    if (!bar) out += "| ";
    bar = true;
    out += it.name + ' ';
  }
  out.back() = '\n';
  for (OptionId o = 0; o < problem.num_options(); ++o) {
    if (comment) out += comment_line(comment(o));
    auto items = problem.option(o);
    auto colours = problem.option_colours(o);
    for (std::size_t k = 0; k < items.size(); ++k) {
      if (k) out += ' ';
      out += problem.item(items[k]).name;
      if (colours[k]) out += ':' + problem.colour_name(colours[k]);
    }
    out += '\n';
  }
  return out;
}

}  // namespace cubex
