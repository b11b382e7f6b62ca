// An enum's names in one constexpr table indexed by the enum's value, both ways.
//
//   enum class SolverKind : std::uint8_t { kGradientDescent, kNewton };
//   inline constexpr int kSolverKindCount = 2;
//   inline constexpr std::array kSolverNames = {"gd", "newton"};
//   static_assert(kSolverNames.size() == kSolverKindCount);   // a name for every value
//
//   name_of(kSolverNames, SolverKind::kNewton)           // "newton"
//   value_named<SolverKind>(kSolverNames, "gd")           // SolverKind::kGradientDescent
//   listed(kSolverNames)                                  // "gd, newton"
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace materialist {

// The value's name, "unknown" for a value outside the table.
template <std::size_t N, typename Enum>
constexpr const char* name_of(const std::array<const char*, N>& names, Enum value) {
  const auto index = static_cast<std::size_t>(value);
  return index < N ? names[index] : "unknown";
}

// The value whose name is `name` exactly; nullopt for any other text.
template <typename Enum, std::size_t N>
constexpr std::optional<Enum> value_named(const std::array<const char*, N>& names,
                                          std::string_view name) {
  for (std::size_t i = 0; i < N; ++i) {
    if (name == names[i]) return static_cast<Enum>(i);
  }
  return std::nullopt;
}

// "a, b, c": the names for messages that list the choices.
template <std::size_t N>
std::string listed(const std::array<const char*, N>& names) {
  std::string text;
  for (const char* name : names) text += (text.empty() ? "" : ", ") + std::string(name);
  return text;
}

}  // namespace materialist
