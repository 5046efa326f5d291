// The MILP (CBC), SAT (CaDiCaL) and dancing-links runs of baselines.hpp.
#include "baselines.hpp"

#include <CbcModel.hpp>
#include <CbcSolver.hpp>
#include <CoinPackedMatrix.hpp>
#include <CoinPackedVector.hpp>
#include <OsiClpSolverInterface.hpp>
#include <algorithm>
#include <atomic>
#include <cadical.hpp>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

#include "cubex/core/solver.hpp"

namespace cubex::baselines {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// One timer thread for the whole program, armed per run: it sets a flag at a deadline. (A thread
// started per run would put its start-up into the times of sub-millisecond runs.)
class Timer {
 public:
  static Timer& get() {
    static Timer timer;
    return timer;
  }
  void arm(std::atomic<bool>* flag, Clock::time_point at) {
    {
      std::lock_guard lock(mutex_);
      flag_ = flag;
      at_ = at;
    }
    cv_.notify_all();
  }
  void disarm() {
    std::lock_guard lock(mutex_);
    flag_ = nullptr;
  }
  ~Timer() {
    {
      std::lock_guard lock(mutex_);
      quit_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

 private:
  Timer() : thread_([this] { loop(); }) {}
  void loop() {
    std::unique_lock lock(mutex_);
    while (!quit_) {
      if (flag_ == nullptr) {
        cv_.wait(lock);
      } else if (Clock::now() >= at_) {
        *flag_ = true;
        flag_ = nullptr;
      } else {
        cv_.wait_until(lock, at_);
      }
    }
  }
  std::mutex mutex_;
  std::condition_variable cv_;
  std::atomic<bool>* flag_ = nullptr;
  Clock::time_point at_;
  bool quit_ = false;
  std::thread thread_;
};

Clock::time_point deadline_after(Clock::time_point t0, double seconds) {
  return t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

// True when every solution is fixed by its set of chosen options alone: with lo == hi on every
// primary item no strict superset of a solution is a solution, so a no-good over the chosen
// options suffices. Otherwise the no-good must also name the options left out.
bool short_nogoods(const Problem& pb) {
  for (const Item& it : pb.items())
    if (it.primary && it.lo != it.hi) return false;
  return true;
}

// ---- CBC ----------------------------------------------------------------------------------

enum class MipStatus { kFeasible, kInfeasible, kTimeLimit };

// Solves a copy of `si` with CBC's standalone driver (CbcMain0 / CbcMain1 "-solve", log off).
MipStatus cbc_solve(const OsiClpSolverInterface& si, double seconds, std::vector<double>& x,
                    double& objective) {
  if (seconds <= 0) return MipStatus::kTimeLimit;
  CbcModel model(si);
  CbcSolverUsefulData data;
  data.noPrinting_ = true;
  data.useSignalHandler_ = false;
  CbcMain0(model, data);
  const std::string sec = std::to_string(seconds);
  const char* argv[] = {"cubex-baselines", "-log",   "0",    "-slog", "0", "-sec",
                        sec.c_str(),       "-solve", "-quit"};
  CbcMain1(
      static_cast<int>(std::size(argv)), argv, model, [](CbcModel*, int) { return 0; }, data);
  if (model.isProvenInfeasible()) return MipStatus::kInfeasible;
  // When preprocessing alone solves the program, CBC leaves the solution in bestSolution() with
  // a solution count of 0; the caller verifies whatever comes back.
  if (model.bestSolution() != nullptr &&
      (model.isProvenOptimal() || model.getSolutionCount() > 0)) {
    const int n = model.getNumCols();
    x.assign(model.bestSolution(), model.bestSolution() + n);
    objective = model.getObjValue();
    return MipStatus::kFeasible;
  }
  // Proven optimal with no solution cannot happen; anything else (stopped on time or by another
  // limit) is not an answer.
  return MipStatus::kTimeLimit;
}

// Finds solutions of the 0/1 program `si` one after another, adding a no-good cut for each.
// `decode` turns the chosen columns into a Solution for the visitor (and may reject it by
// returning false, which stops the run); `nogood` fills the cut sum(cut) <= rhs (returned) that
// removes that solution.
template <class Decode, class NoGood>
Run mip_enumerate(OsiClpSolverInterface& si, bool all, double limit_s, Clock::time_point t0,
                  Decode&& decode, NoGood&& nogood, double* first_obj) {
  Run r;
  std::vector<double> x;
  const int n = si.getNumCols();
  for (;;) {
    double obj = 0;
    const MipStatus st = cbc_solve(si, limit_s - since(t0), x, obj);
    if (st == MipStatus::kTimeLimit) break;
    if (st == MipStatus::kInfeasible) {
      r.finished = true;
      break;
    }
    std::vector<int> chosen;
    for (int j = 0; j < n; ++j)
      if (x[static_cast<std::size_t>(j)] > 0.5) chosen.push_back(j);
    if (first_obj != nullptr && r.solutions == 0) *first_obj = obj;
    ++r.solutions;
    if (!decode(chosen)) {
      r.stopped_by_visitor = true;
      break;
    }
    if (!all) {
      r.finished = true;
      break;
    }
    CoinPackedVector cut;
    const double rhs = nogood(chosen, cut);
    si.addRow(cut, -si.getInfinity(), rhs);
  }
  r.seconds = since(t0);
  return r;
}

OsiClpSolverInterface build_lp(const Problem& pb) {
  const int m = static_cast<int>(pb.num_items());
  const int n = static_cast<int>(pb.num_options());
  CoinPackedMatrix matrix(true, 0, 0);  // column-ordered
  matrix.setDimensions(m, 0);
  for (OptionId o = 0; o < pb.num_options(); ++o) {
    CoinPackedVector col;
    for (ItemId i : pb.option(o)) col.insert(static_cast<int>(i), 1.0);
    matrix.appendCol(col);
  }
  std::vector<double> collb(static_cast<std::size_t>(n), 0.0),
      colub(static_cast<std::size_t>(n), 1.0);
  std::vector<double> obj(static_cast<std::size_t>(n), 0.0);
  std::vector<double> rowlb(static_cast<std::size_t>(m)), rowub(static_cast<std::size_t>(m));
  for (ItemId i = 0; i < pb.num_items(); ++i) {
    const Item& it = pb.item(i);
    rowlb[i] = it.primary ? it.lo : 0.0;
    rowub[i] = it.primary ? it.hi : 1.0;
  }
  OsiClpSolverInterface si;
  si.loadProblem(matrix, collb.data(), colub.data(), obj.data(), rowlb.data(), rowub.data());
  for (int j = 0; j < n; ++j) si.setInteger(j);
  si.messageHandler()->setLogLevel(0);
  return si;
}

// ---- CaDiCaL ------------------------------------------------------------------------------

// A CNF as 0-terminated clauses over variables 1..vars; variables 1..num_options are options.
struct Cnf {
  int vars = 0;
  std::vector<int> lits;
  std::uint64_t clauses = 0;
  int fresh() { return ++vars; }
  void clause(std::initializer_list<int> c) {
    lits.insert(lits.end(), c.begin(), c.end());
    lits.push_back(0);
    ++clauses;
  }
  void clause(const std::vector<int>& c) {
    lits.insert(lits.end(), c.begin(), c.end());
    lits.push_back(0);
    ++clauses;
  }
};

// At most one of `x`: pairwise for short rows, otherwise Sinz's sequential counter.
void at_most_one(Cnf& f, const std::vector<int>& x) {
  const std::size_t n = x.size();
  if (n <= 1) return;
  if (n <= kPairwiseMax) {
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = a + 1; b < n; ++b) f.clause({-x[a], -x[b]});
    return;
  }
  // s[i]: one of x[0..i] is true.
  std::vector<int> s(n - 1);
  for (int& v : s) v = f.fresh();
  f.clause({-x[0], s[0]});
  for (std::size_t i = 1; i + 1 < n; ++i) {
    f.clause({-x[i], s[i]});
    f.clause({-s[i - 1], s[i]});
    f.clause({-x[i], -s[i - 1]});
  }
  f.clause({-x[n - 1], -s[n - 2]});
}

// lo <= (number of true x) <= hi with a sequential counter defined both ways: r(i, j) is true
// exactly when at least j of x[0..i-1] are true.
void cardinality(Cnf& f, const std::vector<int>& x, std::uint32_t lo, std::uint32_t hi) {
  const int n = static_cast<int>(x.size());
  if (static_cast<std::int64_t>(lo) > n) {  // cannot be met
    const int v = f.fresh();
    f.clause({v});
    f.clause({-v});
    return;
  }
  const int k = std::min<std::int64_t>(n, std::max<std::int64_t>(lo, std::int64_t{hi} + 1));
  if (k == 0) return;
  // r[i][j] for i = 1..n, j = 1..min(i, k); 0 = not a variable.
  std::vector<std::vector<int>> r(static_cast<std::size_t>(n) + 1,
                                  std::vector<int>(static_cast<std::size_t>(k) + 1, 0));
  for (int i = 1; i <= n; ++i) {
    const int xi = x[static_cast<std::size_t>(i - 1)];
    for (int j = 1; j <= std::min(i, k); ++j) {
      const int v = r[i][j] = f.fresh();
      const int prev_j = j <= i - 1 ? r[i - 1][j] : 0;       // 0: constant false
      const int prev_j1 = j - 1 >= 1 ? r[i - 1][j - 1] : 0;  // j == 1: constant true
      if (prev_j) f.clause({-prev_j, v});
      if (j == 1) {
        f.clause({-xi, v});
      } else {
        f.clause({-xi, -prev_j1, v});
      }
      if (prev_j) {
        f.clause({-v, prev_j, xi});
      } else {
        f.clause({-v, xi});
      }
      if (j > 1) {
        if (prev_j) {
          f.clause({-v, prev_j, prev_j1});
        } else {
          f.clause({-v, prev_j1});
        }
      }
    }
  }
  if (lo >= 1) f.clause({r[n][lo]});
  if (static_cast<std::int64_t>(hi) + 1 <= n) f.clause({-r[n][hi + 1]});
}

Cnf build_cnf(const Problem& pb) {
  Cnf f;
  f.vars = static_cast<int>(pb.num_options());
  std::vector<std::vector<int>> rows(pb.num_items());
  for (OptionId o = 0; o < pb.num_options(); ++o)
    for (ItemId i : pb.option(o)) rows[i].push_back(static_cast<int>(o) + 1);
  for (ItemId i = 0; i < pb.num_items(); ++i) {
    const Item& it = pb.item(i);
    if (!it.primary) {
      at_most_one(f, rows[i]);
    } else if (it.lo == 1 && it.hi == 1) {
      if (rows[i].empty()) {
        cardinality(f, rows[i], 1, 1);  // unsatisfiable
        continue;
      }
      f.clause(rows[i]);
      at_most_one(f, rows[i]);
    } else {
      cardinality(f, rows[i], it.lo, it.hi);
    }
  }
  return f;
}

class Deadline : public CaDiCaL::Terminator {
 public:
  explicit Deadline(Clock::time_point at) : at_(at) {}
  bool terminate() override { return Clock::now() >= at_; }

 private:
  Clock::time_point at_;
};

}  // namespace

Run dlx_run(const Problem& pb, bool all, double limit_s, const Visit& visit) {
  const auto t0 = Clock::now();
  std::atomic<bool> stop{false};
  Run r;
  Timer::get().arm(&stop, deadline_after(t0, limit_s));
  {
    Solver solver(pb);
    SolveLimits limits;
    limits.stop = &stop;
    limits.max_solutions = all ? 0 : 1;
    Solution s;
    const SolveStats st = solver.solve(
        [&](std::span<const OptionId> chosen) {
          s.assign(chosen.begin(), chosen.end());
          std::sort(s.begin(), s.end());
          if (!visit(s)) {
            r.stopped_by_visitor = true;
            return false;
          }
          return true;
        },
        limits);
    r.solutions = st.solutions;
    r.finished = !r.stopped_by_visitor && (st.complete || (!all && st.solutions == 1));
  }
  Timer::get().disarm();
  r.seconds = since(t0);
  return r;
}

Run cbc_run(const Problem& pb, bool all, double limit_s, const Visit& visit) {
  const auto t0 = Clock::now();
  OsiClpSolverInterface si = build_lp(pb);
  const auto decode = [&](const std::vector<int>& chosen) {
    Solution s(chosen.begin(), chosen.end());
    return visit(s);
  };
  // No-good: sum over chosen x <= |chosen| - 1 (minus the others when supersets may solve).
  const bool short_cuts = short_nogoods(pb);
  const int n = si.getNumCols();
  const auto nogood = [&](const std::vector<int>& chosen, CoinPackedVector& cut) {
    if (short_cuts) {
      for (int j : chosen) cut.insert(j, 1.0);
    } else {
      std::vector<bool> in(static_cast<std::size_t>(n), false);
      for (int j : chosen) in[static_cast<std::size_t>(j)] = true;
      for (int j = 0; j < n; ++j) cut.insert(j, in[static_cast<std::size_t>(j)] ? 1.0 : -1.0);
    }
    return static_cast<double>(chosen.size()) - 1.0;
  };
  return mip_enumerate(si, all, limit_s, t0, decode, nogood, nullptr);
}

CnfSize cnf_size(const Problem& pb) {
  const Cnf f = build_cnf(pb);
  return {f.vars, f.clauses};
}

Run cadical_run(const Problem& pb, bool all, double limit_s, const Visit& visit) {
  const auto t0 = Clock::now();
  Run r;
  Deadline deadline(deadline_after(t0, limit_s));
  CaDiCaL::Solver sat;
  sat.set("quiet", 1);
  sat.connect_terminator(&deadline);
  {
    const Cnf f = build_cnf(pb);
    sat.reserve(f.vars);
    for (int lit : f.lits) sat.add(lit);
  }
  const bool short_clauses = short_nogoods(pb);
  const int n = static_cast<int>(pb.num_options());
  Solution s;
  for (;;) {
    const int res = sat.solve();
    if (res == 20) {
      r.finished = true;
      break;
    }
    if (res != 10) break;  // terminated by the deadline
    s.clear();
    for (int v = 1; v <= n; ++v)
      if (sat.val(v) > 0) s.push_back(static_cast<OptionId>(v - 1));
    ++r.solutions;
    if (!visit(s)) {
      r.stopped_by_visitor = true;
      break;
    }
    if (!all) {
      r.finished = true;
      break;
    }
    if (short_clauses) {
      for (OptionId o : s) sat.add(-static_cast<int>(o + 1));
    } else {
      std::size_t k = 0;
      for (int v = 1; v <= n; ++v) {
        const bool in = k < s.size() && s[k] == static_cast<OptionId>(v - 1);
        if (in) ++k;
        sat.add(in ? -v : v);
      }
    }
    sat.add(0);
  }
  sat.disconnect_terminator();
  r.seconds = since(t0);
  return r;
}

SeedRun happy_seed_run(const happycube::Model& model, bool all, double limit_s,
                       const Visit& visit) {
  using happycube::Tile;
  const auto t0 = Clock::now();
  SeedRun out;
  const int n = model.size;
  const auto grid_key = [](const Tile& t) { return std::string(t.cells.begin(), t.cells.end()); };

  // The compiled options by (type, face, oriented grid), to map seed solutions back.
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::string>, OptionId> option_of;
  for (OptionId o = 0; o < model.placements.size(); ++o) {
    const happycube::Placement& p = model.placements[o];
    const Tile g = happycube::orient(model.types[p.type].tile, p.rotations_ccw, p.flipped);
    option_of[{p.type, p.face, grid_key(g)}] = o;
  }

  // Variables x[piece copy, place, flip, turns].
  struct Var {
    std::uint32_t type, copy, face;
    bool flipped;
    int turns;
    Tile grid;
  };
  std::vector<Var> vars;
  std::vector<std::vector<int>> piece_rows, place_rows(model.faces.size());
  for (std::uint32_t t = 0; t < model.types.size(); ++t) {
    const happycube::PieceType& type = model.types[t];
    for (std::uint32_t c = 0; c < type.copy_tiles.size(); ++c) {
      piece_rows.emplace_back();
      for (std::uint32_t f = 0; f < model.faces.size(); ++f)
        for (int flip = 0; flip < (type.may_flip ? 2 : 1); ++flip)
          for (int k = 0; k < 4; ++k) {
            const int j = static_cast<int>(vars.size());
            vars.push_back(
                {t, c, f, flip == 1, k, happycube::orient(type.copy_tiles[c], k, flip == 1)});
            piece_rows.back().push_back(j);
            place_rows[f].push_back(j);
          }
    }
  }
  // Border points: the rows that make the edges interlock (complement rows on edge middles,
  // exactly-one rows on corners for a single cube).
  std::map<Vec3, std::vector<int>> point_rows;
  for (const happycube::Face& f : model.faces)
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c)
        if (r == 0 || c == 0 || r == n - 1 || c == n - 1) point_rows[f.point(r, c, n)];
  for (int j = 0; j < static_cast<int>(vars.size()); ++j) {
    const Var& v = vars[static_cast<std::size_t>(j)];
    const happycube::Face& f = model.faces[v.face];
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        if (!v.grid.at(r, c) || v.grid.in_centre(r, c)) continue;
        point_rows[f.point(r, c, n)].push_back(j);
      }
  }

