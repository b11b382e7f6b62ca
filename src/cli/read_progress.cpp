#include "cli/read_progress.h"

#include <unistd.h>

#include <algorithm>

namespace materialist::cli {

namespace {

constexpr std::uint64_t kPlainLineEveryBytes = 64ull << 20;
constexpr auto kRedrawEvery = std::chrono::milliseconds(200);

// "1:02:03" or "2:03".
std::string clock_text(double seconds) {
  const auto total = static_cast<long long>(seconds + 0.5);
  char text[32];
  if (total >= 3600) {
    std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", total / 3600, total / 60 % 60,
                  total % 60);
  } else {
    std::snprintf(text, sizeof text, "%lld:%02lld", total / 60, total % 60);
  }
  return text;
}

}  // namespace

ReadProgress::ReadProgress(std::FILE* out)
    : out_(out), terminal_(out != nullptr && ::isatty(::fileno(out)) == 1) {}

void ReadProgress::begin_file(const std::string& name, std::uint64_t total_bytes) {
  if (out_ == nullptr) return;
  name_ = name;
  total_ = total_bytes;
  start_ = Clock::now();
  last_draw_ = start_;
  next_plain_line_ = kPlainLineEveryBytes;
  if (!terminal_) std::fprintf(out_, "Reading file: %s\n", name.c_str());
}

bool ReadProgress::due(std::uint64_t bytes_read) const {
  if (out_ == nullptr) return false;
  if (!terminal_) return bytes_read >= next_plain_line_;
  return Clock::now() - last_draw_ >= kRedrawEvery;
}

void ReadProgress::update(std::uint64_t bytes_read, const ReadCounts& counts) {
  if (!due(bytes_read)) return;
  const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
  const double mb = static_cast<double>(bytes_read) / 1e6;
  if (!terminal_) {
    std::fprintf(out_, "  %.0f MB", mb);
    if (total_ > 0) std::fprintf(out_, " of %.0f MB", static_cast<double>(total_) / 1e6);
    std::fprintf(out_, ", %llu games, %llu rows, %.0f MB/s\n",
                 static_cast<unsigned long long>(counts.games),
                 static_cast<unsigned long long>(counts.rows), seconds > 0 ? mb / seconds : 0.0);
    while (next_plain_line_ <= bytes_read) next_plain_line_ += kPlainLineEveryBytes;
    return;
  }
  draw_line(bytes_read, counts);
}

void ReadProgress::draw_line(std::uint64_t bytes_read, const ReadCounts& counts) {
  last_draw_ = Clock::now();
  const double seconds = std::chrono::duration<double>(last_draw_ - start_).count();
  const double rate = seconds > 0 ? static_cast<double>(bytes_read) / seconds : 0;  // bytes/s
  std::fprintf(out_, "\r%s", name_.c_str());
  if (total_ > 0) {
    const double done = static_cast<double>(bytes_read) / static_cast<double>(total_);
    std::fprintf(out_, "  %3.0f%% of %.0f MB", 100 * std::min(done, 1.0),
                 static_cast<double>(total_) / 1e6);
  } else {
    std::fprintf(out_, "  %.0f MB", static_cast<double>(bytes_read) / 1e6);
  }
  std::fprintf(out_, "  %.0f MB/s  %llu games", rate / 1e6,
               static_cast<unsigned long long>(counts.games));
  if (total_ > 0 && rate > 0 && bytes_read < total_) {
    const double left = static_cast<double>(total_ - bytes_read) / rate;
    std::fprintf(out_, "  ETA %s", clock_text(left).c_str());
  }
  std::fputs("\x1b[K", out_);  // erase what a longer line left
  std::fflush(out_);
}

void ReadProgress::end_file(std::uint64_t bytes_read, const ReadCounts& counts) {
  if (out_ == nullptr || !terminal_) return;
  draw_line(bytes_read, counts);
  std::fputc('\n', out_);
}

}  // namespace materialist::cli
