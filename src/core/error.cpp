#include "core/error.h"

namespace materialist {

const char* error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk:
      return "ok";
    case ErrorCode::kSyntax:
      return "syntax";
    case ErrorCode::kIllegalMove:
      return "illegal-move";
    case ErrorCode::kAmbiguousMove:
      return "ambiguous-move";
    case ErrorCode::kLimit:
      return "limit";
    case ErrorCode::kIo:
      return "io";
    case ErrorCode::kInvalidArgument:
      return "invalid-argument";
    case ErrorCode::kNotConverged:
      return "not-converged";
  }
  return "unknown";
}

}  // namespace materialist
