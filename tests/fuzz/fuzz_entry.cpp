// The libFuzzer entry of one target: tests/fuzz/CMakeLists.txt compiles this file once per
// check, with MATERIALIST_FUZZ_CHECK naming it (fuzz_checks.h). A broken property aborts, so
// libFuzzer keeps the input as a finding (crash-*), like a sanitizer report.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  if (const materialist::fuzz::Failure failure = materialist::fuzz::MATERIALIST_FUZZ_CHECK(input)) {
    std::fprintf(stderr, "property broken: %s\n", failure->c_str());
    std::abort();
  }
  return 0;
}
