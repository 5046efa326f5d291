// pocket_ilp: the integer-programming baseline for the 2x2x2 cube, beside the table solver.
//
// The seed's model: a horizon of T steps; per step one integer variable y_t choosing a move
// (a face and a direction, or "no move"), here linked to one-hot binaries x[t][m]; one-hot
// colour variables c[t][s][k] (sticker s shows colour k after t steps) carried from step to
// step by the sticker permutation of the chosen move (c[t+1][dest_m(s)][k] >= c[t][s][k] +
// x[t][m] - 1); at the end every face shows one colour. Minimising the number of real moves with
// T = the scramble's length gives an optimal solution. Solved with CBC (C interface).
//
// Built only with -DCUBEX_BASELINES=ON.
// Usage: pocket_ilp [SCRAMBLES_PER_DEPTH=3] [MAX_SECONDS=60] [MIN_DEPTH=1] [MAX_DEPTH=6]
// Exit status 0 when every ILP finished and agreed with the table, 1 otherwise.
#include <Cbc_C_Interface.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "cubex/pocket/cube.hpp"
#include "cubex/pocket/table.hpp"

namespace pk = cubex::pocket;

namespace {

constexpr int kNoMove = pk::kNumMoves;  // move index 9: stay
constexpr int kColours = 6;

// dest[m][s]: where move m (0..8) sends sticker s; the no-move is the identity.
std::vector<std::array<int, pk::kStickers>> sticker_moves() {
  std::vector<std::array<int, pk::kStickers>> dest(pk::kNumMoves + 1);
  for (int m = 0; m <= pk::kNumMoves; ++m) {
    pk::Facelets f{};
    for (int s = 0; s < pk::kStickers; ++s) f[s] = static_cast<char>(s);
    if (m < pk::kNumMoves) pk::apply(f, pk::move_turn(m));
    for (int s = 0; s < pk::kStickers; ++s) dest[m][static_cast<int>(f[s])] = s;
  }
  return dest;
}

struct IlpResult {
  bool optimal = false;
  int moves = -1;
  std::vector<int> sequence;
  double seconds = 0;
  int nodes = 0;
  int columns = 0, rows = 0;
};

IlpResult solve_ilp(const pk::Facelets& start, int horizon, double max_seconds) {
  static const auto dest = sticker_moves();
  const int T = horizon, M = pk::kNumMoves + 1;
  Cbc_Model* model = Cbc_newModel();
  Cbc_setLogLevel(model, 0);
  Cbc_setMaximumSeconds(model, max_seconds);
  int ncols = 0;
  auto col = [&](double lb, double ub, double obj, bool integer) {
    Cbc_addCol(model, "", lb, ub, obj, integer ? 1 : 0, 0, nullptr, nullptr);
    return ncols++;
  };
  std::vector<std::vector<int>> x(T, std::vector<int>(M));
  std::vector<int> y(T);
  for (int t = 0; t < T; ++t) {
    for (int m = 0; m < M; ++m) x[t][m] = col(0, 1, m == kNoMove ? 0 : 1, true);
    y[t] = col(0, M - 1, 0, true);
  }
  // c[t][s][k], t = 0..T
  std::vector<int> c((T + 1) * pk::kStickers * kColours);
  auto cv = [&](int t, int s, int k) -> int& { return c[(t * pk::kStickers + s) * kColours + k]; };
  for (int t = 0; t <= T; ++t) {
    for (int s = 0; s < pk::kStickers; ++s) {
      for (int k = 0; k < kColours; ++k) {
        const double fixed = t == 0 && pk::kFaces[k] == start[s] ? 1 : 0;
        cv(t, s, k) = t == 0 ? col(fixed, fixed, 0, true) : col(0, 1, 0, true);
      }
    }
  }
  int nrows = 0;
  auto row = [&](const std::vector<int>& cols, const std::vector<double>& coefs, char sense,
                 double rhs) {
    Cbc_addRow(model, "", static_cast<int>(cols.size()), cols.data(), coefs.data(), sense, rhs);
    ++nrows;
  };
  for (int t = 0; t < T; ++t) {
    // One move per step, and y_t names it.
    std::vector<int> cols(x[t].begin(), x[t].end());
    row(cols, std::vector<double>(M, 1.0), 'E', 1);
    std::vector<double> coefs;
    for (int m = 0; m < M; ++m) coefs.push_back(m);
    cols.push_back(y[t]);
    coefs.push_back(-1);
    row(cols, coefs, 'E', 0);
    // No-moves only at the end (removes equivalent orderings).
    if (t + 1 < T) row({x[t][kNoMove], x[t + 1][kNoMove]}, {1, -1}, 'L', 0);
  }
  for (int t = 1; t <= T; ++t) {
    for (int s = 0; s < pk::kStickers; ++s) {
      std::vector<int> cols;
      for (int k = 0; k < kColours; ++k) cols.push_back(cv(t, s, k));
      row(cols, std::vector<double>(kColours, 1.0), 'E', 1);
    }
    // Conditional sticker permutation of the move chosen at step t - 1.
    for (int m = 0; m < M; ++m) {
      for (int s = 0; s < pk::kStickers; ++s) {
        for (int k = 0; k < kColours; ++k) {
          row({cv(t, dest[m][s], k), cv(t - 1, s, k), x[t - 1][m]}, {1, -1, -1}, 'G', -1);
        }
      }
    }
  }
  // Every face one colour at the end.
  for (int s = 0; s < pk::kStickers; ++s) {
    if (s % 4 == 0) continue;
    for (int k = 0; k < kColours; ++k) row({cv(T, s, k), cv(T, s & ~3, k)}, {1, -1}, 'E', 0);
  }
  const auto t0 = std::chrono::steady_clock::now();
  Cbc_solve(model);
  IlpResult r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.optimal = Cbc_isProvenOptimal(model);
  r.nodes = Cbc_getNodeCount(model);
  r.columns = ncols;
  r.rows = nrows;
  if (r.optimal) {
    const double* sol = Cbc_getColSolution(model);
    for (int t = 0; t < T; ++t) {
      for (int m = 0; m < pk::kNumMoves; ++m) {
        if (sol[x[t][m]] > 0.5) r.sequence.push_back(m);
      }
    }
    r.moves = static_cast<int>(r.sequence.size());
  }
  Cbc_deleteModel(model);
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  const int per_depth = argc > 1 ? std::atoi(argv[1]) : 3;
  const double max_seconds = argc > 2 ? std::atof(argv[2]) : 60;
  const int min_depth = argc > 3 ? std::atoi(argv[3]) : 1;
  const int max_depth = argc > 4 ? std::atoi(argv[4]) : 6;
  const auto tb0 = std::chrono::steady_clock::now();
  const pk::DistanceTable table = pk::DistanceTable::build(pk::Metric::kHalfTurn);
  std::printf("table build (htm): %.3f s\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - tb0).count());
  std::printf("%-5s %-28s %4s %4s %9s %7s %11s %12s %s\n", "depth", "scramble", "opt", "ilp",
              "rows", "nodes", "ilp_s", "table_us", "check");
  std::mt19937 rng(9);
  int failures = 0;
  for (int depth = 1; depth <= max_depth; ++depth) {
    for (int k = 0; k < per_depth; ++k) {
      std::vector<pk::Turn> scramble;
      while (static_cast<int>(scramble.size()) < depth) {
        const pk::Turn t = pk::move_turn(static_cast<int>(rng() % pk::kNumMoves));
        if (scramble.empty() || scramble.back().axis != t.axis) scramble.push_back(t);
      }
      pk::Facelets f = pk::solved_facelets();
      pk::apply(f, scramble);
      const std::uint32_t s = pk::encode(pk::from_facelets(pk::to_string(f)));
      if (depth < min_depth) continue;  // the same scrambles whatever the range
      // The table solver: best of 1000 repetitions, in microseconds.
      const auto ts0 = std::chrono::steady_clock::now();
      volatile std::size_t sink = 0;
      for (int rep = 0; rep < 1000; ++rep) sink = sink + table.solve(s).size();
      const double table_us =
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - ts0)
              .count() /
          1000;
      const IlpResult r = solve_ilp(f, depth, max_seconds);
      std::string check = "ok";
      if (!r.optimal) {
        check = "time limit";
      } else {
        pk::Facelets g = f;
        for (int m : r.sequence) pk::apply(g, pk::move_turn(m));
        if (!pk::is_solved(g)) check = "ILP SEQUENCE DOES NOT SOLVE";
        if (r.moves != table.distance(s)) check = "LENGTH DIFFERS FROM TABLE";
      }
      if (check != "ok") ++failures;
      std::printf("%-5d %-28s %4d %4d %9d %7d %11.3f %12.3f %s\n", depth,
                  pk::to_string(scramble).c_str(), table.distance(s), r.moves, r.rows, r.nodes,
                  r.seconds, table_us, check.c_str());
      std::fflush(stdout);
    }
  }
  return failures == 0 ? 0 : 1;
}
