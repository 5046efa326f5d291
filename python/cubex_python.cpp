// The `cubex` Python module (pybind11): load any puzzle file the CLI reads, or build an
// exact-cover matrix from Python lists; count solutions (total, unique up to symmetry,
// symmetric) on threads with the GIL released; iterate solutions as a generator; Ctrl-C and a
// progress callback. docs/python.md shows a session.
//
// Every search goes through run_search() below: the one place that knows the threaded search
// API, so that moving to another one is a single edit.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "cubex/core/job.hpp"
#include "cubex/core/problem.hpp"
#include "cubex/error.hpp"
#include "cubex/limits.hpp"
#include "cubex/puzzle.hpp"
#include "cubex/symmetry.hpp"

namespace py = pybind11;

namespace cubex::python {
namespace {

// ---- the search ---------------------------------------------------------------------------------

// Searches `pb` on `threads` threads (0: all cores): with `sym`, its restricted problem, each
// solution judged and counted as a class. `visit` (may be null: count only) gets each class's
// solution (options of `pb`) and class size, one call at a time, in the order of a one-thread
// run; returning false stops. `max_classes` (0: none) stops after that many classes. `tick` is
// called on the calling thread about every 0.1 s and once at the end; `stop`, set from outside,
// stops the search. The only use of the threaded search API in this module.
struct Tick {
  double fraction = 0, elapsed = 0;
  std::uint64_t nodes = 0, solutions = 0;
};
JobResult run_search(const Problem& pb, const SymmetricSolver* sym, unsigned threads,
                     std::uint64_t max_classes, ClassVisitor* visit, const std::atomic<bool>& stop,
                     const std::function<void(const Tick&)>& tick) {
  SearchJob job(sym ? sym->restricted() : pb, sym);
  JobOptions opt;
  opt.threads = threads;
  opt.max_classes = max_classes;
  opt.stop = &stop;
  opt.ordered = visit != nullptr;
  opt.progress_seconds = 0.1;
  opt.on_progress = [&](const JobProgress& p) {
    tick({p.fraction, p.elapsed, p.counts.nodes, p.counts.total});
  };
  return job.run(opt, visit);
}

// ---- JSON to Python -----------------------------------------------------------------------------

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
      return py::str(j.get_ref<const std::string&>());
    case nlohmann::json::value_t::array: {
      py::list l;
      for (const auto& e : j) l.append(to_py(e));
      return l;
    }
    case nlohmann::json::value_t::object: {
      py::dict d;
      for (const auto& [k, v] : j.items()) d[py::str(k)] = to_py(v);
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
      const auto id = o.value("option", std::uint64_t(-1));
      if (id >= pb_.num_options()) return "option " + std::to_string(id) + " does not exist";
      chosen.push_back(static_cast<OptionId>(id));
    }
    return check_solution(pb_, chosen);
  }

 private:
  Problem pb_;
  std::string name_;
};

SymmetryMode symmetry_mode(const std::string& text) {
  const auto m = parse_symmetry_mode(text);
  if (!m)
    throw py::value_error("symmetry: expected 'none', 'rotations' or 'auto', found '" + text + "'");
  return *m;
}

// ---- counting -----------------------------------------------------------------------------------

struct Counts {
  std::uint64_t total = 0, unique = 0, symmetric = 0;
  std::size_t group_order = 1;
  bool complete = true;
  std::uint64_t nodes = 0;
  double seconds = 0;
  unsigned threads = 1;
};

// Calls Python from the tick: Ctrl-C (PyErr_CheckSignals) and the progress callback. An
// exception from either stops the search and is raised when it has ended; once the callback has
// said stop it is not asked again while the search ends.
struct PythonTick {
  std::atomic<bool>& stop;
  py::object progress;
  std::optional<py::error_already_set> error;
  bool said_stop = false;
  void operator()(const Tick& pr) {
    if (error || said_stop) return;
    py::gil_scoped_acquire gil;
    try {
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
      if (!progress.is_none()) {
        py::dict p;
        p["fraction"] = pr.fraction;
        p["nodes"] = pr.nodes;
        p["solutions"] = pr.solutions;
        p["elapsed"] = pr.elapsed;
        if (progress(p).is(py::bool_(false))) stop = said_stop = true;  // the callback said stop
      }
    } catch (py::error_already_set& e) {
      error.emplace(std::move(e));
      stop = true;
    }
  }
};

