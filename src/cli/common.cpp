// Helpers shared by the subcommands.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <typeinfo>

#include "cli.hpp"
#include "cubex/error.hpp"
#include "cubex/limits.hpp"
#include "cubex/util/files.hpp"
#include "cubex/util/json.hpp"

namespace cubex::cli {

std::atomic<bool> g_stop{false};
const char* g_activity = "running the command";
char** g_argv = nullptr;

namespace {
extern "C" void on_stop_signal(int) {
  g_stop.store(true, std::memory_order_relaxed);
}
}  // namespace

void install_stop_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGHUP, &sa, nullptr);  // a closed terminal, a cluster's job end: save and stop
}

namespace {
int g_stdout_errno = 0;
}  // namespace

bool stdout_ok() {
  if (g_stdout_errno != 0) return false;
  if (std::cout.good() && !std::ferror(stdout)) return true;
  g_stdout_errno = errno != 0 ? errno : EIO;
  return false;
}

int stdout_errno() {
  return g_stdout_errno;
}

bool flush_stdout() {
  if (!stdout_ok()) return false;
  errno = 0;
  std::cout.flush();
  if (std::fflush(stdout) != 0 && g_stdout_errno == 0) g_stdout_errno = errno != 0 ? errno : EIO;
  return stdout_ok();
}

std::string elapsed_text(double seconds) {
  const auto total = static_cast<std::uint64_t>(seconds > 0 ? seconds : 0);
  const std::uint64_t h = total / 3600, m = total / 60 % 60, s = total % 60;
  char buf[48];
  if (h > 0) {
    std::snprintf(buf, sizeof buf, "%llu:%02llu:%02llu", static_cast<unsigned long long>(h),
                  static_cast<unsigned long long>(m), static_cast<unsigned long long>(s));
  } else {
    std::snprintf(buf, sizeof buf, "%llu:%02llu", static_cast<unsigned long long>(m),
                  static_cast<unsigned long long>(s));
  }
  return buf;
}

void set_max_nodes(Limits& limits, std::uint64_t n) {
  if (n < 1 || n > kMaxNodesCeiling) {
    throw UsageError("expected --max-nodes from 1 to " + with_commas(kMaxNodesCeiling) +
                     " (the solver indexes nodes with 32-bit integers), found " +
                     std::to_string(n));
  }
  limits.max_nodes = n;
}


namespace {

bool is_unsigned(const std::type_info& t) {
  return t == typeid(unsigned char) || t == typeid(unsigned short) || t == typeid(unsigned) ||
         t == typeid(unsigned long) || t == typeid(unsigned long long);
}

// Boost parses "-1" into an unsigned option as 2^64-1 (or 2^32-1), and takes "" for a file name:
// both are refused here, for every command, before any option is used.
void check_option_values(const boost::program_options::parsed_options& parsed,
                         const boost::program_options::variables_map& vm) {
  for (const auto& o : parsed.options) {
    if (o.position_key >= 0 || o.unregistered) continue;  // positional: checked by the command
    const auto it = vm.find(o.string_key);
    if (it == vm.end() || it->second.empty()) continue;
    const std::type_info& type = it->second.value().type();
    for (const std::string& v : o.value) {
      const std::size_t at = v.find_first_not_of(" \t");
      if (is_unsigned(type) && at != std::string::npos && v[at] == '-') {
        throw UsageError("expected --" + o.string_key +
                         " to be a whole number of 0 or more, found '" + excerpt(v) + "'");
      }
      if (type == typeid(std::string) && v.empty()) {
        throw UsageError("expected a value after --" + o.string_key + ", found an empty string");
      }
    }
  }
}

}  // namespace

bool parse_command(const std::vector<std::string>& args,
                   const boost::program_options::options_description& visible,
                   const boost::program_options::options_description& hidden,
                   const char* positional, int max_positional,
                   boost::program_options::variables_map& vm) {
  namespace po = boost::program_options;
  po::options_description all;
  all.add(visible).add(hidden);
  po::positional_options_description pos;
  pos.add(positional, max_positional);
  const po::parsed_options parsed =
      po::command_line_parser(args).options(all).positional(pos).run();
  po::store(parsed, vm);
  check_option_values(parsed, vm);
  po::notify(vm);
  if (vm.count("help")) {
    std::cout << visible << "\n";
    return false;
  }
  return true;
}

bool stdout_wants_colour() {
  const char* no_colour = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  return ::isatty(STDOUT_FILENO) && !(no_colour && *no_colour) &&
         !(term && std::strcmp(term, "dumb") == 0);
}

void write_json(const std::string& path, const nlohmann::json& j) {
  try {
    write_file_atomic(path, dump_json(j, 2) + "\n");
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
}

void refuse_overwriting_input(const std::string& flag, const std::string& out,
                              const std::vector<std::string>& inputs) {
  const std::string why = output_path_problem(out, inputs);
  if (why.empty()) return;
  if (why.rfind("names the input", 0) != 0) throw UsageError(why);
  throw UsageError((flag.empty() ? std::string("OUT ") : "--" + flag + " ") + excerpt(out, 200) +
                   " " + why);
}

void add_xml_limit_options(boost::program_options::options_description& opts, XmlLimitFlags& f) {
  namespace po = boost::program_options;
  opts.add_options()("max-xml-bytes", po::value(&f.bytes),
                     "BurrTools files: the most bytes of XML after decompression (default 64 MiB)")(
      "max-xml-elements", po::value(&f.elements),
      "BurrTools files: the most XML elements (default 1,000,000; attributes: 4 times as many)");
}

void apply_xml_limits(const XmlLimitFlags& f, Limits& l) {
  constexpr std::uint64_t kMost = std::uint64_t(1) << 40;
  if (f.bytes < 1 || f.bytes > kMost) {
    throw UsageError("expected --max-xml-bytes from 1 to " + with_commas(kMost) + ", found " +
                     std::to_string(f.bytes));
  }
  if (f.elements < 1 || f.elements > kMost) {
    throw UsageError("expected --max-xml-elements from 1 to " + with_commas(kMost) + ", found " +
                     std::to_string(f.elements));
  }
  set_xml_limits(l, f.bytes, f.elements);
}

void check_output_folder(const std::string& flag, const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path p = fs::absolute(dir, ec);
  if (ec) throw UsageError("--" + flag + " " + excerpt(dir, 200) + ": " + ec.message());
  const std::string shown = "--" + flag + " " + excerpt(dir, 200);
  if (fs::exists(p, ec) && !fs::is_directory(p, ec))
    throw UsageError(shown + " is a file: expected a folder");
  while (!fs::exists(p, ec) && p.has_parent_path() && p != p.parent_path()) p = p.parent_path();
  if (!fs::is_directory(p, ec))
    throw UsageError(shown + " cannot be made: " + p.string() + " is not a folder");
  if (::access(p.c_str(), W_OK | X_OK) != 0) {
    throw UsageError(shown + " cannot be written: " + p.string() + " does not take new files (" +
                     std::strerror(errno) + ")");
  }
}

}  // namespace cubex::cli
