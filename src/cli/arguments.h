// One grammar for every command's arguments, read by the option table (cli/option_table.h):
//
//   materialist COMMAND [--option VALUE | --option=VALUE | -j8 | --switch]... [--] OPERAND...
//
// Options and operands may come in any order; "--" ends the options; "-" is an operand (stdin).
// Every value is checked by its declaration, so the same bad value gets the same message from
// every command: "--jobs expects a whole number from 1 to 1024, got '0'".
//
//   auto parsed = parse_arguments(Verb::kFit, {"-j", "2", "games.pgn"});
//   parsed->integer(Opt::kJobs, 0) == 2;   parsed->operands == {"games.pgn"}
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/option_table.h"
#include "core/error.h"

namespace materialist::cli {

// A command's arguments once every value has passed its option's rule.
struct Arguments {
  Verb verb = Verb::kFit;
  bool help = false;  // --help or -h was given: print the command's help, nothing else
  std::vector<std::string> operands;
  std::vector<std::pair<Opt, std::string>> given;  // in the order given; a switch's value is ""

  bool has(Opt id) const;
  // The option's value (a repeatable option's last); nullopt when not given.
  std::optional<std::string> text(Opt id) const;
  std::string text_or(Opt id, std::string fallback) const;
  std::vector<std::string> all(Opt id) const;  // every value of a repeatable option, in order
  std::int64_t integer(Opt id, std::int64_t fallback) const;
  double number(Opt id, double fallback) const;
};

// `args` are the words after the command's name.
[[nodiscard]] Expected<Arguments> parse_arguments(Verb verb, std::span<const std::string> args);

// "--jobs" or "-j/--jobs" for messages and help.
std::string option_label(const OptionSpec& spec);

// The command's name and the hint that ends a bad-options message: "see materialist fit --help".
std::string help_hint(Verb verb);

}  // namespace materialist::cli
