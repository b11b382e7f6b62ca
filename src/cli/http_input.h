// A game service's answer streamed over HTTP(S) (libcurl, natively; the WebAssembly build has
// none): its body in chunks to a sink, as a file's bytes are, and any other answer as an error
// that says what happened: unknown user (404), rate limit (429, with the wait), no network.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "cli/input.h"
#include "core/error.h"

namespace materialist::cli {

// True for "http://..." and "https://..." (an input read by stream_url, not a file).
bool is_url(std::string_view path);

// Streams the body of a GET of `url`; the sink returning false stops it (not an error). Errors:
// kUnknownUser, kRateLimited, kNoNetwork, kServiceError, each message naming the service and
// the player from the address (lichess's /api/games/user/NAME, chess.com's /pub/player/NAME/).
Expected<std::uint64_t> stream_url(const std::string& url, const ChunkSink& sink,
                                   const ProgressSink& progress);

// The whole body of a GET of `url` (chess.com's archive list), with the same errors.
Expected<std::string> fetch_text(const std::string& url);

// The error for an HTTP status other than 200 (404, 429 with Retry-After's text, others).
Error http_status_error(const std::string& url, long status, std::string_view retry_after);
// The error for an address that could not be reached (`why`: libcurl's words).
Error no_network_error(const std::string& url, const std::string& why);

}  // namespace materialist::cli
