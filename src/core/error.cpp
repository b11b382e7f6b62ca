#include "core/error.h"

#include "core/enum_names.h"

namespace materialist {

namespace {

constexpr std::array kErrorCodeNames = {"ok",
                                        "syntax",
                                        "illegal-move",
                                        "ambiguous-move",
                                        "limit",
                                        "io",
                                        "invalid-argument",
                                        "not-converged",
                                        "unknown-user",
                                        "rate-limited",
                                        "no-network",
                                        "service-error",
                                        "empty-file",
                                        "not-text",
                                        "no-games",
                                        "no-usable-games",
                                        "unsupported-format",
                                        "corrupt-data",
                                        "truncated-data"};
static_assert(kErrorCodeNames.size() == static_cast<std::size_t>(ErrorCode::kTruncatedData) + 1);

}  // namespace

const char* error_code_name(ErrorCode code) {
  return name_of(kErrorCodeNames, code);
}

}  // namespace materialist
