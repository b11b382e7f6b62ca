// The one error of a bad command line (exit status 2) and how a value is quoted in it.
#pragma once

#include <string>
#include <string_view>

#include "core/error.h"
#include "core/text.h"

namespace materialist::cli {

inline Error bad_argument(std::string message) {
  return make_error(ErrorCode::kInvalidArgument, std::move(message));
}

// 'value', made safe to print.
inline std::string quoted(std::string_view text) {
  return "'" + printable(text) + "'";
}

}  // namespace materialist::cli
