// cubex/io/solve_output.hpp - the old path of cubex/output/solve_output.hpp, kept so that code
// written against it still compiles: the streamed --json is one of the outputs (src/output/). New
// code includes cubex/output/solve_output.hpp.
#pragma once

#include "cubex/output/solve_output.hpp"
