#pragma once
// The commands' std::unique_ptr deleter for a std::FILE they opened (one definition, shared).

#include <cstdio>

namespace materialist::cli {

// Closes a file a command opened; never stdin (a path "-" may stand for it).
struct FileCloser {
  void operator()(std::FILE* file) const {
    if (file != nullptr && file != stdin) std::fclose(file);
  }
};

}  // namespace materialist::cli
