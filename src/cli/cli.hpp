// Shared pieces of the `cubex` command-line program.
#pragma once

#include <atomic>
#include <boost/program_options.hpp>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cubex/error.hpp"
#include "cubex/limits.hpp"

namespace cubex {
std::string with_commas(std::uint64_t n);
struct Options;  // cubex/options.hpp
}  // namespace cubex

namespace cubex::cli {

// Exit statuses, documented in docs/errors.md and docs/cubex.1.
constexpr int kExitOk = 0;
constexpr int kExitInternal = 1;
constexpr int kExitBadInput = 2;
constexpr int kExitInterrupted = 130;

// A mistake on the command line (unknown flag, conflicting modes): exit 2 with a hint.
using cubex::UsageError;

// What the main thread is doing ("compiling the puzzle"), for the message when memory runs out:
// "cubex: out of memory while compiling the puzzle". A string literal.
extern const char* g_activity;
// The program's arguments as main() got them (solve --mpi runs cubex-mpi with them).
extern char** g_argv;

// Set by SIGINT/SIGTERM/SIGHUP once install_stop_handlers() ran; searches poll it.
extern std::atomic<bool> g_stop;
void install_stop_handlers();

// Standard output. main() ignores SIGPIPE, so a closed pipe (`cubex ... | head`) makes writes
// fail with EPIPE instead of killing the process. stdout_ok() says whether every write so far
// worked (a long search stops printing, and searching, once it is false); stdout_errno() is the
// errno of the first failure (EPIPE: the reader went away, a quiet end).
bool stdout_ok();
int stdout_errno();
// Flushes standard output; false when it (or an earlier write) failed.
bool flush_stdout();

// 1234567 -> "1,234,567" (cubex/solve.hpp)
using cubex::with_commas;

// Elapsed time for people: "0:42", "12:05", "3:07:09" (hours when there are any).
std::string elapsed_text(double seconds);

// Sets limits.max_nodes from --max-nodes (1..kMaxNodesCeiling, else a UsageError).
void set_max_nodes(Limits& limits, std::uint64_t n);

// Writes JSON to `path` atomically (pretty, newline-terminated); a failure is a UsageError-like
// error reported with exit status 2 by main().
void write_json(const std::string& path, const nlohmann::json& j);

// Throws a UsageError when `out` (the value of --FLAG; FLAG "" for a positional OUT) may not be
// written (output_path_problem() in cubex/util/files.hpp): the same file as one of `inputs` (the
// same path, a symbolic or a hard link to it: cubex never overwrites the puzzle it reads), a
// folder, or a folder that does not exist or cannot be written to. Every command calls it for
// every output before any work.
void refuse_overwriting_input(const std::string& flag, const std::string& out,
                              const std::vector<std::string>& inputs);

// Throws a UsageError when files cannot be written into the folder `dir` (the value of --FLAG):
// it is a file, or it (or, when it does not exist yet, the nearest folder above it that does)
// cannot be written to.
void check_output_folder(const std::string& flag, const std::string& dir);

// The flags that raise the BurrTools reader's limits (cubex/limits.hpp): --max-xml-bytes N and
// --max-xml-elements N (N elements and 4N attributes; an attribute value may hold a 64th of the
// bytes, at least 1 MiB). add_xml_limit_options() adds them to a
// command's options; apply_xml_limits() checks the values (at least 1) and sets them in `l`.
struct XmlLimitFlags {
  std::uint64_t bytes = std::uint64_t(64) << 20, elements = 1'000'000;  // the defaults
};
void add_xml_limit_options(boost::program_options::options_description& opts, XmlLimitFlags& f);
void apply_xml_limits(const XmlLimitFlags& f, Limits& l);

// Parses a command's arguments: `visible` options (shown by --help), `hidden` ones, and the
// positional arguments that fill `positional` (up to `max_positional`, -1 for any number).
// Returns false when --help was asked for (the help is printed then). Refuses (UsageError) a
// negative number for an unsigned option and an empty string for a string option.
bool parse_command(const std::vector<std::string>& args,
                   const boost::program_options::options_description& visible,
                   const boost::program_options::options_description& hidden,
                   const char* positional, int max_positional,
                   boost::program_options::variables_map& vm);

// Subcommands: each takes the arguments after its name and returns the exit status.
int cmd_solve(const std::vector<std::string>& args);
int cmd_verify(const std::vector<std::string>& args);
int cmd_pocket(const std::vector<std::string>& args);
int cmd_render(const std::vector<std::string>& args);
int cmd_convert(const std::vector<std::string>& args);
int cmd_compile(const std::vector<std::string>& args);
int cmd_library(const std::vector<std::string>& args);
// `cubex solve` with the designer's flags (--unique, --forced, --check, --csv) or several files:
// cmd_solve_designer.cpp. `o` holds the solve layer's options as the command line gave them.
int solve_designer(const std::vector<std::string>& files, const cubex::Options& o,
                   const std::string& json_out, bool quiet);

// True when stdout is a terminal that takes colours (not redirected, NO_COLOR unset, TERM not
// "dumb"): the solution drawings are then coloured, one colour per piece.
bool stdout_wants_colour();
int cmd_merge(const std::vector<std::string>& args);
int cmd_options(const std::vector<std::string>& args);

}  // namespace cubex::cli
