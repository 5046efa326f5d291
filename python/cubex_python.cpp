// cubex._cubex, the extension behind the `cubex` Python package (python/cubex/__init__.py):
// load any puzzle file the CLI reads, or its text, or build an exact-cover matrix from Python
// lists; count solutions (total, unique up to symmetry, symmetric) with the GIL released;
// iterate solutions as a generator; Ctrl-C and a progress callback; draw a solution as SVG.
// docs/python.md shows a session.
//
// Every search runs on a thread of its own while Python's thread waits with the GIL released,
// waking every 50 ms for Ctrl-C and the progress callback: a search that reports no progress
// for a long time still stops at once. Every count and listing goes through cubex::solve (the
// solve layer, cubex/solve.hpp), as `cubex solve` does: the same checks, memo and search.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "cubex/core/problem.hpp"
#include "cubex/cubex.hpp"
#include "cubex/error.hpp"
#include "cubex/formats.hpp"
#include "cubex/happycube/puzzle.hpp"
#include "cubex/happycube/reader.hpp"
#include "cubex/knuth/format.hpp"
#include "cubex/limits.hpp"
#include "cubex/puzzle.hpp"
#include "cubex/render/svg.hpp"
#include "cubex/symmetry.hpp"
#include "cubex/util/json.hpp"
#include "cubex/voxel/read.hpp"
#ifdef CUBEX_WITH_BURRTOOLS
#include "cubex/burrtools/xmpuzzle.hpp"
#endif

namespace py = pybind11;

namespace cubex::python {
namespace {

// ---- Python values in, with errors that name the argument and the value -------------------------

// A short repr() of `v` for an error message.
std::string shown(py::handle v) {
  std::string r = py::repr(v).cast<std::string>();
  return r.size() > 60 ? r.substr(0, 57) + "..." : r;
}

// `v` as an integer from lo to hi; TypeError or ValueError naming `what` and the value.
long long integer(py::handle v, const std::string& what, long long lo, long long hi,
                  const char* noun = "an int") {
  if (!PyLong_Check(v.ptr()) || PyBool_Check(v.ptr())) {
    throw py::type_error(what + ": expected an int, found " + shown(v) + " (" +
                         std::string(Py_TYPE(v.ptr())->tp_name) + ")");
  }
  int overflow = 0;
  const long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
  if (overflow != 0 || x < lo || x > hi) {
    throw py::value_error(what + ": expected " + noun + " from " + std::to_string(lo) + " to " +
                          std::to_string(hi) + ", found " + shown(v));
  }
  return x;
}

std::string text(py::handle v, const std::string& what) {
  if (!py::isinstance<py::str>(v)) {
    throw py::type_error(what + ": expected a str, found " + shown(v) + " (" +
                         std::string(Py_TYPE(v.ptr())->tp_name) + ")");
  }
  return v.cast<std::string>();
}

// A str for Python from bytes that came from a file (a name, a note): bytes that are not UTF-8
// become U+FFFD rather than a UnicodeDecodeError.
py::str str(const std::string& s) {
  PyObject* o = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace");
  if (!o) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(o);
}

Symmetry symmetry_option(py::handle v) {
  const std::string t = text(v, "symmetry");
  const auto m = parse_symmetry(t);
  if (!m)
    throw py::value_error("symmetry: expected 'none', 'rotations' or 'auto', found " + shown(v));
  return *m;
}

SymmetryMode symmetry_mode(py::handle v) {
  const std::string t = text(v, "symmetry");
  const auto m = parse_symmetry_mode(t);
  if (!m)
    throw py::value_error("symmetry: expected 'none', 'rotations' or 'auto', found " + shown(v));
  return *m;
}

unsigned thread_count(py::handle v) {
  return static_cast<unsigned>(integer(v, "threads", 0, 4096));
}

// ---- JSON between C++ and Python ----------------------------------------------------------------

py::object to_py(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null:
      return py::none();
    case nlohmann::json::value_t::boolean:
      return py::bool_(j.get<bool>());
    case nlohmann::json::value_t::number_integer:
      return py::int_(j.get<std::int64_t>());
    case nlohmann::json::value_t::number_unsigned:
      return py::int_(j.get<std::uint64_t>());
    case nlohmann::json::value_t::number_float:
      return py::float_(j.get<double>());
    case nlohmann::json::value_t::string:
      return str(j.get_ref<const std::string&>());
    case nlohmann::json::value_t::array: {
      py::list l;
      for (const auto& e : j) l.append(to_py(e));
      return l;
    }
    case nlohmann::json::value_t::object: {
      py::dict d;
      for (const auto& [k, v] : j.items()) d[str(k)] = to_py(v);
      return d;
    }
    default:
      return py::none();
  }
}

// ---- a matrix built from Python lists -----------------------------------------------------------

class MatrixPuzzle final : public Puzzle {
 public:
  MatrixPuzzle(Problem pb, std::string name) : pb_(std::move(pb)), name_(std::move(name)) {}
  std::string kind() const override { return "exact-cover"; }
  std::string name() const override { return name_; }
  const Problem& problem() const override { return pb_; }
  nlohmann::json solution_json(std::span<const OptionId> solution) const override {
    std::vector<OptionId> sorted(solution.begin(), solution.end());
    std::sort(sorted.begin(), sorted.end());
    nlohmann::json options = nlohmann::json::array();
    for (OptionId o : sorted) {
      nlohmann::json names = nlohmann::json::array();
      for (ItemId i : pb_.option(o)) names.push_back(pb_.item(i).name);
      options.push_back({{"option", o}, {"items", names}});
    }
    return {{"options", options}};
  }
  std::string solution_text(std::span<const OptionId> solution) const override {
    std::string out;
    for (const auto& o : solution_json(solution)["options"]) {
      for (const auto& n : o["items"]) out += n.get<std::string>() + " ";
      if (!out.empty()) out.back() = '\n';
    }
    return out;
  }
  std::string verify_solution(const nlohmann::json& solution) const override {
    if (!solution.is_object() || !solution.contains("options")) return "expected \"options\"";
    std::vector<OptionId> chosen;
    for (const auto& o : solution["options"]) {
      const auto id = o.is_object() ? json_int(o.value("option", nlohmann::json()), 0, INT64_MAX)
                                    : std::nullopt;
      if (!id || std::uint64_t(*id) >= pb_.num_options()) return "expected an option number";
      chosen.push_back(static_cast<OptionId>(*id));
    }
    return check_solution(pb_, chosen);
  }