Counts count(const Puzzle& puzzle, const std::string& symmetry, unsigned threads,
             const py::object& progress) {
  const Problem& pb = puzzle.problem();
  const CubeGroup group = puzzle.symmetry_group(symmetry_mode(symmetry));
  std::optional<SymmetricSolver> sym;
  if (group.group.order() > 1) sym.emplace(pb, group.group);
  std::atomic<bool> stop{false};
  PythonTick tick{stop, progress, std::nullopt, false};
  JobResult r;
  {
    py::gil_scoped_release release;
    r = run_search(pb, sym ? &*sym : nullptr, threads, 0, nullptr, stop, std::ref(tick));
  }
  if (tick.error) throw std::move(*tick.error);
  Counts c;
  c.group_order = group.group.order();
  c.total = r.counts.total;
  c.unique = r.counts.unique;
  c.symmetric = r.counts.symmetric;
  c.complete = r.complete;
  c.nodes = r.counts.nodes;
  c.seconds = r.seconds;
  c.threads = r.threads;
  return c;
}

// ---- the solution generator ---------------------------------------------------------------------

// Runs the search on a thread of its own and hands solutions over through a bounded queue:
// __next__ waits for the next one with the GIL released, checking for Ctrl-C every 50 ms.
// Dropping the iterator (or breaking out of a for loop over it) stops the search.
class SolutionIterator {
 public:
  struct Found {
    std::vector<OptionId> options;
    std::uint64_t orbit = 1, cls = 0;
    std::size_t element = 0;
  };

  SolutionIterator(std::shared_ptr<const Puzzle> puzzle, const std::string& symmetry,
                   std::uint64_t limit, unsigned threads, bool expand, py::object progress)
      : puzzle_(std::move(puzzle)), progress_(std::move(progress)) {
    const Problem& pb = puzzle_->problem();
    const CubeGroup group = puzzle_->symmetry_group(symmetry_mode(symmetry));
    if (group.group.order() > 1) sym_.emplace(pb, group.group);
    worker_ = std::thread([this, limit, threads, expand] { work(limit, threads, expand); });
  }

  ~SolutionIterator() { finish(); }

  py::object next() {
    Found f;
    while (true) {
      {
        py::gil_scoped_release release;
        std::unique_lock lock(mu_);
        ready_.wait_for(lock, std::chrono::milliseconds(50),
                        [&] { return !queue_.empty() || done_; });
        if (!queue_.empty()) {
          f = std::move(queue_.front());
          queue_.pop_front();
          room_.notify_one();
          break;
        }
      }
      // Waiting (no solution for 50 ms): Ctrl-C, the progress callback, the end.
      if (PyErr_CheckSignals() != 0) {
        finish();
        throw py::error_already_set();
      }
      report_progress();
      std::unique_lock lock(mu_);
      if (done_ && queue_.empty()) {
        lock.unlock();
        finish();
        if (error_) std::rethrow_exception(error_);
        throw py::stop_iteration();
      }
    }
    report_progress();  // while solutions flow, too (at most every 0.1 s)
    py::dict d = to_py(puzzle_->solution_json(f.options));
    d["option_ids"] =
        py::array_t<std::uint32_t>(static_cast<py::ssize_t>(f.options.size()), f.options.data());
    d["orbit_size"] = f.orbit;
    d["class"] = f.cls;
    d["element"] = f.element;
    return d;
  }

 private:
  void work(std::uint64_t limit, unsigned threads, bool expand) {
    try {
      std::uint64_t classes = 0;
      auto push = [&](std::span<const OptionId> s, std::uint64_t orbit, std::size_t element) {
        std::unique_lock lock(mu_);
        room_.wait(lock, [&] { return queue_.size() < kQueue || stop_; });
        if (stop_) return false;
        queue_.push_back({std::vector<OptionId>(s.begin(), s.end()), orbit, classes, element});
        ready_.notify_one();
        return true;
      };
      auto each = [&](std::span<const OptionId> s, std::uint64_t orbit) {
        ++classes;
        if (!expand || !sym_) return push(s, orbit, 0);
        for (const auto& [g, image] : orbit_of(*sym_, s))
          if (!push(image, orbit, g)) return false;
        return true;
      };
      ClassVisitor visit(each);
      run_search(puzzle_->problem(), sym_ ? &*sym_ : nullptr, threads, limit, &visit, stop_,
                 [&](const Tick& t) {
                   std::lock_guard lock(mu_);
                   fraction_ = t.fraction;
                   nodes_ = t.nodes;
                 });
    } catch (...) {
      std::lock_guard lock(mu_);
      error_ = std::current_exception();
    }
    std::lock_guard lock(mu_);
    done_ = true;
    ready_.notify_all();
  }

