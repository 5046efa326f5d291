// The puzzle library (cubex/library/library.hpp).
#include "cubex/library/library.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "cubex/error.hpp"
#include "cubex/util/json.hpp"

namespace cubex::library {
namespace fs = std::filesystem;
using nlohmann::json;

std::vector<std::string> search_path() {
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("CUBEX_LIBRARY"); env && *env) {
    const std::string list(env);
    std::size_t start = 0;
    while (start <= list.size()) {
      const std::size_t end = std::min(list.find(':', start), list.size());
      if (end > start) dirs.push_back(list.substr(start, end - start));
      start = end + 1;
    }
  }
#ifdef CUBEX_LIBRARY_INSTALL_DIR
  dirs.push_back(CUBEX_LIBRARY_INSTALL_DIR);
#endif
#ifdef CUBEX_LIBRARY_SOURCE_DIR
  dirs.push_back(CUBEX_LIBRARY_SOURCE_DIR);
#endif
  std::vector<std::string> out;
  for (const std::string& d : dirs) {
    std::error_code ec;
    if (fs::is_directory(d, ec)) out.push_back(d);
  }
  return out;
}

Expect parse_expect(const json& doc, const std::string& file) {
  if (!doc.is_object() || !doc.contains("expect"))
    throw InputError(file, "expect", "expected an \"expect\" object (a library entry's counts)");
  const json& e = doc["expect"];
  if (!e.is_object()) throw InputError(file, "expect", "expected an object");
  for (const auto& [key, value] : e.items()) {
    if (key != "total" && key != "unique" && key != "source" && key != "bench" && key != "note" &&
        key != "symmetry" && key != "cubex_issue")
      throw InputError(
          file, "expect." + key,
          "expected one of the keys total,unique,source,bench,note,symmetry,cubex_issue");
  }
  Expect x;
  for (const char* key : {"total", "unique"}) {
    if (!e.contains(key)) continue;
    const std::optional<std::int64_t> v = json_int(e[key], 0, INT64_MAX);
    if (!v)
      throw InputError(file, std::string("expect.") + key, "expected a count (an integer >= 0)");
    (std::string(key) == "total" ? x.total : x.unique) = std::uint64_t(*v);
  }
  if (!x.total && !x.unique)
    throw InputError(file, "expect", "expected \"total\" or \"unique\" (or both)");
  if (!e.contains("source") || !e["source"].is_string() || e["source"].get<std::string>().empty())
    throw InputError(file, "expect.source",
                     "expected the source of the counts (a non-empty string)");
  x.source = e["source"].get<std::string>();
  if (e.contains("bench")) {
    if (!e["bench"].is_boolean()) throw InputError(file, "expect.bench", "expected true or false");
    x.bench = e["bench"].get<bool>();
  }
  for (const char* key : {"note", "cubex_issue", "symmetry"}) {
    if (!e.contains(key)) continue;
    if (!e[key].is_string())
      throw InputError(file, std::string("expect.") + key, "expected a string");
    const std::string v = e[key].get<std::string>();
    (std::string(key) == "note"       ? x.note
     : std::string(key) == "symmetry" ? x.symmetry
                                      : x.cubex_issue) = v;
  }
  if (x.symmetry != "auto" && x.symmetry != "rotations" && x.symmetry != "none")
    throw InputError(file, "expect.symmetry", "expected \"auto\", \"rotations\" or \"none\"");
  return x;
}

Entry read_entry(const std::string& path) {
  const json doc = read_json_file(path);
  Entry e;
  e.path = path;
  e.id = fs::path(path).stem().string();
  e.expect = parse_expect(doc, path);
  e.name = doc.value("name", e.id);
  e.kind = doc.value("kind", "voxel");
  if (doc.contains("box")) {
    e.container = "box " + doc["box"].dump();
  } else if (doc.contains("container")) {
    const json& c = doc["container"];
    if (c.is_string()) {
      e.container = c.get<std::string>();
    } else if (c.is_object() && c.contains("box")) {
      e.container = "box " + c["box"].dump() + (c.contains("holes") ? " with holes" : "");
    } else if (c.is_object() && c.contains("cells")) {
      e.container = std::to_string(c["cells"].size()) + " cells";
    } else if (c.is_object() && c.contains("layers")) {
      e.container = "figure";
    }
  } else if (e.kind == "happy-cube") {
    e.container = doc.contains("structure") ? "structure" : "cube";
  }
  if (doc.contains("pieces") && doc["pieces"].is_array()) {
    for (const json& p : doc["pieces"]) {
      if (!p.is_object()) continue;
      if (p.contains("set") && p["set"].is_string()) e.sets.push_back(p["set"].get<std::string>());
      if (p.contains("name") && p["name"].is_string())
        e.pieces.push_back(p["name"].get<std::string>());
    }
  }
  return e;
}

std::vector<Entry> entries(const std::string& dir) {
  std::string where = dir;
  if (where.empty()) {
    for (const std::string& d : search_path()) {
      bool any = false;
      for (const auto& f : fs::directory_iterator(d))
        if (f.path().extension() == ".json") any = true;
      if (any) {
        where = d;
        break;
      }
    }
    if (where.empty()) return {};
  }
  std::vector<std::string> files;
  for (const auto& f : fs::directory_iterator(where))
    if (f.path().extension() == ".json") files.push_back(f.path().string());
  std::sort(files.begin(), files.end());
  std::vector<Entry> out;
  for (const std::string& f : files) out.push_back(read_entry(f));
  return out;
}

std::string resolve(const std::string& spec) {
  constexpr std::string_view kPrefix = "library:";
  if (spec.rfind(kPrefix, 0) != 0) return spec;
  const std::string name = spec.substr(kPrefix.size());
  const std::vector<std::string> dirs = search_path();
  if (name.empty() || name.find('/') != std::string::npos || name.find('\\') != std::string::npos)
    throw InputError(spec, "expected library:NAME, NAME a library entry (see `cubex library`)");
  for (const std::string& d : dirs) {
    const fs::path p = fs::path(d) / (name + ".json");
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) return p.string();
  }
  std::string searched;
  for (const std::string& d : dirs) searched += (searched.empty() ? "" : ", ") + d;
  throw InputError(spec,
                   "expected the name of a library entry (`cubex library` lists them); "
                   "searched " +
                       (searched.empty() ? std::string("no folder (none exists; set CUBEX_LIBRARY)")
                                         : searched));
}

namespace {
std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}
}  // namespace

bool matches(const Entry& e, const std::vector<std::string>& words) {
  std::string text = e.id + " " + e.name + " " + e.kind + " " + e.container;
  for (const std::string& s : e.sets) text += " " + s;
  for (const std::string& p : e.pieces) text += " " + p;
  text = lower(text);
  for (const std::string& w : words)
    if (text.find(lower(w)) == std::string::npos) return false;
  return true;
}

}  // namespace cubex::library
