// The table of a solve's options (cubex/options.hpp): each row checks a text value and stores it.
#include "cubex/options.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>

#include "cubex/error.hpp"

namespace cubex {
namespace {

std::string quoted(std::string_view text) {
  return "'" + excerpt(text) + "'";
}

bool all_digits(std::string_view t, std::size_t max_len) {
  return !t.empty() && t.size() <= max_len && t.find_first_not_of("0123456789") == std::string::npos;
}

// A whole number of 0 or more that fits 64 bits.
std::uint64_t whole(std::string_view text, const char* flag) {
  std::string_view t = text;
  while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
  if (!all_digits(t, 20) || (t.size() == 20 && t > "18446744073709551615")) {
    throw UsageError(std::string("expected --") + flag + " to be a whole number of 0 or more, found " +
                     quoted(text));
  }
  return std::strtoull(std::string(t).c_str(), nullptr, 10);
}

// A size in bytes: a whole number, optionally followed by K, M, G or T (powers of 1024).
std::uint64_t byte_size(std::string_view text, const char* flag) {
  std::string_view t = text;
  int shift = 0;
  if (!t.empty()) {
    const char* units = "KMGT";
    for (int k = 0; k < 4; ++k) {
      if (std::toupper(static_cast<unsigned char>(t.back())) == units[k]) shift = 10 * (k + 1);
    }
    if (shift) t.remove_suffix(1);
  }
  if (!all_digits(t, 15) || (std::strtoull(std::string(t).c_str(), nullptr, 10) >> (62 - shift)) != 0) {
    throw UsageError(std::string("expected --") + flag +
                     " SIZE, a whole number of bytes below 2^62, optionally with K, M, G or T "
                     "(e.g. 4G), found " + quoted(text));
  }
  return std::strtoull(std::string(t).c_str(), nullptr, 10) << shift;
}

double seconds(std::string_view text, const char* flag) {
  const std::string s(text);
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end == s.c_str() || *end != '\0' || !std::isfinite(v) || v < 0.01 || v > 1e7) {
    throw UsageError(std::string("expected --") + flag +
                     " SECONDS, a number from 0.01 to 10000000, found " + quoted(text));
  }
  return v;
}

// A switch's value: yes/true or no/false.
bool switch_value(std::string_view t, const char* flag) {
  if (t != "yes" && t != "no" && t != "true" && t != "false")
    throw UsageError(std::string("expected --") + flag + " yes or no, found " + quoted(t));
  return t == "yes" || t == "true";
}

std::string number(double v) {
  std::string s = std::to_string(v);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

std::string comma(std::uint64_t n) {
  std::string d = std::to_string(n), s;
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (i && (d.size() - i) % 3 == 0) s += ',';
    s += d[i];
  }
  return s;
}

// clang-format off
const OptionRow kOptionTable[] = {
  {"threads", "N", "worker threads (default 0: all cores)",
   [](Options& o, std::string_view t) {
     if (!all_digits(t, 4) || std::stoul(std::string(t)) > 4096)
       throw UsageError("expected --threads from 0 (all cores) to 4096, found " + quoted(t));
     o.threads = static_cast<unsigned>(std::stoul(std::string(t)));
   },
   [](const Options& o) { return std::to_string(o.threads); }},
  {"symmetry", "MODE",
   "auto (default): also count solutions up to the puzzle's symmetry (rotations, and reflections "
   "where the pieces allow), listing one solution per class; rotations: rotations only; none: "
   "every solution counted and listed",
   [](Options& o, std::string_view t) {
     const auto s = parse_symmetry(t);
     if (!s) throw UsageError("expected --symmetry none, rotations or auto, found " + quoted(t));
     o.symmetry = *s;
   },
   [](const Options& o) { return std::string(symmetry_name(o.symmetry_or_default())); }},
  {"limit", "N", "stop after N solutions (N classes with symmetry); 0 (default): all",
   [](Options& o, std::string_view t) { o.limit = whole(t, "limit"); },
   [](const Options& o) { return std::to_string(o.limit); }},
  {"expand", nullptr,
   "list every solution of each class found, not one per class (with --first/--all)",
   [](Options& o, std::string_view t) {
     if (t != "yes" && t != "no" && t != "true" && t != "false")
       throw UsageError("expected --expand yes or no, found " + quoted(t));
     o.expand = t == "yes" || t == "true";
   },
   [](const Options& o) { return std::string(o.expand ? "yes" : "no"); }},
  {"count-by", "HOW",
   "auto (default): when only counts are wanted, by memo where it pays (Happy Cube structures; "
   "tilings by a few shapes in many copies and Knuth files after a short trial of each way: "
   "see docs/memo.md), else by search; memo: always by memo (refused where it does not apply); "
   "search: always by search",
   [](Options& o, std::string_view t) {
     if (t == "auto") o.count_by = CountBy::automatic;
     else if (t == "memo") o.count_by = CountBy::memo;
     else if (t == "search") o.count_by = CountBy::search;
     else throw UsageError("expected --count-by auto, memo or search, found " + quoted(t));
   },
   [](const Options& o) { return std::string(count_by_name(o.count_by)); }},
  {"memo-budget", "SIZE",
   "the most memory the memo's table may take, in bytes or with K, M, G or T (powers of 1024), "
   "e.g. 4G; 0 (default): a quarter of the memory available. A count that outgrows it is made "
   "by search instead (with a note)",
   [](Options& o, std::string_view t) { o.memo_budget = byte_size(t, "memo-budget"); },
   [](const Options& o) { return std::to_string(o.memo_budget); }},
  {"backend", "NAME",
   "auto (default), links or bitset: the search backend (links and bitset without pruning walk "
   "the same tree; the bitset backend prunes where it pays)",
   [](Options& o, std::string_view t) {
     if (t == "auto") o.backend = Backend::kAuto;
     else if (t == "links") o.backend = Backend::kLinks;
     else if (t == "bitset") o.backend = Backend::kBitset;
     else throw UsageError("expected --backend auto, links or bitset, found " + quoted(t));
   },
   [](const Options& o) { return std::string(backend_name(o.backend_or_default())); }},
  {"checkpoint", "FILE",
   "save the search's state to FILE (every minute, on Ctrl-C/SIGTERM/SIGHUP, at the end)",
   [](Options& o, std::string_view t) {
     if (t.empty()) throw UsageError("expected a value after --checkpoint, found an empty string");
     o.checkpoint = t;
   },
   [](const Options& o) { return o.checkpoint; }},
  {"checkpoint-every", "SECONDS", "seconds between checkpoints (default 60)",
   [](Options& o, std::string_view t) { o.checkpoint_every = seconds(t, "checkpoint-every"); },
   [](const Options& o) { return number(o.checkpoint_every); }},
  {"resume", "FILE",
   "go on with the search saved in FILE (and keep saving there); the symmetry mode, backend and "
   "shard come from FILE",
   [](Options& o, std::string_view t) {
     if (t.empty()) throw UsageError("expected a value after --resume, found an empty string");
     o.resume = t;
   },
   [](const Options& o) { return o.resume; }},
  {"shard", "K/N", "search only shard K of N of a fixed cut of the tree",
   [](Options& o, std::string_view t) {
     const auto slash = t.find('/');
     const auto bad = [&] {
       return UsageError("expected --shard K/N with 0 <= K < N, found " + quoted(t));
     };
     if (slash == std::string_view::npos || !all_digits(t.substr(0, slash), 9) ||
         !all_digits(t.substr(slash + 1), 9))
       throw bad();
     const auto k = std::stoul(std::string(t.substr(0, slash)));
     const auto n = std::stoul(std::string(t.substr(slash + 1)));
     if (n == 0 || k >= n) throw bad();
     o.shard_index = static_cast<std::uint32_t>(k);
     o.shard_count = static_cast<std::uint32_t>(n);
   },
   [](const Options& o) {
     return std::to_string(o.shard_index) + "/" + std::to_string(o.shard_count);
   }},
  {"max-nodes", "N",
   "refuse a puzzle whose exact-cover matrix has more nodes than this (default 20,000,000; up to "
   "2,000,000,000)",
   [](Options& o, std::string_view t) {
     const std::uint64_t n = whole(t, "max-nodes");
     if (n < 1 || n > kMaxNodesCeiling) {
       throw UsageError("expected --max-nodes from 1 to " + comma(kMaxNodesCeiling) +
                        " (the solver indexes nodes with 32-bit integers), found " +
                        std::to_string(n));
     }
     o.max_nodes = n;
   },
   [](const Options& o) { return std::to_string(o.max_nodes); }},
  {"max-xml-bytes", "N",
   "BurrTools files: the most bytes of XML a file may inflate to (default 67,108,864: 64 MiB)",
   [](Options& o, std::string_view t) {
     const std::uint64_t n = whole(t, "max-xml-bytes");
     if (n < 1 || n > (std::uint64_t(1) << 40))
       throw UsageError("expected --max-xml-bytes from 1 to " + comma(std::uint64_t(1) << 40) +
                        ", found " + std::to_string(n));
     o.max_xml_bytes = n;
   },
   [](const Options& o) { return std::to_string(o.max_xml_bytes); }},
  {"max-xml-elements", "N",
   "BurrTools files: the most XML elements (default 1,000,000; attributes: 4 times as many)",
   [](Options& o, std::string_view t) {
     const std::uint64_t n = whole(t, "max-xml-elements");
     if (n < 1 || n > (std::uint64_t(1) << 40))
       throw UsageError("expected --max-xml-elements from 1 to " +
                        comma(std::uint64_t(1) << 40) + ", found " + std::to_string(n));
     o.max_xml_elements = n;
   },
   [](const Options& o) { return std::to_string(o.max_xml_elements); }},
  {"problem", "NAME|INDEX",
   "BurrTools files: the problem to solve, by name or number (1 = the first, the default)",
   [](Options& o, std::string_view t) {
     if (t.empty()) throw UsageError("expected a value after --problem, found an empty string");
     o.problem = t;
   },
   [](const Options& o) { return o.problem; }},
  {"unique", nullptr,
   "stop as soon as a second class of solutions exists and say \"unique\" or \"not unique (at "
   "least 2 classes)\" (exit 0 either way; JSON counts.unique_verdict)",
   [](Options& o, std::string_view t) { o.unique = switch_value(t, "unique"); },
   [](const Options& o) { return std::string(o.unique ? "yes" : "no"); }},
  {"forced", nullptr,
   "list the placements that every solution uses, and the pieces they fix (one pass over all "
   "the solutions)",
   [](Options& o, std::string_view t) { o.forced = switch_value(t, "forced"); },
   [](const Options& o) { return std::string(o.forced ? "yes" : "no"); }},
  {"check", nullptr,
   "compare the counts with each file's published ones (its \"expect\", as the library's "
   "entries have) and report agreement; exit 3 when one differs",
   [](Options& o, std::string_view t) { o.check = switch_value(t, "check"); },
   [](const Options& o) { return std::string(o.check ? "yes" : "no"); }},
  {"csv", "OUT",
   "with one or more FILEs: write one CSV row per file to OUT ('-': standard output), going on "
   "past a file that fails (its row names the error; exit 2 at the end)",
   [](Options& o, std::string_view t) {
     if (t.empty()) throw UsageError("expected a value after --csv, found an empty string");
     o.csv = t;
   },
   [](const Options& o) { return o.csv; }},
  {"disassemble", nullptr,
   "take every assembly (one per class) apart by sliding moves, as BurrTools does; count and "
   "list only the ones that come apart, with their level (voxel puzzles)",
   [](Options& o, std::string_view t) { o.disassemble = switch_value(t, "disassemble"); },
   [](const Options& o) { return std::string(o.disassemble ? "yes" : "no"); }},
  {"keep-locked", nullptr,
   "with --disassemble: also list the assemblies that do not come apart (their disassembly null)",
   [](Options& o, std::string_view t) { o.keep_locked = switch_value(t, "keep-locked"); },
   [](const Options& o) { return std::string(o.keep_locked ? "yes" : "no"); }},
  {"sort", "KEY",
   "with --disassemble: level lists the solutions with the highest level first (the hardest to "
   "take apart); by default in the order found",
   [](Options& o, std::string_view t) {
     if (t != "level") throw UsageError("expected --sort level, found " + quoted(t));
     o.sort_by_level = true;
   },
   [](const Options& o) { return std::string(o.sort_by_level ? "level" : ""); }},
};
// clang-format on

}  // namespace

