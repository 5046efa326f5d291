// libFuzzer target: the Happy Cube JSON form (cubex/happycube/reader.hpp), from bytes to a
// compiled puzzle.
#include "cubex/happycube/puzzle.hpp"
#include "cubex/happycube/reader.hpp"
#include "cubex/io/json.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cubex;
  fuzz::set_small_limits();
  fuzz::expect_clean([&] {
    const nlohmann::json doc = parse_json_text(fuzz::as_text(data, size), "fuzz.json");
    happycube::make_puzzle(happycube::parse_json(doc, "fuzz.json"));
  });
  return 0;
}