 private:
  Problem pb_;
  std::string name_;
};

std::shared_ptr<Puzzle> matrix(py::handle items, py::handle options, py::handle secondary,
                               const std::string& name) {
  auto sequence = [](py::handle v, const std::string& what) {
    if (py::isinstance<py::str>(v) || !py::isinstance<py::iterable>(v)) {
      throw py::type_error(what + ": expected a list, found " + shown(v) + " (" +
                           std::string(Py_TYPE(v.ptr())->tp_name) + ")");
    }
    std::vector<py::object> out;
    for (py::handle e : v) out.push_back(py::reinterpret_borrow<py::object>(e));
    return out;
  };
  Problem pb;
  const auto item_list = sequence(items, "items");
  for (std::size_t k = 0; k < item_list.size(); ++k) {
    const py::object& it = item_list[k];
    const std::string where = "items[" + std::to_string(k) + "]";
    try {
      if (py::isinstance<py::str>(it)) {
        pb.add_primary(it.cast<std::string>());
      } else if (py::isinstance<py::tuple>(it) && py::len(it) == 3) {
        // (name, lo, hi): an item covered lo to hi times (Knuth's multiplicities)
        const auto t = it.cast<py::tuple>();
        pb.add_primary(text(t[0], where + "[0]"),
                       static_cast<std::uint32_t>(integer(t[1], where + "[1]", 0, UINT32_MAX)),
                       static_cast<std::uint32_t>(integer(t[2], where + "[2]", 0, UINT32_MAX)));
      } else {
        throw py::type_error(where + ": expected an item name (str) or (name, lo, hi), found " +
                             shown(it));
      }
    } catch (const ProblemError& e) {
      throw py::value_error(where + ": " + e.what());
    }
  }
  const auto secondary_list = sequence(secondary, "secondary");
  for (std::size_t k = 0; k < secondary_list.size(); ++k) {
    const std::string where = "secondary[" + std::to_string(k) + "]";
    try {
      pb.add_secondary(text(secondary_list[k], where));
    } catch (const ProblemError& e) {
      throw py::value_error(where + ": " + e.what());
    }
  }
  const auto option_list = sequence(options, "options");
  std::vector<ItemId> ids;
  for (std::size_t k = 0; k < option_list.size(); ++k) {
    const std::string where = "options[" + std::to_string(k) + "]";
    ids.clear();
    const auto entries = sequence(option_list[k], where);
    for (std::size_t j = 0; j < entries.size(); ++j) {
      const py::object& o = entries[j];
      const std::string at = where + "[" + std::to_string(j) + "]";
      if (py::isinstance<py::str>(o)) {
        const std::string n = o.cast<std::string>();
        const auto id = pb.find(n);
        if (!id) throw py::value_error(at + ": no item named " + shown(o));
        ids.push_back(*id);
      } else if (PyLong_Check(o.ptr()) && !PyBool_Check(o.ptr())) {
        const auto n = static_cast<long long>(pb.num_items());
        if (n == 0) throw py::value_error(at + ": no item " + shown(o) + " (there are no items)");
        ids.push_back(static_cast<ItemId>(integer(o, at, 0, n - 1, "an item index")));
      } else {
        throw py::type_error(at + ": expected an item name (str) or index (int), found " +
                             shown(o) + " (" + std::string(Py_TYPE(o.ptr())->tp_name) + ")");
      }
    }
    try {
      pb.add_option(ids);
    } catch (const ProblemError& e) {
      throw py::value_error(where + ": " + e.what());
    }
  }
  try {
    check_nodes(pb, Limits{});
  } catch (const LimitError& e) {
    throw py::value_error(std::string("options: ") + e.what());
  }
  return std::make_shared<MatrixPuzzle>(std::move(pb), name);
}

// ---- loading ------------------------------------------------------------------------------------

#ifdef CUBEX_WITH_BURRTOOLS
// A BurrTools puzzle read from memory: the voxel puzzle with what the file says about itself
// (its notes and recorded counts), as load_puzzle gives for a file.
class XmText final : public Puzzle {
 public:
  XmText(std::unique_ptr<Puzzle> inner, burrtools::Loaded& loaded)
      : inner_(std::move(inner)), notes_(std::move(loaded.notes)), recorded_(loaded.recorded) {
    for (std::string& n : inner_->notes()) notes_.push_back(std::move(n));
  }
  std::string kind() const override { return inner_->kind(); }
  std::string name() const override { return inner_->name(); }
  const Problem& problem() const override { return inner_->problem(); }
  std::vector<std::string> notes() const override { return notes_; }
  std::string infeasible() const override { return inner_->infeasible(); }
  nlohmann::json solution_json(std::span<const OptionId> s) const override {
    return inner_->solution_json(s);
  }
  std::string solution_text(std::span<const OptionId> s) const override {
    return inner_->solution_text(s);
  }
  std::string coloured_solution_text(std::span<const OptionId> s) const override {
    return inner_->coloured_solution_text(s);
  }
  std::string verify_solution(const nlohmann::json& s) const override {
    return inner_->verify_solution(s);
  }
  CubeGroup symmetry_group(SymmetryMode mode, const Watch& watch = {}) const override {
    return inner_->symmetry_group(mode, watch);
  }
  std::vector<std::pair<std::string, ItemId>> piece_items() const override {
    return inner_->piece_items();
  }
  std::optional<render::Scene> scene(const nlohmann::json& s) const override {
    return inner_->scene(s);
  }
  std::vector<ItemId> memo_order() const override { return inner_->memo_order(); }
  std::string option_label(OptionId o) const override { return inner_->option_label(o); }
  std::optional<RecordedCounts> recorded_counts() const override { return recorded_; }