const char* symmetry_name(Symmetry s) {
  switch (s) {
    case Symmetry::none: return "none";
    case Symmetry::rotations: return "rotations";
    default: return "auto";
  }
}

std::optional<Symmetry> parse_symmetry(std::string_view text) {
  if (text == "none") return Symmetry::none;
  if (text == "rotations") return Symmetry::rotations;
  if (text == "auto") return Symmetry::automatic;
  return std::nullopt;
}

const char* backend_name(Backend b) {
  switch (b) {
    case Backend::kLinks: return "links";
    case Backend::kBitset: return "bitset";
    default: return "auto";
  }
}

const char* count_by_name(CountBy c) {
  switch (c) {
    case CountBy::memo: return "memo";
    case CountBy::search: return "search";
    default: return "auto";
  }
}

std::span<const OptionRow> option_table() {
  return kOptionTable;
}

const OptionRow* find_option(std::string_view name) {
  for (const OptionRow& r : kOptionTable) {
    const std::string_view n = r.name;
    if (n.size() != name.size()) continue;
    bool same = true;
    for (std::size_t i = 0; i < n.size() && same; ++i)
      same = n[i] == name[i] || (n[i] == '-' && name[i] == '_');
    if (same) return &r;
  }
  return nullptr;
}

void set_option(Options& o, std::string_view name, std::string_view value) {
  const OptionRow* r = find_option(name);
  if (!r) throw UsageError("unknown option '" + excerpt(name) + "'");
  r->set(o, value);
}

std::string option_table_markdown() {
  std::string out = "| option | what it does |\n|---|---|\n";
  for (const OptionRow& r : kOptionTable) {
    const auto cell = [&](std::string_view text) {  // (a '|' would end the cell)
      for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
    };
    out += "| `--";
    cell(r.name);
    if (r.value) {
      out += ' ';
      cell(r.value);
    }
    out += "` | ";
    cell(r.help);
    out += " |\n";
  }
  return out;
}

std::string option_table_roff() {
  const auto roff = [](std::string_view s) {
    std::string out;
    for (char c : s) {
      if (c == '-') out += "\\-";
      else if (c == '\\') out += "\\e";
      else out += c;
    }
    return out;
  };
  std::string out;
  for (const OptionRow& r : kOptionTable) {
    out += ".TP\n";
    if (r.value) {
      out += ".BI \\-\\-" + roff(r.name) + " \" " + roff(r.value) + "\"\n";
    } else {
      out += ".B \\-\\-" + roff(r.name) + "\n";
    }
    std::string help = roff(r.help);
    if (!help.empty()) help[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(help[0])));
    out += help + ".\n";
  }
  return out;
}

}  // namespace cubex
