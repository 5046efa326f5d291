// cubex/output/checkpoint.hpp - a search's resumable state (cubex/core/job.hpp) as a JSON file.
//
//   {"cubex": "checkpoint", "schema": "cubex-checkpoint/1", "version": 2,
//    "puzzle": {"file": ...},
//    "run": {"symmetry": "auto", "backend": "bitset", "group_order": 48},  (resume reuses it)
//    "tree": {"fingerprint", "items", "options", "order", "rule", "judge", "cut", "shard": "K/N"},
//    "complete": false,
//    "counts": {"total", "unique", "symmetric", "split", "solutions", "nodes", "updates"},
//      (split: the classes that are two up to the rotations alone, JobCounts::split, where the
//      run counts them; older files and runs that resumed one lack it)
//    "progress": {"weight_total", "weight_done", "seconds", "nodes_left", "samples"},
//      (nodes_left and samples: the estimate of the nodes left, when known; older files lack them)
//    "pending": [{"begin": [path], "end": [path] or null, "weight": w}, ...],
//    "checksum": "16 hex digits"}
// The checksum (FNV-1a over the rest of the document as cubex writes it) makes an edited count
// or span an error rather than a wrong total; the version is checked; duplicate keys are refused.
// A finished shard's checkpoint is also its result for `cubex merge`.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "cubex/core/job.hpp"

namespace cubex {

struct CheckpointRun {
  std::string file;               // the puzzle file
  std::string symmetry;           // none | rotations | auto
  std::string backend;            // links | bitset (informational: the tree is the identity's)
  std::uint64_t group_order = 1;  // of the symmetry group (1: none)
  // Whether counts.split is counted, so written (and, read, whether the file has it): where the
  // judge marks a subgroup (SymmetricSolver::set_subgroup) and every run since the first counted
  // it. Read without it, JobState's counts.split is 0.
  bool split = false;
};

nlohmann::json tree_identity_json(const TreeIdentity& id);
nlohmann::json checkpoint_json(const JobState& state, const CheckpointRun& run);

// Reads and checks a checkpoint; throws InputError (file and JSON path) for anything that is not
// a well-formed, untouched cubex checkpoint of this version.
JobState read_checkpoint(const std::string& path, CheckpointRun* run = nullptr);
JobState checkpoint_from_json(const nlohmann::json& j, const std::string& path,
                              CheckpointRun* run = nullptr);
TreeIdentity tree_identity_from_json(const nlohmann::json& j, const std::string& path,
                                     const std::string& where);

}  // namespace cubex
