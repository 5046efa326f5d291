// libFuzzer target: the voxel JSON format (cubex/voxel/read.hpp), from the bytes of a file to a
// compiled puzzle, as `cubex solve FILE.json` reads it.
#include "cubex/io/json.hpp"
#include "cubex/voxel/read.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cubex;
  fuzz::set_small_limits();
  fuzz::expect_clean([&] {
    const nlohmann::json doc = parse_json_text(fuzz::as_text(data, size), "fuzz.json");
    const auto puzzle = voxel::load_json(doc, "fuzz.json");
    fuzz::require(puzzle->problem().num_options() > 0, "a compiled puzzle has options");
  });
  return 0;
}
