// libFuzzer target: Knuth's exact-cover format (cubex/io/knuth.hpp). An accepted file must also
// survive a round trip through to_knuth: written back and read again, the same matrix.
#include "cubex/io/knuth.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cubex;
  fuzz::set_small_limits();
  fuzz::expect_clean([&] {
    const KnuthFile f = parse_knuth(fuzz::as_text(data, size), "fuzz.dlx");
    const KnuthFile g = parse_knuth(to_knuth(f.problem), "round-trip.dlx");
    const Problem& a = f.problem;
    const Problem& b = g.problem;
    fuzz::require(a.num_items() == b.num_items() && a.num_options() == b.num_options() &&
                      a.num_entries() == b.num_entries(),
                  "round trip keeps the sizes");
    for (ItemId i = 0; i < a.num_items(); ++i) {
      fuzz::require(a.item(i).name == b.item(i).name && a.item(i).primary == b.item(i).primary &&
                        a.item(i).lo == b.item(i).lo && a.item(i).hi == b.item(i).hi,
                    "round trip keeps the items");
    }
    for (OptionId o = 0; o < a.num_options(); ++o) {
      const auto x = a.option(o), y = b.option(o);
      fuzz::require(std::equal(x.begin(), x.end(), y.begin(), y.end()),
                    "round trip keeps the options");
    }
  });
  return 0;
}
