#include "cli/help.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include "cli/arguments.h"

namespace materialist::cli {

namespace {

constexpr std::size_t kHelpColumn = 29;  // where an option's help starts
constexpr std::size_t kHelpWidth = 96;   // the longest line of a help page

constexpr std::string_view kAbout =
    "materialist: learn chess piece values from PGN games (logistic regression on material),\n"
    "and play value sets against each other.\n";

constexpr std::string_view kInput =
    "Input: .pgn or .mat text, also compressed: zstd (.pgn.zst, as the lichess database), gzip,\n"
    "bzip2, or a zip archive (its .pgn entries, in order, named archive.zip:entry.pgn),\n"
    "recognised by their first bytes. xz, 7z and rar are refused (unsupported-format):\n"
    "decompress them first. Corrupt or truncated compressed data stops the command\n"
    "(corrupt-archive), saying at which byte.\n";

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start <= text.size() && !text.empty()) {
    const std::size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return lines;
}

// The words of `text` in lines of at most `width` characters (a longer word stands alone).
std::vector<std::string> wrapped(std::string_view text, std::size_t width) {
  std::vector<std::string> lines(1);
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find_first_of(" \n", start), text.size());
    const std::string_view word = text.substr(start, end - start);
    start = end + 1;
    if (word.empty()) continue;
    if (!lines.back().empty() && lines.back().size() + 1 + word.size() > width)
      lines.emplace_back();
    lines.back() += (lines.back().empty() ? "" : " ") + std::string(word);
  }
  return lines;
}

// "--preset article|default|exact", "-j, --jobs N", "--json".
std::string option_with_value(const OptionSpec& spec) {
  std::string text = option_label(spec);
  if (spec.kind == ValueKind::kChoice) {
    std::string names;
    for (const char* name : spec.choices) names += (names.empty() ? "" : "|") + std::string(name);
    return text + " " + names;
  }
  if (spec.kind != ValueKind::kSwitch) text += " " + std::string(spec.value_name);
  return text;
}

std::string default_note(const OptionSpec& spec) {
  return spec.default_text.empty() ? "" : "(default: " + std::string(spec.default_text) + ")";
}

// One option: its names and value in the left column, its help lines and default to the right.
void append_option(std::string& out, const OptionSpec& spec) {
  std::string left = "  " + option_with_value(spec);
  std::string help(spec.help);
  if (const std::string note = default_note(spec); !note.empty()) help += " " + note;
  const std::vector<std::string> lines = wrapped(help, kHelpWidth - kHelpColumn);
  if (left.size() + 1 > kHelpColumn) {
    out += left + "\n";
    left.clear();
  }
  for (const std::string& line : lines) {
    left.resize(kHelpColumn, ' ');
    out += left + line + "\n";
    left.clear();
  }
}

void append_usage(std::string& out, const CommandSpec& command) {
  out += "Usage:\n";
  for (const std::string_view line : lines_of(command.usage)) {
    // A line that starts with a space goes on with the one before.
    out += (line.starts_with(' ') ? "              " : "  materialist ") + std::string(line) + "\n";
  }
}

void append_exit_statuses(std::string& out) {
  out += "Exit status:\n";
  for (const ExitStatusSpec& exit : exit_statuses()) {
    std::string lead = "  " + std::to_string(exit.status) + "  ";
    for (const std::string& line : wrapped(exit.meaning, kHelpWidth - lead.size())) {
      out += lead + line + "\n";
      lead = std::string(lead.size(), ' ');
    }
  }
}

bool reads_files(Verb verb) {
  return verb == Verb::kRows || verb == Verb::kFit || verb == Verb::kCompare ||
         verb == Verb::kStats || verb == Verb::kPositions;
}

// "`--preset` `article\|default\|exact`" cells escape the table's bars.
std::string escaped(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

std::string global_help() {
  std::string out(kAbout);
  out += "\nUsage: materialist COMMAND [options] [FILE...]\n\nCommands:\n";
  for (const CommandSpec& command : command_specs()) {
    std::string name = "  " + std::string(verb_name(command.verb));
    name.resize(12, ' ');
    out += name + std::string(command.summary) + "\n";
  }
  out += "\n  materialist COMMAND --help   the command's usage and every option it takes\n";
  out += "  materialist --version\n\n";
  out += kInput;
  out += "\n";
  append_exit_statuses(out);
  return out;
}

std::string command_help(Verb verb) {
  const CommandSpec& command = spec_of(verb);
  std::string out =
      "materialist " + std::string(verb_name(verb)) + ": " + std::string(command.summary) + "\n\n";
  append_usage(out, command);
  for (std::size_t section = 0; section < kSectionTitles.size(); ++section) {
    bool titled = false;
    for (const OptionSpec& spec : option_specs()) {
      if (static_cast<std::size_t>(spec.section) != section || !spec.verbs.has(verb)) continue;
      if (!titled) out += std::string("\n") + kSectionTitles[section] + ":\n";
      titled = true;
      append_option(out, spec);
    }
  }
  out += "\n  -h, --help                 this help\n";
  if (!command.notes.empty()) out += "\n" + std::string(command.notes) + "\n";
  if (reads_files(verb)) out += "\n" + std::string(kInput);
  out += "\n";
  append_exit_statuses(out);
  return out;
}

std::string reference_markdown() {
  std::string out = "| command | usage | what it does |\n| --- | --- | --- |\n";
  for (const CommandSpec& command : command_specs()) {
    std::string usage;
    for (const std::string_view line : lines_of(command.usage)) {
      if (line.starts_with(' ')) {
        usage.insert(usage.size() - 1, " " + escaped(line.substr(line.find_first_not_of(' '))));
      } else {
        usage += (usage.empty() ? "" : "<br>") + ("`materialist " + escaped(line) + "`");
      }
    }
    out += "| `" + std::string(verb_name(command.verb)) + "` | " + usage + " | " +
           escaped(command.summary) + " |\n";
  }
  for (std::size_t section = 0; section < kSectionTitles.size(); ++section) {
    out += std::string("\n**") + kSectionTitles[section] +
           "**\n\n| option | commands | default | what it does |\n| --- | --- | --- | --- |\n";
    for (const OptionSpec& spec : option_specs()) {
      if (static_cast<std::size_t>(spec.section) != section) continue;
      std::string verbs, help;
      for (const CommandSpec& command : command_specs()) {
        if (spec.verbs.has(command.verb)) {
          verbs += (verbs.empty() ? "" : ", ") + std::string(verb_name(command.verb));
        }
      }
      for (const std::string_view line : lines_of(spec.help)) {
        help += (help.empty() ? "" : " ") + std::string(line);
      }
      out += "| `" + escaped(option_with_value(spec)) + "` | " + verbs + " | " +
             escaped(spec.default_text) + " | " + escaped(help) + " |\n";
    }
  }
  out += "\n| exit status | when |\n| ---: | --- |\n";
  for (const ExitStatusSpec& exit : exit_statuses()) {
    out += "| " + std::to_string(exit.status) + " | " + std::string(exit.meaning) + " |\n";
  }
  return out;
}

}  // namespace materialist::cli
