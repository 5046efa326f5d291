// libFuzzer target: the wooden-cube text format (cubex/voxel/read.hpp), compiled as
// `cubex solve FILE.txt` does.
#include "cubex/voxel/read.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cubex;
  fuzz::set_small_limits();
  fuzz::expect_clean([&] {
    voxel::Model m = voxel::model_from_txt(fuzz::as_text(data, size), "fuzz.txt");
    const auto puzzle = voxel::make_puzzle(std::move(m), "fuzz.txt", false);
    fuzz::require(puzzle->problem().num_options() > 0, "a compiled puzzle has options");
  });
  return 0;
}
