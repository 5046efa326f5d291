// cubex options [--markdown | --man]: the table of solve's options (cubex/options.hpp) as the
// docs hold it: docs/cli.md (--markdown) and docs/cubex.1 (--man); tools/update_docs.sh copies it
// there and a test checks that the docs hold what this prints.
#include <iostream>

#include "cli.hpp"
#include "cubex/options.hpp"

namespace cubex::cli {

int cmd_options(const std::vector<std::string>& args) {
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    std::cout << "usage: cubex options [--markdown | --man]\n\n"
                 "Prints the options of `cubex solve` that the C++ and Python interfaces share, as\n"
                 "rows of a Markdown table (default) or as man page paragraphs.\n";
    return kExitOk;
  }
  if (args.size() > 1 || (args.size() == 1 && args[0] != "--markdown" && args[0] != "--man")) {
    throw UsageError("expected --markdown or --man");
  }
  std::cout << (args.size() == 1 && args[0] == "--man" ? option_table_roff()
                                                        : option_table_markdown());
  return kExitOk;
}

}  // namespace cubex::cli
