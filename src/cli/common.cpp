// Helpers shared by the subcommands.
#include <csignal>

#include "cli.hpp"
#include "cubex/io/files.hpp"

namespace cubex::cli {

std::atomic<bool> g_stop{false};

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
}

std::string with_commas(std::uint64_t n) {
  const std::string digits = std::to_string(n);
  std::string s;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) s += ',';
    s += digits[i];
  }
  return s;
}

void write_json(const std::string& path, const nlohmann::json& j) {
  try {
    write_file_atomic(path, j.dump(2) + "\n");
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
}

}  // namespace cubex::cli
