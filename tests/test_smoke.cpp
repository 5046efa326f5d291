#include <gtest/gtest.h>
#include "cubex/core/solver.hpp"
TEST(Smoke, Builds) { cubex::Problem p; p.add_primary("A"); p.add_option({0}); EXPECT_EQ(cubex::Solver(p).count().solutions, 1u); }
