#include "app/theme.h"

#include <cmath>
#include <cstdio>

namespace materialist::app {

std::string megabytes(double bytes) {
  char text[32];
  if (bytes >= 1e9) {
    std::snprintf(text, sizeof text, "%.2f GB", bytes / 1e9);
  } else if (bytes >= 1e6) {
    std::snprintf(text, sizeof text, "%.1f MB", bytes / 1e6);
  } else {
    std::snprintf(text, sizeof text, "%.0f KB", bytes / 1e3);
  }
  return text;
}

std::string duration(double seconds) {
  char text[32];
  if (seconds < 0) return "…";
  if (seconds < 60) {
    std::snprintf(text, sizeof text, "%.0f s", std::ceil(seconds));
  } else {
    std::snprintf(text, sizeof text, "%d min %02d s", int(seconds) / 60, int(seconds) % 60);
  }
  return text;
}

const char* solver_label(learn::SolverKind solver) {
  return solver == learn::SolverKind::kNewton ? "Newton" : "gradient descent";
}

}  // namespace materialist::app
