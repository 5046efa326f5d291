// cubex/render/html.hpp - the 3-D viewer: one self-contained HTML file (script inlined, no
// network) showing a list of solutions; the template is tools/viewer/viewer.html.
#pragma once

#include <span>
#include <string>

#include "cubex/puzzle/scene.hpp"

namespace cubex::render {

// The viewer for `scenes` (one per solution, all of one puzzle), opening at scenes[start]. A
// piece keeps the colour it has in the first scene where its name appears, so stepping through
// the solutions does not repaint it. `note` is shown under the title.
std::string html(std::span<const Scene> scenes, std::size_t start, const std::string& note);

}  // namespace cubex::render
