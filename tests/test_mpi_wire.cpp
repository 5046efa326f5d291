// The MPI mode's wire format (src/mpi/wire.hpp), without MPI: what a rank writes, another reads
// back the same; a short or malformed message, and one of another protocol or version, are
// refused with the reason.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "mpi/wire.hpp"

using cubex::JobCounts;
using cubex::TreePath;
using cubex::TreeSpan;
namespace wire = cubex::mpi::detail;

// The words of a small message, pinned: a change here is a new protocol version (kVersion).
TEST(MpiWire, WordsOfAMessageArePinned) {
  EXPECT_EQ(wire::kMagic, 0xC0BE0003u);
  wire::Writer m;
  m.u(5);
  m.d(1.5);
  m.text("abcdefghi");
  const TreePath p{3, 1};
  m.path(p);
  const wire::Words want{0xC0BE0003u, 5, 0x3FF8000000000000u, 9, 0x6867666564636261u, 0x69, 2,
                         3,           1};
  EXPECT_EQ(m.w, want);
}

TEST(MpiWire, WhatIsWrittenReadsBack) {
  wire::Writer m;
  JobCounts c;
  c.unique = 1;
  c.total = 48;
  c.symmetric = 2;
  c.split = 4;
  c.solutions = 3;
  c.nodes = std::numeric_limits<std::uint64_t>::max();
  c.updates = 7;
  m.counts(c, 0.25);
  TreeSpan s;
  s.begin = {0, 4, 2};
  s.end = {1};
  s.to_end = false;
  s.weight = 1.0 / 3;
  m.span(s);
  TreeSpan all;  // the whole tree: empty paths, no end
  m.span(all);
  for (const std::string& t : {std::string(), std::string("x"), std::string(8, 'y'),
                               std::string("a text of 17 char"), std::string("nul\0inside", 10)})
    m.text(t);
  m.d(-0.0);
  m.d(std::numeric_limits<double>::infinity());

  wire::Reader r{m.w};
  double weight = 0;
  const JobCounts back = r.counts(weight);
  EXPECT_EQ(back.unique, 1u);
  EXPECT_EQ(back.total, 48u);
  EXPECT_EQ(back.symmetric, 2u);
  EXPECT_EQ(back.split, 4u);
  EXPECT_EQ(back.solutions, 3u);
  EXPECT_EQ(back.nodes, std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(back.updates, 7u);
  EXPECT_EQ(weight, 0.25);
  const TreeSpan s2 = r.span();
  EXPECT_EQ(s2.begin, s.begin);
  EXPECT_EQ(s2.end, s.end);
  EXPECT_FALSE(s2.to_end);
  EXPECT_EQ(s2.weight, s.weight);
  const TreeSpan all2 = r.span();
  EXPECT_TRUE(all2.begin.empty());
  EXPECT_TRUE(all2.end.empty());
  EXPECT_TRUE(all2.to_end);
  EXPECT_EQ(r.text(), "");
  EXPECT_EQ(r.text(), "x");
  EXPECT_EQ(r.text(), std::string(8, 'y'));
  EXPECT_EQ(r.text(), "a text of 17 char");
  EXPECT_EQ(r.text(), std::string("nul\0inside", 10));
  const double z = r.d();
  EXPECT_EQ(z, 0.0);
  EXPECT_TRUE(std::signbit(z));
  EXPECT_TRUE(std::isinf(r.d()));
  EXPECT_TRUE(r.done());
}

TEST(MpiWire, ShortAndMalformedMessagesAreRefused) {
  wire::Writer m;
  m.u(1);
  wire::Reader r{m.w};
  EXPECT_EQ(r.u(), 1u);
  EXPECT_THROW(
      {
        try {
          r.u();
        } catch (const std::runtime_error& e) {
          EXPECT_NE(std::string(e.what()).find("ends too soon"), std::string::npos);
          throw;
        }
      },
      std::runtime_error);
  // A path that says it has more entries than the message holds.
  wire::Writer big;
  big.u(1000);
  big.u(1);
  wire::Reader rp{big.w};
  EXPECT_THROW(
      {
        try {
          rp.path();
        } catch (const std::runtime_error& e) {
          EXPECT_NE(std::string(e.what()).find("malformed"), std::string::npos);
          throw;
        }
      },
      std::runtime_error);
}

TEST(MpiWire, AnotherProtocolOrVersionIsNamed) {
  EXPECT_NO_THROW(wire::check_magic(3, wire::Words{wire::kMagic, 1}));
  auto why = [](const wire::Words& w) {
    try {
      wire::check_magic(3, w);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(why(wire::Words{wire::kMagicBase | 1}),
            "rank 3 speaks version 1 of the cluster protocol, this rank version 3 (another cubex "
            "version?)");
  EXPECT_EQ(why(wire::Words{42}),
            "rank 3 speaks another cluster protocol (another cubex version?)");
  EXPECT_EQ(why(wire::Words{}), "rank 3 speaks another cluster protocol (another cubex version?)");
}
