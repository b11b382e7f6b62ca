// Streams a service's answer with libcurl (MATERIALIST_HAVE_CURL: the native CLI build); without
// it (the WebAssembly test build) every address is an error saying so.
#include "cli/http_input.h"

#if MATERIALIST_HAVE_CURL
#include <curl/curl.h>

#include <cctype>
#include <memory>
#endif

namespace materialist::cli {

#if MATERIALIST_HAVE_CURL
namespace {

constexpr long kConnectTimeoutSeconds = 20;
constexpr long kStalledSeconds = 60;  // a stream that sends nothing for a minute is given up

struct Transfer {
  CURL* curl = nullptr;
  const ChunkSink* sink = nullptr;
  const ProgressSink* progress = nullptr;
  InputProgress state;
  std::string retry_after;
  bool stopped = false;  // the sink asked for no more
};

long status_of(CURL* curl) {
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  return status;
}

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const std::string line(data, size * count);
  constexpr std::string_view kRetry = "retry-after:";
  if (line.size() > kRetry.size()) {
    std::string name = line.substr(0, kRetry.size());
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (name == kRetry) {
      std::string value = line.substr(kRetry.size());
      const auto first = value.find_first_not_of(" \t");
      const auto last = value.find_last_not_of(" \t\r\n");
      transfer->retry_after =
          first == std::string::npos ? "" : value.substr(first, last - first + 1);
    }
  }
  return size * count;
}

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const std::size_t bytes = size * count;
  if (status_of(transfer->curl) != 200) return bytes;  // an error page: not games
  transfer->state.bytes_read += bytes;
  if (!(*transfer->sink)(data, bytes)) {
    transfer->stopped = true;
    return 0;  // aborts the transfer (CURLE_WRITE_ERROR), which is then no error
  }
  if (*transfer->progress) (*transfer->progress)(transfer->state);
  return bytes;
}

struct CurlCloser {
  void operator()(CURL* curl) const { curl_easy_cleanup(curl); }
};

}  // namespace

Expected<std::uint64_t> stream_url(const std::string& url, const ChunkSink& sink,
                                   const ProgressSink& progress) {
  std::unique_ptr<CURL, CurlCloser> curl(curl_easy_init());
  if (!curl) return no_network_error(url, "libcurl could not start");
  Transfer transfer;
  transfer.curl = curl.get();
  transfer.sink = &sink;
  transfer.progress = &progress;
  curl_easy_setopt(curl.get(), CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(curl.get(), CURLOPT_USERAGENT, "materialist/0.1.0 (chess piece values)");
  curl_easy_setopt(curl.get(), CURLOPT_ACCEPT_ENCODING, "");  // gzip if the service offers it
  curl_easy_setopt(curl.get(), CURLOPT_CONNECTTIMEOUT, kConnectTimeoutSeconds);
  curl_easy_setopt(curl.get(), CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(curl.get(), CURLOPT_LOW_SPEED_TIME, kStalledSeconds);
  curl_easy_setopt(curl.get(), CURLOPT_NOSIGNAL, 1L);  // safe beside the parse threads
  curl_slist* headers = curl_slist_append(nullptr, "Accept: application/x-chess-pgn, */*");
  curl_easy_setopt(curl.get(), CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl.get(), CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(curl.get(), CURLOPT_HEADERDATA, &transfer);
  curl_easy_setopt(curl.get(), CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(curl.get(), CURLOPT_WRITEDATA, &transfer);
  const CURLcode code = curl_easy_perform(curl.get());
  curl_slist_free_all(headers);
  if (transfer.stopped) return transfer.state.bytes_read;
  if (code != CURLE_OK) return no_network_error(url, curl_easy_strerror(code));
  const long status = status_of(curl.get());
  if (status != 200) return http_status_error(url, status, transfer.retry_after);
  return transfer.state.bytes_read;
}

#else

Expected<std::uint64_t> stream_url(const std::string& url, const ChunkSink&, const ProgressSink&) {
  return no_network_error(url, "this build has no HTTP client");
}

#endif

Expected<std::string> fetch_text(const std::string& url) {
  std::string text;
  auto read =
      stream_url(url,
                 [&text](const char* data, std::size_t size) {
                   text.append(data, size);
                   return text.size() < (std::size_t{64} << 20);  // an archive list is a few KB
                 },
                 {});
  if (!read) return read.error();
  return text;
}

}  // namespace materialist::cli