  const int ncols = static_cast<int>(vars.size());
  CoinPackedMatrix matrix(false, 0, 0);  // row-ordered
  matrix.setDimensions(0, ncols);
  std::vector<double> rowlb, rowub;
  const auto add_row = [&](const std::vector<int>& cols) {
    CoinPackedVector row;
    for (int j : cols) row.insert(j, 1.0);
    matrix.appendRow(row);
    rowlb.push_back(1.0);
    rowub.push_back(1.0);
  };
  for (const auto& row : piece_rows) add_row(row);
  for (const auto& row : place_rows) add_row(row);
  for (const auto& [p, row] : point_rows) add_row(row);
  std::vector<double> collb(static_cast<std::size_t>(ncols), 0.0),
      colub(static_cast<std::size_t>(ncols), 1.0), obj(static_cast<std::size_t>(ncols));
  for (int j = 0; j < ncols; ++j) {
    const Var& v = vars[static_cast<std::size_t>(j)];
    obj[static_cast<std::size_t>(j)] = (v.flipped ? 1.0 : 0.0) + (v.turns == 2 ? 1.0 : 0.0);
  }
  OsiClpSolverInterface si;
  si.loadProblem(matrix, collb.data(), colub.data(), obj.data(), rowlb.data(), rowub.data());
  for (int j = 0; j < ncols; ++j) si.setInteger(j);
  si.messageHandler()->setLogLevel(0);
  out.variables = ncols;
  out.rows = static_cast<int>(rowlb.size());

