// A share link's settings as short address parameters: only what differs from what the link's
// preset gives, nested fields dotted ("model.outcomes=ordinal"), lists repeated
// ("eachFilter=tc%3Dblitz&eachFilter=tc%3Drapid"), numbers in their shortest exact form.
// web/page.js reads them back into the protocol's settings object.
#pragma once

#include <string>

#include "protocol/messages.h"

namespace materialist::app {

// "preset=exact&units=elo&filter=elo%3D1500-" ("" for the default settings).
std::string share_link_query(const protocol::Settings& settings);

}  // namespace materialist::app
