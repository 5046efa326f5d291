// cubex/io/files.hpp - the old path of cubex/util/files.hpp, kept so that code written against it
// still compiles: reading and writing whole files is a utility of every room (src/util/). New code
// includes cubex/util/files.hpp.
#pragma once

#include "cubex/util/files.hpp"