  // The option each variable stands for (several variables share one when a plate has a
  // symmetric orientation or when pieces are identical copies).
  std::vector<std::int64_t> option_of_var(vars.size(), -1);
  std::vector<std::vector<int>> vars_of_option(model.placements.size());
  for (std::size_t j = 0; j < vars.size(); ++j) {
    const Var& v = vars[j];
    auto it = option_of.find({v.type, v.face, grid_key(v.grid)});
    if (it == option_of.end()) continue;
    option_of_var[j] = it->second;
    vars_of_option[it->second].push_back(static_cast<int>(j));
  }
  const auto decode = [&](const std::vector<int>& chosen) {
    Solution s;
    for (int j : chosen) {
      const Var& v = vars[static_cast<std::size_t>(j)];
      if (option_of_var[static_cast<std::size_t>(j)] < 0) {
        out.error = "seed variable (piece " + model.types[v.type].names[v.copy] + ", " +
                    model.faces[v.face].label() + ") matches no compiled option";
        return false;
      }
      s.push_back(static_cast<OptionId>(option_of_var[static_cast<std::size_t>(j)]));
    }
    std::sort(s.begin(), s.end());
    return visit(s);
  };
  // No-good on the cube, not on the variables: every assignment that lays the same grids on the
  // same faces. Each face holds one plate and a variable stands for one option, so a different
  // cube agrees with this one on at most (faces - 1) of the chosen options.
  const auto nogood = [&](const std::vector<int>& chosen, CoinPackedVector& cut) {
    for (int j : chosen)
      for (int k :
           vars_of_option[static_cast<std::size_t>(option_of_var[static_cast<std::size_t>(j)])])
        cut.insert(k, 1.0);
    return static_cast<double>(chosen.size()) - 1.0;
  };
  out.run = mip_enumerate(si, all, limit_s, t0, decode, nogood, &out.first_cost);
  return out;
}

}  // namespace cubex::baselines
