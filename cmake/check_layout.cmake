# ctest script (layout_arrows): the includes of src/ and include/cubex/ run down the layers of
# docs/design/layout.md. Each rule names a room (folders and files under the source tree) and the
# cubex headers it must not include; the script fails listing every include that breaks a rule.
#   cmake -DSOURCE_DIR=<the source tree> -P check_layout.cmake
if(NOT SOURCE_DIR OR NOT IS_DIRECTORY "${SOURCE_DIR}/src")
  message(FATAL_ERROR "check_layout.cmake: pass -DSOURCE_DIR=<the cubex source tree>")
endif()

# Everything of cubex that is not the engine, for the engine's rule.
set(not_core "cubex/(puzzle|render|disassembly|output|util|knuth|voxel|happycube|burrtools|library|pocket|mpi|symmetry|solve|cubex|options|formats|geometry|limits|distributor)[/.]")
# What the front-end contract and the front ends stay below.
set(above_front_ends "cubex/(render|disassembly|output|solve|cubex|options|mpi|pocket|library)[/.]")

# Each rule, its fields separated by #: a name, the room's paths (relative to SOURCE_DIR, folders
# end in /), the regexes of forbidden includes.
set(rules
  "core#src/core/,include/cubex/core/#${not_core}"
  "contract#include/cubex/puzzle.hpp,include/cubex/puzzle/,src/puzzle/#${above_front_ends}#cubex/(voxel|happycube|burrtools|knuth)/"
  "front ends#src/voxel/,src/happycube/,src/burrtools/,src/knuth/,include/cubex/voxel/,include/cubex/happycube/,include/cubex/burrtools/,include/cubex/knuth/#${above_front_ends}"
  "pocket#src/pocket/,include/cubex/pocket/#cubex/(core|puzzle|render|disassembly|output|knuth|voxel|happycube|burrtools|library|mpi|symmetry|solve|cubex|options|formats)[/.]"
  "utilities#src/util/,include/cubex/util/#cubex/(puzzle|render|disassembly|output|knuth|voxel|happycube|burrtools|library|pocket|mpi|symmetry|solve|cubex|options|formats)[/.]")

set(broken "")
set(checked 0)
foreach(rule IN LISTS rules)
  string(REPLACE "#" ";" parts "${rule}")
  list(GET parts 0 name)
  list(GET parts 1 paths)
  list(SUBLIST parts 2 -1 patterns)
  string(REPLACE "," ";" paths "${paths}")
  set(files "")
  foreach(p IN LISTS paths)
    if(p MATCHES "/$")
      file(GLOB_RECURSE found "${SOURCE_DIR}/${p}*.cpp" "${SOURCE_DIR}/${p}*.hpp" "${SOURCE_DIR}/${p}*.inc")
      list(APPEND files ${found})
    else()
      list(APPEND files "${SOURCE_DIR}/${p}")
    endif()
  endforeach()
  foreach(f IN LISTS files)
    math(EXPR checked "${checked} + 1")
    file(STRINGS "${f}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]cubex/")
    foreach(line IN LISTS includes)
      foreach(pattern IN LISTS patterns)
        if(line MATCHES "[\"<]${pattern}")
          file(RELATIVE_PATH rel "${SOURCE_DIR}" "${f}")
          string(STRIP "${line}" line)
          string(APPEND broken "  ${rel} (${name}): ${line}\n")
        endif()
      endforeach()
    endforeach()
  endforeach()
endforeach()
if(checked LESS 50)
  message(FATAL_ERROR "check_layout.cmake: only ${checked} files found under ${SOURCE_DIR}")
endif()
if(broken)
  message(FATAL_ERROR "includes that run up the layers (docs/design/layout.md):\n${broken}")
endif()
message("${checked} files: every include runs down the layers")
