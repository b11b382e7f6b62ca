#include "cli/arguments.h"

#include <algorithm>

#include "cli/argument_error.h"
#include "cli/option_values.h"
#include "core/text.h"

namespace materialist::cli {

namespace {

// "match and selfplay": the commands that take an option, for the message that it is not this
// command's.
std::string verbs_taking(const OptionSpec& spec) {
  std::vector<std::string> names;
  for (const CommandSpec& command : command_specs()) {
    if (spec.verbs.has(command.verb)) names.emplace_back(verb_name(command.verb));
  }
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    text += i == 0 ? "" : i + 1 == names.size() ? " and " : ", ";
    text += names[i];
  }
  return text;
}

std::optional<Error> check_integer(const OptionSpec& spec, std::string_view value) {
  if (parse_integer(value, spec.minimum, spec.maximum)) return std::nullopt;
  const std::string range =
      spec.maximum == INT64_MAX
          ? "of at least " + std::to_string(spec.minimum)
          : "from " + std::to_string(spec.minimum) + " to " + std::to_string(spec.maximum);
  return bad_argument(std::string(spec.name) + " expects a whole number " + range + ", got " +
                      quoted(value));
}

std::optional<Error> check_number(const OptionSpec& spec, std::string_view value) {
  const std::optional<double> number = parse_real(value);
  const bool fits = number && (spec.number_rule == NumberRule::kAny ||
                               (spec.number_rule == NumberRule::kNonNegative && *number >= 0) ||
                               (spec.number_rule == NumberRule::kPositive && *number > 0));
  if (fits) return std::nullopt;
  const char* what = spec.number_rule == NumberRule::kNonNegative ? "a number of at least 0"
                     : spec.number_rule == NumberRule::kPositive  ? "a number above 0"
                                                                  : "a number";
  return bad_argument(std::string(spec.name) + " expects " + what + ", got " + quoted(value));
}

std::optional<Error> check_choice(const OptionSpec& spec, std::string_view value) {
  if (std::find(spec.choices.begin(), spec.choices.end(), value) != spec.choices.end()) {
    return std::nullopt;
  }
  std::string names;
  for (const char* name : spec.choices) names += (names.empty() ? "" : ", ") + std::string(name);
  return bad_argument(std::string(spec.name) + " expects one of " + names + ", got " +
                      quoted(value));
}

// The value against its option's declaration.
std::optional<Error> check_value(const OptionSpec& spec, std::string_view value) {
  switch (spec.kind) {
    case ValueKind::kSwitch:
      return std::nullopt;
    case ValueKind::kInteger:
      return check_integer(spec, value);
    case ValueKind::kNumber:
      return check_number(spec, value);
    case ValueKind::kChoice:
      return check_choice(spec, value);
    case ValueKind::kText:
      break;
  }
  if (spec.check != nullptr) {
    if (const auto reason = spec.check(value))
      return bad_argument(std::string(spec.name) + ": " + *reason);
    return std::nullopt;
  }
  if (value.empty()) {
    return bad_argument(std::string(spec.name) + " needs a value (" + std::string(spec.value_name) +
                        ")");
  }
  return std::nullopt;
}

bool is_help(std::string_view arg) {
  return arg == "--help" || arg == "-h";
}

bool looks_like_option(std::string_view arg) {
  return arg.size() > 1 && arg[0] == '-';
}

// One word of options (and perhaps its value, the next word) into `parsed`; `at` moves past it.
class OptionReader {
 public:
  OptionReader(Verb verb, std::span<const std::string> args) : verb_(verb), args_(args) {}

