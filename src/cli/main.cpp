// cubex: the command-line program. `cubex COMMAND [ARGS...]`; each command lives in cmd_*.cpp.
#include <csignal>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include <boost/program_options/errors.hpp>

#include "cli.hpp"
#include "cubex/error.hpp"
#include "cubex/stop.hpp"

namespace {

struct Command {
  const char* name;
  const char* summary;
  int (*run)(const std::vector<std::string>&);
};

const Command kCommands[] = {
    {"solve", "count or list the solutions of a puzzle file", cubex::cli::cmd_solve},
    {"verify", "re-check the solutions in a JSON file against the puzzle", cubex::cli::cmd_verify},
    {"pocket", "2x2x2 Rubik's cube: optimal solutions, distance table", cubex::cli::cmd_pocket},
    {"render", "draw a solution as SVG, or all of them in a 3-D HTML viewer",
     cubex::cli::cmd_render},
    {"merge", "add the counts of shard results (solve --shard K/N)", cubex::cli::cmd_merge},
    {"convert", "write a voxel puzzle as JSON or BurrTools .xmpuzzle", cubex::cli::cmd_convert},
    {"compile", "write the exact-cover matrix in Knuth's format (--dlx)", cubex::cli::cmd_compile},
    {"options", "print solve's table of options (as docs/cli.md and the man page hold it)",
     cubex::cli::cmd_options},
    {"library", "list the puzzle library's classic puzzles and their counts",
     cubex::cli::cmd_library},
};

void usage(std::ostream& os) {
  os << "cubex - an exact-cover engine for cube puzzles\n\n"
        "usage: cubex COMMAND [OPTIONS]\n\n"
        "commands:\n";
  for (const Command& c : kCommands) {
    os << "  " << c.name << std::string(10 - std::strlen(c.name), ' ') << c.summary << "\n";
  }
  os << "\n'cubex COMMAND --help' describes a command's options.\n"
        "Exit status: 0 success, 1 internal error, 2 bad input or usage, 3 merge: shards missing\n"
        "or incomplete (the counts are partial), 130 interrupted.\n";
}

}  // namespace

int main(int argc, char** argv) {
  // A closed pipe makes writes fail with EPIPE (handled quietly below) rather than kill the
  // process mid-way: the --json file and caches still get written or cleaned up.
  std::signal(SIGPIPE, SIG_IGN);
  cubex::cli::g_argv = argv;
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    usage(std::cerr);
    return cubex::cli::kExitBadInput;
  }
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    if (args.size() > 1) {
      args = {args[1], "--help"};
    } else {
      usage(std::cout);
      return cubex::cli::kExitOk;
    }
  }
  if (args[0] == "--version") {
    std::cout << "cubex " CUBEX_VERSION "\n";
    return cubex::cli::kExitOk;
  }
  for (const Command& c : kCommands) {
    if (args[0] != c.name) continue;
    int status = cubex::cli::kExitInternal;
    try {
      status = c.run(std::vector<std::string>(args.begin() + 1, args.end()));
    } catch (const cubex::Error& e) {
      // The one error type: its kind decides the exit status (docs/errors.md).
      switch (e.kind()) {
        case cubex::Error::Kind::usage:
          std::cerr << "cubex " << c.name << ": " << cubex::printable(e.what(), true) << "\n";
          return cubex::cli::kExitBadInput;
        case cubex::Error::Kind::input:
        case cubex::Error::Kind::limit:
          std::cerr << "cubex: " << cubex::printable(e.what(), true) << "\n";
          return cubex::cli::kExitBadInput;
        case cubex::Error::Kind::internal:
          std::cerr << "cubex: internal error: " << cubex::printable(e.what(), true) << "\n";
          return cubex::cli::kExitInternal;
      }
    } catch (const cubex::Interrupted& e) {
      // A signal during the work before the search (cubex/stop.hpp): nothing was written.
      std::cerr << "cubex: interrupted while " << e.phase() << " (nothing was searched)\n";
      return cubex::cli::kExitInterrupted;
    } catch (const boost::program_options::error& e) {
      std::cerr << "cubex " << c.name << ": " << cubex::printable(e.what(), true) << "\nTry 'cubex "
                << c.name << " --help'.\n";
      return cubex::cli::kExitBadInput;
    } catch (const std::bad_alloc&) {
      // No allocation here: the message is made of literals.
      std::cerr << "cubex: out of memory while " << cubex::cli::g_activity
                << " (a smaller --max-nodes fails early with a clear error)\n";
      return cubex::cli::kExitInternal;
    } catch (const std::exception& e) {
      std::cerr << "cubex: internal error: " << cubex::printable(e.what(), true) << "\n";
      return cubex::cli::kExitInternal;
    }
    // Output that could not be written: a reader that went away (`cubex ... | head`) ends the
    // run quietly; anything else (a full disk) is an error.
    if (!cubex::cli::flush_stdout()) {
      const int e = cubex::cli::stdout_errno();
      if (e == EPIPE) return status;
      std::cerr << "cubex: cannot write standard output: " << std::strerror(e) << "\n";
      return status == cubex::cli::kExitOk ? cubex::cli::kExitBadInput : status;
    }
    return status;
  }
  std::cerr << "cubex: unknown command '" << args[0] << "'\n\n";
  usage(std::cerr);
  return cubex::cli::kExitBadInput;
}