  // Calls the progress callback (at most every 0.1 s) until it has said stop: the solutions
  // already queued still come out, and the search may take a moment to end, but the callback is
  // not asked again.
  void report_progress() {
    if (progress_.is_none() || progress_said_stop_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_report_ < std::chrono::milliseconds(100)) return;
    last_report_ = now;
    double f;
    std::uint64_t nodes;
    {
      std::lock_guard lock(mu_);
      f = fraction_;
      nodes = nodes_;
    }
    py::dict p;
    p["fraction"] = f;
    p["nodes"] = nodes;
    if (progress_(p).is(py::bool_(false))) {
      progress_said_stop_ = true;
      std::lock_guard lock(mu_);
      stop_ = true;
      room_.notify_all();
    }
  }

  // Stops the search and waits for its thread (which never touches Python).
  void finish() {
    if (!worker_.joinable()) return;
    {
      std::lock_guard lock(mu_);
      stop_ = true;
      room_.notify_all();
    }
    py::gil_scoped_release release;
    worker_.join();
  }

  static constexpr std::size_t kQueue = 256;
  std::shared_ptr<const Puzzle> puzzle_;
  py::object progress_;
  std::optional<SymmetricSolver> sym_;
  std::thread worker_;
  std::mutex mu_;
  std::condition_variable ready_, room_;
  std::deque<Found> queue_;
  std::atomic<bool> stop_{false};
  bool done_ = false;
  std::exception_ptr error_;
  double fraction_ = 0;
  std::uint64_t nodes_ = 0;
  std::chrono::steady_clock::time_point last_report_ = std::chrono::steady_clock::now();
  bool progress_said_stop_ = false;  // (Python's thread only)
};

std::shared_ptr<const Puzzle> matrix(const std::vector<py::object>& items,
                                     const std::vector<std::vector<py::object>>& options,
                                     const std::vector<std::string>& secondary,
                                     const std::string& name) {
  Problem pb;
  for (const py::object& it : items) {
    if (py::isinstance<py::str>(it)) {
      pb.add_primary(it.cast<std::string>());
    } else {
      // (name, lo, hi): an item covered lo to hi times (Knuth's multiplicities)
      const auto t = it.cast<std::tuple<std::string, std::uint32_t, std::uint32_t>>();
      pb.add_primary(std::get<0>(t), std::get<1>(t), std::get<2>(t));
    }
  }
  for (const std::string& s : secondary) pb.add_secondary(s);
  std::vector<ItemId> ids;
  for (std::size_t k = 0; k < options.size(); ++k) {
    ids.clear();
    for (const py::object& o : options[k]) {
      if (py::isinstance<py::int_>(o)) {
        const auto i = o.cast<std::int64_t>();
        if (i < 0 || std::uint64_t(i) >= pb.num_items()) {
          throw py::index_error("options[" + std::to_string(k) + "]: no item " + std::to_string(i));
        }
        ids.push_back(static_cast<ItemId>(i));
      } else {
        const std::string n = o.cast<std::string>();
        const auto id = pb.find(n);
        if (!id)
          throw py::key_error("options[" + std::to_string(k) + "]: no item named '" + n + "'");
        ids.push_back(*id);
      }
    }
    try {
      pb.add_option(ids);
    } catch (const ProblemError& e) {
      throw py::value_error("options[" + std::to_string(k) + "]: " + e.what());
    }
  }
  check_nodes(pb);
  return std::make_shared<MatrixPuzzle>(std::move(pb), name);
}

}  // namespace
}  // namespace cubex::python