 private:
  std::unique_ptr<Puzzle> inner_;
  std::vector<std::string> notes_;
  std::optional<RecordedCounts> recorded_;
};
#endif

std::shared_ptr<Puzzle> load_file(const std::string& path, const std::string& problem,
                                  py::handle max_nodes) {
  Options o;
  if (!max_nodes.is_none()) {
    o.max_nodes = static_cast<std::uint64_t>(
        integer(max_nodes, "max_nodes", 1, static_cast<long long>(kMaxNodesCeiling)));
  }
  o.problem = problem;
  return std::shared_ptr<Puzzle>(cubex::load(path, o));
}

// A puzzle from the contents of a file of `format` ("json", ".dlx"...); `name` stands for the
// file in messages.
std::shared_ptr<Puzzle> load_text(const std::string& data, std::string format,
                                  const std::string& name, const std::string& problem) {
  std::transform(format.begin(), format.end(), format.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (!format.empty() && format[0] == '.') format.erase(0, 1);
  const bool xml = format == "xmpuzzle";
  if (!problem.empty() && !xml) {
    throw py::value_error(
        "problem: picks a problem of a file that holds several (.xmpuzzle); "
        "format '" +
        format + "' holds one");
  }
  const bool text_format = format == "txt" || format == "hcq" || format == "dlx" || format == "xc";
  if (text_format) {
    // As read_text_file does for files: a NUL byte is no text.
    const std::size_t nul = data.find('\0');
    if (nul != std::string::npos) {
      const std::size_t line = static_cast<std::size_t>(
          std::count(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(nul), '\n'));
      const std::size_t start = data.rfind('\n', nul);
      const std::size_t col = start == std::string::npos ? nul + 1 : nul - start;
      throw InputError(name, static_cast<int>(line + 1), static_cast<int>(col),
                       "expected text, found a NUL byte");
    }
  }
  std::unique_ptr<Puzzle> p;
  try {
    if (format == "json") {
      const nlohmann::json doc = parse_json_text(data, name);
      if (doc.is_object() && doc.contains("kind") && doc["kind"] == "happy-cube") {
        p = happycube::make_puzzle(happycube::parse_json(doc, name));
      } else {
        p = voxel::load_json(doc, name);
      }
    } else if (format == "txt") {
      p = voxel::make_puzzle(voxel::model_from_txt(data, name), name, false);
    } else if (format == "hcq") {
      p = happycube::make_puzzle(happycube::parse_hcq(data, name));
    } else if (format == "dlx" || format == "xc") {
      p = make_exact_cover(parse_knuth(data, name), name);
    } else if (xml) {
#ifdef CUBEX_WITH_BURRTOOLS
      LoadOptions opt;
      opt.problem = problem;
      burrtools::Loaded loaded =
          burrtools::parse_xmpuzzle(burrtools::gunzip(data, name), name, opt);
      p = std::make_unique<XmText>(voxel::make_puzzle(loaded.model, name, false), loaded);
#else
      throw py::value_error(
          "format 'xmpuzzle': this cubex was built without BurrTools support (run "
          "tools/setup.sh, or configure with -DCUBEX_BURRTOOLS=ON: it needs zlib and pugixml)");
#endif
    } else {
      throw py::value_error(
          "format: expected 'json', 'txt', 'hcq', 'dlx', 'xc' or 'xmpuzzle', "
          "found '" +
          format + "'");
    }
    check_nodes(p->problem(), Limits{});
  } catch (const LimitError& e) {
    throw InputError(name, e.what());
  }
  return std::shared_ptr<Puzzle>(std::move(p));
}

// ---- options of a solution, from Python ---------------------------------------------------------

// The options of a solution given as a Solution (its "option_ids"), or a sequence of option
// numbers (a list, a numpy array).
std::vector<OptionId> option_ids(const Puzzle& p, py::handle v, const char* what) {
  py::object seq = py::reinterpret_borrow<py::object>(v);
  if (py::isinstance<py::dict>(v)) {
    py::dict d = py::reinterpret_borrow<py::dict>(v);
    if (!d.contains("option_ids"))
      throw py::value_error(std::string(what) + ": expected a solution with 'option_ids'");
    seq = d["option_ids"];
  }
  if (py::hasattr(seq, "tolist")) seq = seq.attr("tolist")();  // a numpy array
  if (py::isinstance<py::str>(seq) || !py::isinstance<py::iterable>(seq)) {
    throw py::type_error(std::string(what) +
                         ": expected a solution or a list of option numbers, "
                         "found " +
                         shown(v));
  }
  std::vector<OptionId> out;
  const auto n = static_cast<long long>(p.problem().num_options());
  std::size_t k = 0;
  for (py::handle o : seq) {
    const std::string at = std::string(what) + "[" + std::to_string(k++) + "]";
    if (n == 0) throw py::value_error(at + ": the puzzle has no options");
    out.push_back(static_cast<OptionId>(integer(o, at, 0, n - 1, "an option number")));
  }
  return out;
}

// ---- searching on a thread of its own -----------------------------------------------------------

struct Report {
  double fraction = 0, elapsed = 0;
  std::uint64_t nodes = 0, solutions = 0;
};

py::dict progress_dict(const Report& p) {
  py::dict d;
  d["fraction"] = p.fraction;
  d["nodes"] = p.nodes;
  d["solutions"] = p.solutions;
  d["elapsed"] = p.elapsed;
  return d;
}

// The search's thread: started with a function, stopped (the flag) and joined, with the GIL
// released, whenever this object goes (an exception in Python's thread included).
class Worker {
 public:
  Worker() = default;
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;
  ~Worker() { join(); }

  void start(std::function<void()> work) {
    thread_ = std::thread([this, work = std::move(work)] {
      try {
        work();
      } catch (...) {
        std::lock_guard lock(mu);
        error = std::current_exception();
      }
      std::lock_guard lock(mu);
      done = true;
      changed.notify_all();
    });
  }
  // Stops the search and waits for its thread (which never touches Python).
  void join() {
    if (!thread_.joinable()) return;
    {
      std::lock_guard lock(mu);
      stop = true;
      changed.notify_all();
    }
    py::gil_scoped_release release;
    thread_.join();
  }
  // Waits (GIL released) until the work is done or `ms` have passed; true when done.
  bool wait(int ms) {
    py::gil_scoped_release release;
    std::unique_lock lock(mu);
    return changed.wait_for(lock, std::chrono::milliseconds(ms), [&] { return done; });
  }

  std::atomic<bool> stop{false};
  std::mutex mu;
  std::condition_variable changed;
  bool done = false;         // (mu)
  std::exception_ptr error;  // (mu)
  Report progress;           // (mu) the last report

 private:
  std::thread thread_;
};

// Calls the progress callback with the worker's last report, at most every 0.1 s, until it has
// said stop (returned False): it is not asked again after that. An exception from it
// propagates (the caller's Worker then stops the search).
class ProgressCaller {
 public:
  explicit ProgressCaller(py::object callback) : callback_(std::move(callback)) {
    if (!callback_.is_none() && !PyCallable_Check(callback_.ptr()))
      throw py::type_error("progress: expected a callable or None, found " + shown(callback_));
  }
  void operator()(Worker& w, bool force = false) {
    if (callback_.is_none() || said_stop_) return;
    const auto now = std::chrono::steady_clock::now();
    if (!force && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    Report p;
    {
      std::lock_guard lock(w.mu);
      p = w.progress;
    }
    if (callback_(progress_dict(p)).is(py::bool_(false))) {
      said_stop_ = true;
      std::lock_guard lock(w.mu);
      w.stop = true;
      w.changed.notify_all();
    }
  }
  bool said_stop() const { return said_stop_; }

 private:
  py::object callback_;
  bool said_stop_ = false;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

// Raises KeyboardInterrupt (or what Python's SIGINT handler raises) when a signal came.
void check_signals() {
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
}

// ---- the options of a solve --------------------------------------------------------------------

// Options for cubex::solve from count()'s and solutions()' arguments: the typed ones, then any
// other row of the options table (cubex/options.hpp) by its Python name ('_' for '-'), as text
// (True/False for a switch). TypeError or ValueError naming the keyword and the value.
Options solve_options(py::handle symmetry, py::handle threads, py::handle limit, py::handle expand,
                      const py::kwargs& more) {
  Options o;
  o.symmetry = symmetry_option(symmetry);
  o.threads = thread_count(threads);
  o.limit = static_cast<std::uint64_t>(integer(limit, "limit", 0, LLONG_MAX));
  if (!PyBool_Check(expand.ptr()))
    throw py::type_error("expand: expected True or False, found " + shown(expand));
  o.expand = expand.cast<bool>();
  for (const auto& [key, value] : more) {
    const std::string name = key.cast<std::string>();
    const OptionRow* row = find_option(name);
    if (!row || name.find('-') != std::string::npos || name == "max_nodes" || name == "problem") {
      std::string known;
      for (const OptionRow& r : option_table()) {
        std::string n = r.name;
        std::replace(n.begin(), n.end(), '-', '_');
        if (n != "max_nodes" && n != "problem") known += (known.empty() ? "" : ", ") + n;
      }
      throw py::type_error("unexpected keyword argument '" + name + "' (the options: " + known +
                           "; max_nodes and problem are cubex.load's)");
    }
    std::string text;
    if (!row->value) {
      if (!PyBool_Check(value.ptr()))
        throw py::type_error(name + ": expected True or False, found " + shown(value));
      text = value.cast<bool>() ? "yes" : "no";
    } else if (py::isinstance<py::str>(value)) {
      text = value.cast<std::string>();
    } else if (PyLong_Check(value.ptr()) && !PyBool_Check(value.ptr())) {
      text = py::str(value).cast<std::string>();
    } else if (PyFloat_Check(value.ptr())) {
      text = py::str(value).cast<std::string>();
    } else if (py::isinstance<py::tuple>(value) && py::len(value) == 2) {  // shard=(K, N)
      text = py::str(value.cast<py::tuple>()[0]).cast<std::string>() + "/" +
             py::str(value.cast<py::tuple>()[1]).cast<std::string>();
    } else if (PyObject_HasAttrString(value.ptr(), "__fspath__")) {  // a path
      text = py::module_::import("os").attr("fsdecode")(value).cast<std::string>();
    } else {
      throw py::type_error(name + ": expected " + row->value + " as a str or a number, found " +
                           shown(value));
    }
    try {
      row->set(o, text);
    } catch (const Error& e) {
      throw py::value_error(name + ": " + e.what());
    }
  }
  return o;
}

// Runs cubex::solve on the worker's thread (no Python here): its stop flag, its progress.
Result run_solve(const Puzzle& puzzle, Options o, Worker& w, const SolutionSink& sink = {}) {
  o.stop = &w.stop;
  o.progress_seconds = 0.1;
  o.on_progress = [&w](const Progress& p) {
    std::lock_guard lock(w.mu);
    w.progress = {p.fraction, p.elapsed, p.counts.nodes, p.counts.total};
  };
  return solve(puzzle, o, sink);
}

// ---- counting -----------------------------------------------------------------------------------

// A count as a Python int, exact at any size.
py::object py_int(const BigCount& n) {
  if (n.fits_u64()) return py::int_(n.to_u64());
  const std::string digits = n.to_string();
  return py::reinterpret_steal<py::object>(PyLong_FromString(digits.c_str(), nullptr, 10));
}

py::object count_solutions(std::shared_ptr<Puzzle> puzzle, py::handle symmetry, py::handle threads,
                           py::object progress, py::handle limit, const py::kwargs& more) {
  const Options o = solve_options(symmetry, threads, limit, py::bool_(false), more);
  ProgressCaller report(std::move(progress));
  Result r;
  {
    Worker w;
    w.start([&] { r = run_solve(*puzzle, o, w); });
    while (!w.wait(50)) {
      check_signals();  // (w, going, stops and joins the search)
      report(w);
    }
    w.join();
    if (w.error) std::rethrow_exception(w.error);
  }
  check_signals();  // a signal that came as the count ended
  py::dict stats;
  stats["nodes"] = r.nodes;
  stats["seconds"] = r.seconds;
  stats["threads"] = r.threads;
  stats["method"] = r.method;
  const Counts& c = r.counts;
  return py::module_::import("cubex").attr("Counts")(py_int(c.total), py_int(c.unique),
                                                     py_int(c.symmetric), c.group_order,
                                                     c.complete, **stats);
}

// ---- the solution generator ---------------------------------------------------------------------

// Runs the solve on a thread of its own and hands solutions over through a bounded queue:
// __next__ waits for the next one with the GIL released, checking for Ctrl-C every 50 ms.
// Dropping the iterator (or breaking out of a for loop over it) stops the search.
class SolutionIterator {
 public:
  struct Found {
    std::vector<OptionId> options;
    std::uint64_t index = 0, cls = 0, orbit = 1;
    std::size_t element = 0;
  };

  SolutionIterator(std::shared_ptr<const Puzzle> puzzle, Options options, py::object progress)
      : puzzle_(std::move(puzzle)),
        solution_type_(py::module_::import("cubex").attr("Solution")),
        report_(std::move(progress)) {
    worker_.start([this, options = std::move(options)] {
      run_solve(*puzzle_, options, worker_, [this](const Solution& s) {
        std::unique_lock lock(worker_.mu);
        worker_.changed.wait(lock, [&] { return queue_.size() < kQueue || worker_.stop; });
        if (worker_.stop) return false;
        queue_.push_back({std::vector<OptionId>(s.options.begin(), s.options.end()), s.index,
                          s.class_index, s.orbit, s.element});
        worker_.changed.notify_all();
        return true;
      });
    });
  }

  py::object next() {
    Found f;
    while (true) {
      {
        py::gil_scoped_release release;
        std::unique_lock lock(worker_.mu);
        worker_.changed.wait_for(lock, std::chrono::milliseconds(50),
                                 [&] { return !queue_.empty() || worker_.done; });
        if (!queue_.empty()) {
          f = std::move(queue_.front());
          queue_.pop_front();
          worker_.changed.notify_all();
          break;
        }
      }
      // Waiting (no solution for 50 ms): Ctrl-C, the progress callback, the end.
      check_signals();  // (raising: the iterator stays, and its search waits until it goes)
      report_(worker_);
      std::unique_lock lock(worker_.mu);
      if (worker_.done && queue_.empty()) {
        lock.unlock();
        worker_.join();
        if (worker_.error) std::rethrow_exception(std::exchange(worker_.error, nullptr));
        throw py::stop_iteration();
      }
    }
    report_(worker_);  // while solutions flow, too (at most every 0.1 s)
    py::object d = solution_type_(to_py(puzzle_->solution_json(f.options)));
    d["index"] = f.index;
    d["class"] = f.cls;
    d["orbit_size"] = f.orbit;
    d["element"] = f.element;
    d["option_ids"] =
        py::array_t<std::uint32_t>(static_cast<py::ssize_t>(f.options.size()), f.options.data());
    return d;
  }

 private:
  static constexpr std::size_t kQueue = 256;
  std::shared_ptr<const Puzzle> puzzle_;
  py::object solution_type_;
  ProgressCaller report_;    // (Python's thread only)
  std::deque<Found> queue_;  // (worker_.mu)
  Worker worker_;            // last: its thread goes first
};

// ---- drawing ------------------------------------------------------------------------------------

std::string render_svg(const Puzzle& p, py::handle solution,
                       const std::optional<std::string>& caption) {
  nlohmann::json js;
  std::string what = "the solution";
  if (py::isinstance<py::dict>(solution) &&
      !py::reinterpret_borrow<py::dict>(solution).contains("option_ids")) {
    // A solution in its JSON form (as read back from `cubex solve --json`).
    const std::string t = py::module_::import("json").attr("dumps")(solution).cast<std::string>();
    js = parse_json_text(t, "solution");
  } else {
    js = p.solution_json(option_ids(p, solution, "solution"));
  }
  if (const std::string why = p.verify_solution(js); !why.empty())
    throw py::value_error("solution: not a solution of this puzzle: " + why);
  const std::optional<render::Scene> sc = p.scene(js);
  if (!sc) {
    throw py::value_error("render_svg: " + p.kind() +
                          " puzzles have no geometry to draw (voxel and happy-cube puzzles have)");
  }
  std::string cap;
  if (caption) {
    cap = *caption;
  } else if (py::isinstance<py::dict>(solution)) {
    py::dict d = py::reinterpret_borrow<py::dict>(solution);
    if (d.contains("index")) cap = "solution " + py::str(d["index"]).cast<std::string>();
    if (d.contains("orbit_size") && py::int_(d["orbit_size"]).cast<std::uint64_t>() > 1) {
      cap += (cap.empty() ? "" : " ") + std::string("(stands for ") +
             py::str(d["orbit_size"]).cast<std::string>() + " solutions)";
    }
  }
  return render::svg(*sc, cap);
}

}  // namespace
}  // namespace cubex::python

PYBIND11_MODULE(_cubex, m) {
  using namespace cubex;
  using namespace cubex::python;
  m.doc() = "The extension behind the cubex package (use `import cubex`; docs/python.md)";

  // cubex::Error by its kind: input -> cubex.InputError (a ValueError, with the place), usage
  // and limit -> ValueError, internal -> RuntimeError.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      switch (e.kind()) {
        case Error::Kind::input: {
          py::object cls = py::module_::import("cubex").attr("InputError");
          py::object none = py::none();
          py::object err =
              cls(str(e.what()), e.file().empty() ? none : py::object(str(e.file())),
                  e.line() > 0 ? py::object(py::int_(e.line())) : none,
                  e.column() > 0 ? py::object(py::int_(e.column())) : none,
                  e.json_path().empty() ? none : py::object(str(e.json_path())), str(e.message()));
          PyErr_SetObject(cls.ptr(), err.ptr());
          break;
        }
        case Error::Kind::usage:
        case Error::Kind::limit:
          PyErr_SetString(PyExc_ValueError, e.what());
          break;
        default:
          PyErr_SetString(PyExc_RuntimeError, e.what());
      }
    }
  });

  py::class_<SolutionIterator>(m, "SolutionIterator",
                               "The generator of Puzzle.solutions(): yields Solution dicts")
      .def(
          "__iter__", [](SolutionIterator& it) -> SolutionIterator& { return it; },
          "the generator itself")
      .def("__next__", &SolutionIterator::next,
           "the next Solution (waiting for the search with the GIL released); StopIteration at "
           "the end");

  py::class_<Puzzle, std::shared_ptr<Puzzle>>(
      m, "Puzzle",
      "A puzzle: a file read (cubex.load), text (cubex.loads), a dict (cubex.from_dict) or an\n"
      "exact-cover matrix (cubex.matrix), compiled to an exact-cover matrix.")
      .def_property_readonly(
          "kind", [](const Puzzle& p) { return p.kind(); },
          "'voxel', 'happy-cube' or 'exact-cover'")
      .def_property_readonly(
          "name", [](const Puzzle& p) { return str(p.name()); },
          "the puzzle's name (from the file, else the file's name)")
      .def_property_readonly(
          "num_items", [](const Puzzle& p) { return p.problem().num_items(); },
          "the number of items (columns) of the exact-cover matrix")
      .def_property_readonly(
          "num_options", [](const Puzzle& p) { return p.problem().num_options(); },
          "the number of options (rows) of the exact-cover matrix")
      .def_property_readonly(
          "items",
          [](const Puzzle& p) {
            py::list n;
            for (const Item& i : p.problem().items()) n.append(str(i.name));
            return n;
          },
          "the item names of the exact-cover matrix, in order")
      .def_property_readonly(
          "notes",
          [](const Puzzle& p) {
            py::list n;
            for (const std::string& s : p.notes()) n.append(str(s));
            return n;
          },
          "what the reader noticed, one line each, as `cubex solve` prints them after 'note: '\n"
          "(\"pieces a and b are congruent: counted as identical\", warnings)")
      .def_property_readonly(
          "infeasible",
          [](const Puzzle& p) -> py::object {
            const std::string why = p.infeasible();
            if (why.empty()) return py::none();
            return str(why);
          },
          "why the puzzle has no solution, found without searching (the cells do not add up,\n"
          "a piece fits nowhere...), as `cubex solve` prints after 'no solution: '; None when\n"
          "only a search can tell")
      .def(
          "option",
          [](const Puzzle& p, py::handle index) {
            const auto n = static_cast<long long>(p.problem().num_options());
            if (n == 0) throw py::value_error("index: the puzzle has no options");
            const auto o =
                static_cast<OptionId>(integer(index, "index", 0, n - 1, "an option number"));
            py::list names;
            for (ItemId i : p.problem().option(o)) names.append(str(p.problem().item(i).name));
            return names;
          },
          py::arg("index"), "the names of the items of option `index` (from 0)")
      .def(
          "symmetry_order",
          [](const Puzzle& p, py::handle s) {
            return p.symmetry_group(symmetry_mode(s)).group.order();
          },
          py::arg("symmetry") = "auto",
          "the order of the puzzle's symmetry group under `symmetry` ('auto', 'rotations' or\n"
          "'none')")
      .def("count", &count_solutions, py::arg("symmetry") = "auto", py::arg("threads") = 0,
           py::arg("progress") = py::none(), py::arg("limit") = 0,
           "Counts the solutions as `cubex solve` does (cubex::solve: the pre-search checks, by\n"
           "memo where the CLI counts by memo, else by search) and returns a cubex.Counts\n"
           "(total, unique, symmetric, group_order, complete; nodes, seconds, threads, method).\n"
           "symmetry: 'auto' (the default, as the CLI's: rotations, and reflections where the\n"
           "pieces allow), 'rotations' or 'none'. threads: 0 for all cores. limit: stop after\n"
           "this many solutions (classes with symmetry); 0: all. The other options of `cubex\n"
           "solve` are keywords, '_' for '-' (count_by='search', backend='links',\n"
           "checkpoint='x.ck', checkpoint_every=30, resume='x.ck', shard='0/2'). The GIL is\n"
           "released meanwhile. progress(d), when given, is called about every 0.1 s with d =\n"
           "{'fraction', 'nodes', 'solutions', 'elapsed'}; returning False stops the count\n"
           "(complete is then False); an exception from it stops the count and propagates.\n"
           "Ctrl-C raises KeyboardInterrupt.")
      .def(
          "solutions",
          [](std::shared_ptr<Puzzle> p, py::handle symmetry, py::handle limit, py::handle threads,
             py::handle expand, py::object progress, const py::kwargs& more) {
            Options o = solve_options(symmetry, threads, limit, expand, more);
            return std::make_unique<SolutionIterator>(std::move(p), std::move(o),
                                                      std::move(progress));
          },
          py::arg("symmetry") = "auto", py::arg("limit") = 0, py::arg("threads") = 1,
          py::arg("expand") = false, py::arg("progress") = py::none(),
          "A generator of solutions, each a cubex.Solution (a dict with the keys of a solution in\n"
          "`cubex solve --json`: 'placements' or 'options', 'index', 'class', 'orbit_size',\n"
          "'element'; and 'option_ids', a numpy uint32 array). symmetry: 'auto' (the default)\n"
          "or 'rotations' gives one solution per class, or every solution of each class with\n"
          "expand=True; 'none' every solution. limit: stop after this many classes (0: none).\n"
          "The order is that of a one-thread run, whatever `threads`. progress and the other\n"
          "options of `cubex solve` as for count(). Leaving the loop or dropping the generator\n"
          "stops the search; Ctrl-C raises KeyboardInterrupt.")
      .def(
          "solution_text",
          [](const Puzzle& p, py::handle solution) {
            return str(p.solution_text(option_ids(p, solution, "solution")));
          },
          py::arg("solution"),
          "the solution (a Solution, or its option_ids) drawn as text, as `cubex solve` prints it")
      .def("render_svg", &render_svg, py::arg("solution"), py::arg("caption") = py::none(),
           "The solution as an SVG picture (the text of an .svg file), as `cubex render --svg`\n"
           "draws it: a Solution, its option_ids, or a solution's dict from `cubex solve --json`.\n"
           "caption: the line under the title (default 'solution K' from the Solution's index).\n"
           "ValueError for a matrix (no geometry) or options that are no solution.")
      .def(
          "verify",
          [](const Puzzle& p, py::handle solution) {
            return check_solution(p.problem(), option_ids(p, solution, "solution"));
          },
          py::arg("solution"),
          "'' when the options (a Solution, or its option_ids) form a solution, else what is\n"
          "wrong (checked independently of the solver)")
      .def(
          "__repr__",
          [](const Puzzle& p) {
            return "<cubex.Puzzle " + py::repr(str(p.name())).cast<std::string>() + ": " +
                   p.kind() + ", " + std::to_string(p.problem().num_items()) + " items, " +
                   std::to_string(p.problem().num_options()) + " options>";
          },
          "<cubex.Puzzle 'NAME': KIND, N items, M options>");

  m.def("_load", &load_file, py::arg("path"), py::arg("problem"), py::arg("max_nodes"),
        "cubex.load without its checks of the path (use cubex.load)");
  m.def(
      "_loads",
      [](const py::bytes& data, const std::string& format, const std::string& name,
         const std::string& problem) {
        return load_text(std::string(data), format, name, problem);
      },
      py::arg("data"), py::arg("format"), py::arg("name"), py::arg("problem"),
      "cubex.loads without its checks of the arguments (use cubex.loads)");
  m.def(
      "matrix",
      [](py::handle items, py::handle options, py::handle secondary, py::handle name) {
        return matrix(items, options, secondary, text(name, "name"));
      },
      py::arg("items"), py::arg("options"), py::arg("secondary") = py::tuple(),
      py::arg("name") = "matrix",
      "An exact-cover matrix from lists, as a Puzzle. items: primary item names, or\n"
      "(name, lo, hi) for an item covered lo to hi times (Knuth's multiplicities). options:\n"
      "lists of item names or indices into items + secondary. secondary: names of items\n"
      "covered at most once. TypeError or ValueError naming the argument and the value for\n"
      "anything else (an unknown name, an index out of range, a float...).");
  m.attr("__version__") = CUBEX_VERSION;
  m.attr("burrtools") =
#ifdef CUBEX_WITH_BURRTOOLS
      true;
#else
      false;
#endif
}
