// What a game service's address and answer mean in words (no network here: tested everywhere).
#include <cstdlib>
#include <regex>

#include "cli/http_input.h"

namespace materialist::cli {
namespace {

// lichess asks clients to wait a full minute after a 429; chess.com names no wait.
constexpr long kDefaultRetrySeconds = 60;

struct ServiceOf {
  std::string service;  // "lichess", "chess.com", or the host
  std::string user;     // "" when the address names none
};

ServiceOf service_of(const std::string& url) {
  static const std::regex lichess(R"(/api/games/user/([^/?#]+))");
  static const std::regex chesscom(R"(/pub/player/([^/?#]+))");
  std::smatch m;
  if (std::regex_search(url, m, lichess)) return {"lichess", m[1].str()};
  if (std::regex_search(url, m, chesscom)) return {"chess.com", m[1].str()};
  const std::size_t start = url.find("://");
  const std::size_t host = start == std::string::npos ? 0 : start + 3;
  return {url.substr(host, url.find('/', host) - host), ""};
}

}  // namespace

bool is_url(std::string_view path) {
  return path.rfind("http://", 0) == 0 || path.rfind("https://", 0) == 0;
}

Error http_status_error(const std::string& url, long status, std::string_view retry_after) {
  const ServiceOf s = service_of(url);
  if (status == 404 && !s.user.empty()) {
    return make_error(ErrorCode::kUnknownUser, s.service + " has no player \"" + s.user +
                                                   "\" (HTTP 404): check the username");
  }
  if (status == 429) {
    const std::string digits(retry_after);
    const bool seconds =
        !digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos;
    const long wait = seconds ? std::strtol(digits.c_str(), nullptr, 10) : kDefaultRetrySeconds;
    return make_error(ErrorCode::kRateLimited,
                      s.service + " is limiting requests (HTTP 429, too many requests): wait " +
                          std::to_string(wait) + " s, then try again");
  }
  return make_error(ErrorCode::kServiceError, s.service + " answered HTTP " +
                                                  std::to_string(status) + " for " + url +
                                                  " (a service error): try again later");
}

Error no_network_error(const std::string& url, const std::string& why) {
  const ServiceOf s = service_of(url);
  return make_error(ErrorCode::kNoNetwork, "could not reach " + s.service + " (" + url +
                                               "): no network, or the host refused (" + why + ")");
}

}  // namespace materialist::cli