PYBIND11_MODULE(cubex, m) {
  using namespace cubex;
  using namespace cubex::python;
  m.doc() = "cubex: an exact-cover engine for cube puzzles (docs/python.md)";

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const ProblemError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const LimitError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });

  py::class_<Counts>(m, "Counts", "The result of Puzzle.count()")
      .def_readonly("total", &Counts::total, "all solutions")
      .def_readonly("unique", &Counts::unique, "classes up to the symmetry group")
      .def_readonly("symmetric", &Counts::symmetric, "classes fixed by a symmetry that moves items")
      .def_readonly("group_order", &Counts::group_order)
      .def_readonly("complete", &Counts::complete, "False when stopped early")
      .def_readonly("nodes", &Counts::nodes)
      .def_readonly("seconds", &Counts::seconds)
      .def_readonly("threads", &Counts::threads)
      .def("__repr__", [](const Counts& c) {
        return "Counts(total=" + std::to_string(c.total) + ", unique=" + std::to_string(c.unique) +
               ", symmetric=" + std::to_string(c.symmetric) +
               ", group_order=" + std::to_string(c.group_order) +
               (c.complete ? "" : ", complete=False") + ")";
      });

  py::class_<SolutionIterator>(m, "SolutionIterator")
      .def("__iter__", [](SolutionIterator& it) -> SolutionIterator& { return it; })
      .def("__next__", &SolutionIterator::next);

  py::class_<Puzzle, std::shared_ptr<Puzzle>>(m, "Puzzle", "A puzzle: a file read, or a matrix")
      .def_property_readonly("kind", &Puzzle::kind)
      .def_property_readonly("name", &Puzzle::name)
      .def_property_readonly("num_items", [](const Puzzle& p) { return p.problem().num_items(); })
      .def_property_readonly("num_options",
                             [](const Puzzle& p) { return p.problem().num_options(); })
      .def_property_readonly("items",
                             [](const Puzzle& p) {
                               std::vector<std::string> n;
                               for (const Item& i : p.problem().items()) n.push_back(i.name);
                               return n;
                             })
      .def(
          "option",
          [](const Puzzle& p, std::size_t o) {
            if (o >= p.problem().num_options())
              throw py::index_error("no option " + std::to_string(o));
            std::vector<std::string> n;
            for (ItemId i : p.problem().option(static_cast<OptionId>(o)))
              n.push_back(p.problem().item(i).name);
            return n;
          },
          py::arg("index"), "the names of the items of option `index`")
      .def(
          "symmetry_order",
          [](const Puzzle& p, const std::string& s) {
            return p.symmetry_group(symmetry_mode(s)).group.order();
          },
          py::arg("symmetry") = "auto", "the order of the puzzle's symmetry group")
      .def(
          "count",
          [](const Puzzle& p, const std::string& symmetry, unsigned threads,
             const py::object& progress) { return count(p, symmetry, threads, progress); },
          py::arg("symmetry") = "auto", py::arg("threads") = 0, py::arg("progress") = py::none(),
          "Counts the solutions on `threads` threads (0: all cores) with the GIL released.\n"
          "symmetry: 'auto' (rotations and reflections), 'rotations' or 'none'. progress(d) is\n"
          "called about every 0.1 s with d = {'fraction', 'nodes', 'solutions', 'elapsed'}\n"
          "(counts of the finished work units; solutions of the searched matrix); returning\n"
          "False stops the search (Counts.complete is then False). Ctrl-C raises\n"
          "KeyboardInterrupt.")
      .def(
          "solutions",
          [](std::shared_ptr<Puzzle> p, const std::string& symmetry, std::uint64_t limit,
             unsigned threads, bool expand, py::object progress) {
            return std::make_unique<SolutionIterator>(std::move(p), symmetry, limit, threads,
                                                      expand, std::move(progress));
          },
          py::arg("symmetry") = "none", py::arg("limit") = 0, py::arg("threads") = 1,
          py::arg("expand") = false, py::arg("progress") = py::none(),
          "A generator of solutions, each a dict: the keys of `cubex solve --json`\n"
          "('placements' or 'options'), 'option_ids' (numpy uint32 array), 'orbit_size',\n"
          "'class' and 'element'. With symmetry 'auto' or 'rotations' one solution per class,\n"
          "or every solution of each class with expand=True. limit: stop after this many\n"
          "classes (0: none). The order is that of a one-thread run, whatever `threads`.")
      .def(
          "solution_text",
          [](const Puzzle& p, const std::vector<OptionId>& options) {
            for (OptionId o : options)
              if (o >= p.problem().num_options())
                throw py::index_error("no option " + std::to_string(o));
            return p.solution_text(options);
          },
          py::arg("option_ids"), "the solution drawn as text, as `cubex solve` prints it")
      .def(
          "verify",
          [](const Puzzle& p, const std::vector<OptionId>& options) {
            return check_solution(p.problem(), options);
          },
          py::arg("option_ids"),
          "'' when the options form a solution, else what is wrong (an independent count)");

  m.def(
      "load", [](const std::string& path) { return std::shared_ptr<Puzzle>(load_puzzle(path)); },
      py::arg("path"),
      "Reads a puzzle file as `cubex solve` does (.json, .txt, .hcq, .dlx, .xc). Raises\n"
      "ValueError naming the file and place for a malformed one.");
  m.def(
      "matrix",
      [](const std::vector<py::object>& items, const std::vector<std::vector<py::object>>& options,
         const std::vector<std::string>& secondary, const std::string& name) {
        return std::const_pointer_cast<Puzzle>(matrix(items, options, secondary, name));
      },
      py::arg("items"), py::arg("options"), py::arg("secondary") = std::vector<std::string>{},
      py::arg("name") = "matrix",
      "An exact-cover matrix from lists: items (names, or (name, lo, hi) for an item covered\n"
      "lo..hi times), options (lists of item names or indices), secondary item names.");
  m.attr("__version__") = CUBEX_VERSION;
}
