// cubex/options.hpp - how to answer a puzzle: one table of options for every client.
//
// cubex::Options holds everything `cubex solve`, the Python module and a C++ program can ask of
// a solve (threads, symmetry, limits, checkpoints...). Each option that a person sets by name is
// a row of kOptionTable: its name (the CLI's --flag; Python's keyword with '_' for '-'), the
// placeholder of its value, its help text, and how a text value is checked and stored. The CLI
// builds `cubex solve`'s options from the table, the Python module its keyword arguments, and
// the man page and docs/cli.md list them from it (`cubex options`), so the three cannot drift.
//
//   cubex::Options opt;
//   opt.threads = 2;
//   opt.symmetry = cubex::Symmetry::automatic;
//   cubex::set_option(opt, "checkpoint-every", "30");   // as a client does with text
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "cubex/core/job.hpp"
#include "cubex/core/solver.hpp"
#include "cubex/limits.hpp"

namespace cubex {

// How much of the puzzle's symmetry the counts use: none (every solution counted apart), the
// container's rotations, or automatic (rotations, and reflections where the pieces allow).
enum class Symmetry { none, rotations, automatic };

// How counts are made: automatic (when only counts are wanted and no search option is given,
// by memo where a trial shows that sub-problems repeat; otherwise by search), always by memo, or
// always by search.
enum class CountBy { automatic, memo, search };

class Distributor;  // solve.hpp

// The progress of a search (fraction done, counts so far, time left), for Options::on_progress.
using Progress = JobProgress;

struct Options {
  // ---- set by name (kOptionTable) ----
  unsigned threads = 0;                 // threads: worker threads, 0: all cores
  std::optional<Symmetry> symmetry;     // symmetry: unset: automatic, or the --resume checkpoint's
  std::optional<Backend> backend;       // backend: unset: auto, or the checkpoint's
  CountBy count_by = CountBy::automatic;  // count-by
  std::uint64_t memo_budget = 0;        // memo-budget: bytes for the memo's table; 0: a quarter
                                        // of the memory available when the count starts
  std::uint64_t limit = 0;              // limit: stop after this many solutions (classes); 0: all
  bool expand = false;                  // expand: list every solution of each class found
  std::string checkpoint;               // checkpoint: save the search's state to this file
  double checkpoint_every = 60;         // checkpoint-every: seconds between checkpoints
  std::string resume;                   // resume: go on with the search saved in this file
  std::uint32_t shard_index = 0;        // shard: K of K/N
  std::uint32_t shard_count = 1;        //        N of K/N
  std::uint64_t max_nodes = Limits{}.max_nodes;  // max-nodes: the largest matrix to build
  std::string problem;                  // problem: BurrTools files, which problem (name or 1..N)
  // The designer's questions (cubex/library/designer.hpp, docs/library-puzzles.md):
  bool unique = false;                  // unique: stop at a second class; "unique" or not
  bool forced = false;                  // forced: the placements every solution uses
  bool check = false;                   // check: compare the counts with the file's "expect"
  std::string csv;                      // csv: one row per file to this file ('-': stdout)
  bool disassemble = false;             // disassemble: take each assembly apart (cubex/disassembly)
  bool keep_locked = false;             // keep-locked: also list the ones that do not come apart
  bool sort_by_level = false;           // sort: "level": list the highest level first
  std::uint64_t max_xml_bytes = Limits{}.max_xml_bytes;        // max-xml-bytes
  std::uint64_t max_xml_elements = Limits{}.max_xml_elements;  // max-xml-elements

  // ---- set by programs ----
  // Set from outside (a signal) to stop cleanly: the search stops (Result::interrupted), and so
  // do the phases before it (cubex/stop.hpp): load() throws Interrupted, a Plan whose symmetry
  // group or tables were cut short runs no search and returns an interrupted Result.
  const std::atomic<bool>* stop = nullptr;
  PhaseBoard* phases = nullptr;  // where the phases before the search say what runs (stop.hpp)
  // Called on the calling thread about every `progress_seconds` and once at the end.
  std::function<void(const Progress&)> on_progress;
  double progress_seconds = 0.25;
  // Called with the error of a checkpoint that could not be written (the search goes on; the
  // last error is also in Result::checkpoint_error). Null: nothing is called.
  std::function<void(const std::string&)> on_checkpoint_error;
  // Runs the search over several processes (the MPI mode); null: here, on `threads` threads.
  Distributor* distributor = nullptr;

  // The effective symmetry and backend: the set value, else automatic / auto.
  Symmetry symmetry_or_default() const { return symmetry.value_or(Symmetry::automatic); }
  Backend backend_or_default() const { return backend.value_or(Backend::kAuto); }
};

// "none", "rotations", "auto"; and back (nullopt for other text).
const char* symmetry_name(Symmetry s);
std::optional<Symmetry> parse_symmetry(std::string_view text);
// "auto", "links", "bitset".
const char* backend_name(Backend b);
// "auto", "memo", "search".
const char* count_by_name(CountBy c);

// One row of the table: an option a person sets by name.
struct OptionRow {
  const char* name;     // "checkpoint-every" (the CLI's --checkpoint-every; Python checkpoint_every)
  const char* value;    // the placeholder of its value, "SECONDS"; nullptr: a switch (no value;
                        // set with "yes", as the CLI's --expand, Python's expand=True)
  const char* help;     // one or two sentences, the default included
  // Checks `text` and stores it in `o`; throws UsageError naming --name and what was expected.
  void (*set)(Options& o, std::string_view text);
  // The value in `o` as text (what `set` would read back).
  std::string (*get)(const Options& o);
};

// Every option of a solve that is set by name, in the order `cubex solve --help` lists them.
std::span<const OptionRow> option_table();
// The row named `name` ('-' or '_' between words); nullptr when there is none.
const OptionRow* find_option(std::string_view name);
// find_option(name)->set(o, value); throws UsageError for an unknown name.
void set_option(Options& o, std::string_view name, std::string_view value);

// The table for the docs: rows of a Markdown table ("| `--name VALUE` | help |"), and the man
// page's paragraphs (".TP" / ".BI" lines). docs/cli.md and docs/cubex.1 hold them between
// "BEGIN options table" and "END options table" (tools/update_docs.sh writes them there).
std::string option_table_markdown();
std::string option_table_roff();

}  // namespace cubex
