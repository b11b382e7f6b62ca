// Progress of a read on stderr. On a terminal: one line redrawn in place with '\r' (the file's
// percent read, by its bytes on disk, compressed or not; MB/s; games; the time left). Elsewhere
// (a log, a pipe): the file's name, then a plain line every 64 MB, as before.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace materialist::cli {

struct ReadCounts {
  std::uint64_t games = 0;
  std::uint64_t rows = 0;
};

class ReadProgress {
 public:
  // `out` null: silent.
  explicit ReadProgress(std::FILE* out);

  // A file begins: its name and size on disk (0 when unknown, as for a pipe).
  void begin_file(const std::string& name, std::uint64_t total_bytes);
  // Its bytes read so far and what the read gave so far; drawn when it is time to.
  void update(std::uint64_t bytes_read, const ReadCounts& counts);
  // Whether update() would draw now (so the caller can skip gathering counts).
  bool due(std::uint64_t bytes_read) const;
  // The file is read (`bytes_read` of it): the terminal line is drawn a last time and ended.
  void end_file(std::uint64_t bytes_read, const ReadCounts& counts);

 private:
  using Clock = std::chrono::steady_clock;
  void draw_line(std::uint64_t bytes_read, const ReadCounts& counts);

  std::FILE* out_;
  bool terminal_ = false;
  std::string name_;
  std::uint64_t total_ = 0;
  Clock::time_point start_;
  Clock::time_point last_draw_;
  std::uint64_t next_plain_line_ = 0;  // bytes
};

}  // namespace materialist::cli
