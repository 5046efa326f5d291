// cubex/output/solve_output.hpp - the JSON that `cubex solve --json` and `--jsonl` write, streamed.
//
// A run may find millions of solutions: they are written as they are found, never all held in
// memory. Two layouts, one set of keys (docs/json.md, schemas in docs/schema/):
//   kJson   one document: {"schema": "cubex-solve/1", header keys..., "solutions": [ one
//           solution per line ... ], footer keys...}
//   kJsonl  one object per line: {"schema", "type": "header", header keys...}, then
//           {"type": "solution", ...} per solution, then {"schema", "type": "end", footer keys}
// A file is written through a temporary file renamed into place by end() (AtomicFile): an
// interrupted or failed run leaves the old file, never half a document. "-" is standard output.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cubex/puzzle.hpp"
#include "cubex/symmetry.hpp"
#include "cubex/util/files.hpp"

namespace cubex {

inline constexpr const char* kSolveSchema = "cubex-solve/1";
inline constexpr const char* kVerifySchema = "cubex-verify/1";
inline constexpr const char* kMergeSchema = "cubex-merge/1";
inline constexpr const char* kCheckpointSchema = "cubex-checkpoint/1";

enum class StreamFormat { kJson, kJsonl };

class SolveStream {
 public:
  // Opens `path` ("-": standard output). Throws std::runtime_error when it cannot.
  SolveStream(const std::string& path, StreamFormat format);

  // The keys before the solutions (an object; "schema" is added).
  void begin(const nlohmann::json& header);
  // One solution (an object). False once the output failed (a closed pipe): stop searching.
  bool solution(const nlohmann::json& s);
  // The keys after the solutions (an object); completes the output and, for a file, renames it
  // into place. Throws std::runtime_error when the output failed.
  void end(const nlohmann::json& footer);

  bool ok() const { return out_.ok(); }
  int error() const { return out_.error(); }
  const std::string& path() const { return out_.path(); }

 private:
  AtomicFile out_;
  StreamFormat format_;
  std::uint64_t written_ = 0;
};

// The "group" list of --json: for each element of `group`, its index, the index into
// cube_symmetries(), the 3x3 matrix (rows; acting on column vectors of cell coordinates),
// whether it is a reflection, and "pieces": the piece each piece is mapped to, as
// [[from, to], ...] in the order of puzzle.piece_items().
nlohmann::json group_json(const Puzzle& puzzle, const CubeGroup& group);

}  // namespace cubex
