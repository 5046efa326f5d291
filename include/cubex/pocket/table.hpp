// cubex/pocket/table.hpp - the complete distance table of the 2x2x2 cube and the optimal solver
// that walks it.
//
// One byte per compact state (3,674,160 bytes), filled by breadth-first search from the solved
// state with the moves of one metric. A state at distance d always has a move to a state at
// distance d - 1, so following such moves gives an optimal solution in d table look-ups.
//
// The table can be cached on disk (load_or_build): a header (magic, format version, metric, state
// count, the move-table fingerprint, a checksum of the data) followed by the bytes, written
// atomically. A cache that is truncated, corrupt, of another version or built from other moves
// is detected, rebuilt and rewritten.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cubex/pocket/cube.hpp"

namespace cubex::pocket {

inline constexpr std::uint8_t kUnreached = 0xFF;

class DistanceTable {
 public:
  // Breadth-first search over all states (well under a second in a Release build).
  static DistanceTable build(Metric metric);

  Metric metric() const { return metric_; }
  int distance(std::uint32_t state) const { return dist_[state]; }
  // distribution()[d] = the number of states at distance d; its size - 1 is God's number.
  std::vector<std::uint64_t> distribution() const;
  // An optimal sequence of moves (move numbers, see move_turn) that solves `state`.
  std::vector<int> solve(std::uint32_t state) const;

  // The cache file's bytes, and reading them back. parse returns nothing (and says why) for
  // anything but a complete, intact table of `metric` in the current format.
  std::string serialize() const;
  static std::optional<DistanceTable> parse(std::string_view bytes, Metric metric,
                                            std::string* why = nullptr);

 private:
  DistanceTable(Metric metric, std::vector<std::uint8_t> dist)
      : metric_(metric), dist_(std::move(dist)) {}
  Metric metric_;
  std::vector<std::uint8_t> dist_;
};

// $XDG_CACHE_HOME/cubex, else $HOME/.cache/cubex, else "" (no cache).
std::string default_cache_dir();
// The cache file of a metric inside `dir`.
std::string cache_path(const std::string& dir, Metric metric);

struct LoadedTable {
  enum class Source { kBuilt, kLoaded, kRebuilt };
  DistanceTable table;
  Source source;
  std::string path;    // the cache file ("" without a cache)
  std::string note;    // why a cache was rebuilt, or why it could not be written
  double seconds = 0;  // time spent loading or building
};

// Loads the table of `metric` from `cache_dir` when a valid cache is there; otherwise builds it
// and (when cache_dir is not empty) writes the cache atomically. A cache that cannot be written
// is not an error: the table is still returned, with a note.
LoadedTable load_or_build(Metric metric, const std::string& cache_dir);

}  // namespace cubex::pocket
