// cubex/io/json.hpp - the old path of cubex/util/json.hpp, kept so that code written against it
// still compiles: parsing and writing JSON text is a utility of every room (src/util/). New code
// includes cubex/util/json.hpp.
#pragma once

#include "cubex/util/json.hpp"