  std::optional<Error> read(std::size_t& at, Arguments& parsed) const {
    const std::string& word = args_[at];
    std::string_view name = word;
    std::optional<std::string_view> inline_value;
    if (word.rfind("--", 0) == 0) {
      if (const std::size_t equals = word.find('='); equals != std::string::npos) {
        name = std::string_view(word).substr(0, equals);
        inline_value = std::string_view(word).substr(equals + 1);
      }
    } else if (word.size() > 2) {  // -j8, -oFILE
      name = std::string_view(word).substr(0, 2);
      inline_value = std::string_view(word).substr(2);
    }
    const OptionSpec* spec = find_option(name);
    if (spec == nullptr) {
      return bad_argument("unknown option " + quoted(word) + " (" + help_hint(verb_) + ")");
    }
    if (!spec->verbs.has(verb_)) {
      return bad_argument(std::string(spec->name) + " is not an option of " + verb_name(verb_) +
                          " (" + verbs_taking(*spec) + " take it; " + help_hint(verb_) + ")");
    }
    if (!spec->repeatable && parsed.has(spec->id)) {
      return bad_argument(std::string(spec->name) + " is given twice");
    }
    std::string value;
    if (spec->kind == ValueKind::kSwitch) {
      if (inline_value) return bad_argument(std::string(spec->name) + " takes no value");
    } else if (inline_value) {
      value = *inline_value;
    } else if (at + 1 < args_.size() && !is_option_word(args_[at + 1])) {
      value = args_[++at];
    } else {
      return bad_argument(std::string(spec->name) + " needs a value (" +
                          std::string(spec->value_name) + ")");
    }
    if (auto error = check_value(*spec, value)) return error;
    parsed.given.emplace_back(spec->id, std::move(value));
    return std::nullopt;
  }

 private:
  // A word that names an option is never taken as the previous option's value.
  static bool is_option_word(std::string_view word) {
    if (!looks_like_option(word)) return false;
    const std::size_t equals = word.find('=');
    const std::string_view name = word.substr(0, equals);
    return find_option(name) != nullptr || is_help(name) || word == "--";
  }

  Verb verb_;
  std::span<const std::string> args_;
};

}  // namespace

bool Arguments::has(Opt id) const {
  return std::any_of(given.begin(), given.end(),
                     [&](const auto& entry) { return entry.first == id; });
}

std::optional<std::string> Arguments::text(Opt id) const {
  for (auto it = given.rbegin(); it != given.rend(); ++it) {
    if (it->first == id) return it->second;
  }
  return std::nullopt;
}

std::string Arguments::text_or(Opt id, std::string fallback) const {
  auto value = text(id);
  return value ? std::move(*value) : std::move(fallback);
}

std::vector<std::string> Arguments::all(Opt id) const {
  std::vector<std::string> values;
  for (const auto& [option, value] : given) {
    if (option == id) values.push_back(value);
  }
  return values;
}

std::int64_t Arguments::integer(Opt id, std::int64_t fallback) const {
  const auto value = text(id);
  if (!value) return fallback;
  return parse_integer(*value).value_or(fallback);  // checked while parsing
}

double Arguments::number(Opt id, double fallback) const {
  const auto value = text(id);
  if (!value) return fallback;
  return parse_real(*value).value_or(fallback);  // checked while parsing
}

Expected<Arguments> parse_arguments(Verb verb, std::span<const std::string> args) {
  Arguments parsed;
  parsed.verb = verb;
  const OptionReader reader(verb, args);
  std::optional<Error> first_error;
  bool options_ended = false;
  for (std::size_t at = 0; at < args.size(); ++at) {
    const std::string& word = args[at];
    if (!options_ended && is_help(word)) {
      parsed.help = true;
      return parsed;  // help wins over any mistake in the other words
    }
    if (first_error) continue;  // only a later --help is still looked for
    if (options_ended || !looks_like_option(word)) {
      parsed.operands.push_back(word);
    } else if (word == "--") {
      options_ended = true;
    } else {
      first_error = reader.read(at, parsed);
    }
  }
  if (first_error) return *first_error;
  if (spec_of(verb).operands.empty() && !parsed.operands.empty()) {
    return bad_argument(std::string(verb_name(verb)) + " takes no operands, got " +
                        quoted(parsed.operands.front()) + " (" + help_hint(verb) + ")");
  }
  return parsed;
}

std::string option_label(const OptionSpec& spec) {
  if (spec.alias.empty()) return std::string(spec.name);
  return std::string(spec.alias) + ", " + std::string(spec.name);
}

std::string help_hint(Verb verb) {
  return std::string("see materialist ") + verb_name(verb) + " --help";
}

}  // namespace materialist::cli
