#pragma once
// Whether -j N may start threads: natively yes, in the WebAssembly build (no pthreads) no
// (MATERIALIST_CLI_THREADS, set by CMakeLists.txt for the CLI library).

namespace materialist::cli {

inline constexpr bool kThreadsAvailable = MATERIALIST_CLI_THREADS != 0;

}  // namespace materialist::cli
