#include "cli/player_input.h"

#include <algorithm>
#include <cstdlib>

#include "cli/http_input.h"
#include "core/json_value.h"

namespace materialist::cli {
namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
long long days_from_civil(int y, unsigned m, unsigned d) {
  y -= m <= 2 ? 1 : 0;
  const int era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return static_cast<long long>(era) * 146097 + static_cast<long long>(doe) - 719468;
}

// Milliseconds since 1970 (UTC) at the start of the day YYYY-MM-DD, plus `days`.
Expected<long long> day_ms(const std::string& option, const std::string& date, int days) {
  const bool shaped = date.size() == 10 && date[4] == '-' && date[7] == '-' &&
                      std::all_of(date.begin(), date.end(),
                                  [](char c) { return c == '-' || (c >= '0' && c <= '9'); });
  const int y = shaped ? std::atoi(date.substr(0, 4).c_str()) : 0;
  const int m = shaped ? std::atoi(date.substr(5, 2).c_str()) : 0;
  const int d = shaped ? std::atoi(date.substr(8, 2).c_str()) : 0;
  if (!shaped || m < 1 || m > 12 || d < 1 || d > 31) {
    return make_error(ErrorCode::kInvalidArgument,
                      option + " expects a day YYYY-MM-DD, got '" + date + "'");
  }
  return (days_from_civil(y, static_cast<unsigned>(m), static_cast<unsigned>(d)) + days) *
         86'400'000LL;
}

std::string url_encoded(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) != 0 || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(c);
    } else {
      out += {'%', kHex[u >> 4], kHex[u & 15]};
    }
  }
  return out;
}

// "2024-01-31" as PGN writes a date, "2024.01.31" ("" stays "").
std::string pgn_day(std::string day) {
  std::replace(day.begin(), day.end(), '-', '.');
  return day;
}

}  // namespace

std::string service_base(const char* variable, const char* fallback) {
  const char* set = std::getenv(variable);
  std::string base = set != nullptr && *set != '\0' ? set : fallback;
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base;
}

Expected<std::string> lichess_export_url(const std::string& base, const CliOptions& options) {
  std::string query;
  const auto add = [&query](std::string_view key, const std::string& value) {
    query += query.empty() ? '?' : '&';
    query.append(key).append("=").append(url_encoded(value));
  };
  if (!options.speed.empty()) add("perfType", options.speed);
  if (options.rated) add("rated", "true");
  if (!options.since.empty()) {
    auto since = day_ms("--since", options.since, 0);
    if (!since) return since.error();
    add("since", std::to_string(*since));
  }
  if (!options.until.empty()) {
    auto until = day_ms("--until", options.until, 1);  // the whole last day
    if (!until) return until.error();
    add("until", std::to_string(*until));
  }
  if (options.max_games > 0) add("max", std::to_string(options.max_games));
  // The evaluation target: lichess writes its server analysis as [%eval] comments when asked.
  if (options.target == "eval" || !options.targets.empty()) add("evals", "true");
  return base + "/api/games/user/" + url_encoded(options.lichess) + query;
}

Expected<std::vector<std::string>> chesscom_month_urls(std::string_view archives_json,
                                                       const std::string& user,
                                                       const std::string& since,
                                                       const std::string& until) {
  const Expected<JsonValue> json = parse_json(archives_json);
  const JsonValue* list = json ? json->find("archives") : nullptr;
  if (list == nullptr || !list->is_array()) {
    return make_error(ErrorCode::kServiceError,
                      "chess.com's archive list of \"" + user + "\" could not be read");
  }
  // ".../games/2024/01" → "2024-01", compared with the days' months.
  const std::string from = since.substr(0, std::min<std::size_t>(7, since.size()));
  const std::string to = until.substr(0, std::min<std::size_t>(7, until.size()));
  std::vector<std::string> urls;
  for (const JsonValue& item : list->items()) {
    std::string url = item.as_string();
    while (!url.empty() && url.back() == '/') url.pop_back();
    if (url.empty()) continue;
    const std::string month = url.size() >= 7 && url[url.size() - 3] == '/'
                                  ? url.substr(url.size() - 7, 4) + "-" + url.substr(url.size() - 2)
                                  : std::string();
    if (!month.empty() && ((!from.empty() && month < from) || (!to.empty() && month > to)))
      continue;
    urls.push_back(url + "/pgn");
  }
  if (urls.empty()) {
    return make_error(ErrorCode::kUnknownUser,
                      "chess.com has no games of \"" + user + "\"" +
                          (from.empty() && to.empty() ? "" : " in these months") +
                          " (an empty archive list)");
  }
  std::reverse(urls.begin(), urls.end());  // newest month first, as lichess sends its games
  return urls;
}

Expected<CliOptions> with_player_inputs(CliOptions options) {
  if (!options.lichess.empty() && !options.chesscom.empty()) {
    return make_error(ErrorCode::kInvalidArgument,
                      "--lichess and --chesscom: one player at a time");
  }
  const std::string& user = options.lichess.empty() ? options.chesscom : options.lichess;
  if (user.empty()) return options;
  for (const std::string* day : {&options.since, &options.until}) {
    if (!day->empty()) {
      auto checked = day_ms(day == &options.since ? "--since" : "--until", *day, 0);
      if (!checked) return checked.error();
    }
  }
  if (!options.both_sides && options.filter.find("player=") == std::string::npos) {
    options.filter =
        "player=" + user + ";pov=1" + (options.filter.empty() ? "" : ";" + options.filter);
  }
  if (!options.lichess.empty()) {
    auto url = lichess_export_url(service_base("MATERIALIST_LICHESS_URL", kLichessBase), options);
    if (!url) return url.error();
    options.files.push_back(*url);
    return options;
  }
  // chess.com's speed and days: filters (its archives hold every game of whole months).
  if (!options.speed.empty()) {
    options.filter += (options.filter.empty() ? "tc=" : ";tc=") + options.speed;
  }
  if (!options.since.empty() || !options.until.empty()) {
    options.filter += (options.filter.empty() ? "date=" : ";date=") + pgn_day(options.since) + "-" +
                      pgn_day(options.until);
  }
  const std::string base = service_base("MATERIALIST_CHESSCOM_URL", kChesscomBase);
  std::string lower = user;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  auto list = fetch_text(base + "/pub/player/" + url_encoded(lower) + "/games/archives");
  if (!list) return list.error();
  auto months = chesscom_month_urls(*list, user, options.since, options.until);
  if (!months) return months.error();
  options.files.insert(options.files.end(), months->begin(), months->end());
  return options;
}

}  // namespace materialist::cli
