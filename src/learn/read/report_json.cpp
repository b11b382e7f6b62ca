#include "learn/read/report_json.h"

namespace materialist::learn {

void write_named_values(JsonWriter& json, const char* key, const std::vector<std::string>& names,
                        const std::vector<double>& values) {
  json.key(key).begin_object();
  for (std::size_t i = 0; i < names.size() && i < values.size(); ++i) {
    json.field(piece_key(names[i]), values[i]);
  }
  json.end_object();
}

namespace {

// skippedReasons, partialReasons, filteredReasons: the games per reason, reasons with none left
// out.
void write_reasons(JsonWriter& json, const IngestReport& games) {
  json.key("skippedReasons").begin_object();
  for (int i = 0; i < kIssueReasonCount; ++i) {
    if (games.skipped_by_reason[i] == 0) continue;
    json.field(issue_reason_name(static_cast<IssueReason>(i)), games.skipped_by_reason[i]);
  }
  json.end_object();
  json.key("partialReasons").begin_object();
  for (int i = 0; i < kIssueReasonCount; ++i) {
    if (games.partial_by_reason[i] == 0) continue;
    json.field(issue_reason_name(static_cast<IssueReason>(i)), games.partial_by_reason[i]);
  }
  json.end_object();
  json.key("filteredReasons").begin_object();
  for (int i = 1; i < kFilterReasonCount; ++i) {
    const auto reason = static_cast<FilterReason>(i);
    if (games.filter_tally.count(reason) == 0) continue;
    json.field(filter_reason_name(reason), games.filter_tally.count(reason));
  }
  json.end_object();
}

// files: each file's name, kind, bytes, games, rows and whole-file error.
void write_files(JsonWriter& json, const DatasetReport& report) {
  json.key("files").begin_array();
  for (const FileReport& file : report.files) {
    json.begin_object()
        .field("name", file.name)
        .field("kind", file.kind == FileKind::kMat ? "mat" : "pgn")
        .field("bytes", file.bytes)
        .field("games", file.games)
        .field("rows", file.rows);
    if (file.bad_lines > 0) json.field("badLines", file.bad_lines);
    if (!file.error.empty()) json.field("error", file.error);
    json.end_object();
  }
  json.end_array();
}

// issueCount and the first `max_issues` issues: games skipped or partial, bad .mat lines.
void write_issues(JsonWriter& json, const DatasetReport& report, std::size_t max_issues) {
  const IngestReport& games = report.games;
  json.field("issueCount", games.issue_count + report.mat.bad_lines);
  json.key("issues").begin_array();
  std::size_t written = 0;
  for (const GameIssue& issue : games.issues) {
    if (written++ >= max_issues) break;
    json.begin_object()
        .field("game", issue.game)
        .field("line", issue.line)
        .field("status", game_status_name(issue.status))
        .field("reason", issue_reason_name(issue.reason))
        .field("detail", issue.detail)
        .field("rowsKept", static_cast<std::uint64_t>(issue.rows_kept))
        .end_object();
  }
  for (const MatBadLine& bad : report.mat.first_bad_lines) {
    if (written++ >= max_issues) break;
    json.begin_object()
        .field("line", bad.line)
        .field("status", "skipped")
        .field("reason", "bad-mat-line")
        .field("detail", bad.reason)
        .end_object();
  }
  json.end_array();
}

}  // namespace

void write_dataset_fields(JsonWriter& json, const DatasetReport& report, std::size_t max_issues) {
  const IngestReport& games = report.games;
  const OutcomeCounts& outcomes = games.rows_by_outcome;
  json.field("games", games.games_read)
      .field("used", games.games_used)
      .field("partial", games.games_partial)
      .field("skipped", games.games_skipped)
      .field("filtered", games.games_filtered)
      .field("rows", report.rows)
      .field("gameRows", games.rows)
      .field("matRows", report.mat.rows)
      .field("matBadLines", report.mat.bad_lines)
      .field("plies", games.plies_replayed)
      .field("bytes", report.bytes)
      .field("stoppedAtLimit", report.stopped_at_limit);
  json.key("gameRowsByOutcome")
      .begin_object()
      .field("whiteWins", outcomes[Outcome::kWhiteWin])
      .field("draws", outcomes[Outcome::kDraw])
      .field("blackWins", outcomes[Outcome::kBlackWin])
      .end_object();

  write_reasons(json, games);
  write_files(json, report);
  write_issues(json, report, max_issues);
}

}  // namespace materialist::learn
