// Errors as values: a code and a message, and Expected<T> holding either a value or an Error.
// The core never throws (Emscripten aborts on a throw), so every fallible call returns one of
// these.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>

namespace materialist {

enum class ErrorCode : std::uint8_t {
  kOk = 0,
  kSyntax,         // text that is not of the expected form (FEN, SAN, tag, number)
  kIllegalMove,    // a well-formed move that no legal move matches
  kAmbiguousMove,  // a move that matches more than one legal move
  kLimit,          // input beyond a hard limit (token length, nesting, plies)
  kIo,             // a file could not be opened or read
  kInvalidArgument,
  kNotConverged,
  // A game service (lichess, chess.com) over the network: cli/http_input.h.
  kUnknownUser,   // the service has no such player (HTTP 404, an empty archive list)
  kRateLimited,   // HTTP 429: too many requests; the message says how long to wait
  kNoNetwork,     // the service could not be reached
  kServiceError,  // any other answer than the games
  // A whole input file that gave nothing (learn::FileReport, worker::Engine::end_file).
  kEmptyFile,          // no bytes at all
  kNotText,            // binary data where PGN or .mat text was expected (an image, a PDF)
  kNoGames,            // text without one game (PGN) or one row (.mat); a zip without .pgn
  kNoUsableGames,      // games, but every one skipped (see the skipped games)
  kUnsupportedFormat,  // compressed data or an archive this reader refuses (xz, zip64, 7z)
  kCorruptData,        // compressed bytes that are not what their format says
  kTruncatedData,      // compressed data that ends inside a frame, member or archive
};

// Names the code for reports ("illegal-move"), stable for JSON and tests.
const char* error_code_name(ErrorCode code);

struct [[nodiscard]] Error {
  ErrorCode code = ErrorCode::kOk;
  std::string message;
};

// A minimal std::expected stand-in (C++23 is not available on Emscripten 3.1.6's libc++).
template <typename T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : storage_(std::move(value)) {}
  Expected(Error error) : storage_(std::move(error)) {}

  bool ok() const { return std::holds_alternative<T>(storage_); }
  explicit operator bool() const { return ok(); }

  const T& value() const& { return std::get<T>(storage_); }
  T& value() & { return std::get<T>(storage_); }
  T&& value() && { return std::get<T>(std::move(storage_)); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

  const Error& error() const { return std::get<Error>(storage_); }

 private:
  std::variant<T, Error> storage_;
};

inline Error make_error(ErrorCode code, std::string message) {
  return Error{code, std::move(message)};
}

}  // namespace materialist
