// Chess value types: Color, PieceType, Piece, Square, Bitboard and the 16-bit Move.
// Everything here is constexpr and header-only so the hot paths inline.
#pragma once

#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace materialist::chess {

enum class Color : std::uint8_t { kWhite, kBlack };
enum class PieceType : std::uint8_t { kPawn, kKnight, kBishop, kRook, kQueen, kKing };

inline constexpr int kColorCount = 2;
inline constexpr int kPieceTypeCount = 6;

constexpr Color operator~(Color color) {
  return Color(static_cast<std::uint8_t>(color) ^ 1);
}

// The rank (0-7) of a side's pieces at the start.
constexpr int back_rank(Color color) {
  return color == Color::kWhite ? 0 : 7;
}
constexpr int index_of(Color color) {
  return static_cast<int>(color);
}
constexpr int index_of(PieceType type) {
  return static_cast<int>(type);
}

// Upper-case SAN/FEN letter of a piece type ('P', 'N', 'B', 'R', 'Q', 'K').
constexpr char piece_letter(PieceType type) {
  return "PNBRQK"[index_of(type)];
}

// Reads an upper- or lower-case piece letter; nullopt for anything else.
constexpr std::optional<PieceType> piece_type_from_letter(char letter) {
  switch (letter | 0x20) {
    case 'p':
      return PieceType::kPawn;
    case 'n':
      return PieceType::kKnight;
    case 'b':
      return PieceType::kBishop;
    case 'r':
      return PieceType::kRook;
    case 'q':
      return PieceType::kQueen;
    case 'k':
      return PieceType::kKing;
    default:
      return std::nullopt;
  }
}

// A colored piece, or none. Encoded as type + 8 * color (so both read back with a shift or a
// mask); 6 means "no piece".
class Piece {
 public:
  constexpr Piece() = default;
  constexpr Piece(Color color, PieceType type)
      : code_(static_cast<std::uint8_t>(index_of(type) | index_of(color) << 3)) {}
  static constexpr Piece none() { return Piece(); }

  constexpr bool is_none() const { return code_ == kNoneCode; }
  constexpr Color color() const { return Color(code_ >> 3); }
  constexpr PieceType type() const { return PieceType(code_ & 7); }
  // 0..15, for tables indexed by piece: type + 8 * color.
  constexpr int code() const { return code_; }
  // FEN letter: upper case for white, lower case for black; '.' for none.
  constexpr char fen_letter() const {
    if (is_none()) return '.';
    const char letter = piece_letter(type());
    return color() == Color::kWhite ? letter : static_cast<char>(letter | 0x20);
  }
  static constexpr std::optional<Piece> from_fen_letter(char letter) {
    const auto type = piece_type_from_letter(letter);
    if (!type) return std::nullopt;
    return Piece(letter >= 'a' ? Color::kBlack : Color::kWhite, *type);
  }

  constexpr bool operator==(const Piece&) const = default;

 private:
  static constexpr std::uint8_t kNoneCode = 6;
  std::uint8_t code_ = kNoneCode;
};

// A board square 0..63 (a1 = 0, b1 = 1, ..., h8 = 63), or none (64).
class Square {
 public:
  constexpr Square() = default;
  constexpr explicit Square(int index) : index_(static_cast<std::uint8_t>(index)) {}
  static constexpr Square at(int file, int rank) { return Square(rank * 8 + file); }
  static constexpr Square none() { return Square(); }
  // Parses "e4"; nullopt unless it is exactly a file letter a-h and a rank digit 1-8.
  static constexpr std::optional<Square> from_string(std::string_view text) {
    if (text.size() != 2 || text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8') {
      return std::nullopt;
    }
    return at(text[0] - 'a', text[1] - '1');
  }

  constexpr int index() const { return index_; }
  constexpr int file() const { return index_ & 7; }
  constexpr int rank() const { return index_ >> 3; }
  constexpr bool is_none() const { return index_ >= 64; }
  // The same square seen from the other side (a1 <-> a8).
  constexpr Square flipped() const { return Square(index_ ^ 56); }
  std::string name() const {
    if (is_none()) return "-";
    return {static_cast<char>('a' + file()), static_cast<char>('1' + rank())};
  }

  constexpr bool operator==(const Square&) const = default;

 private:
  std::uint8_t index_ = 64;
};

// A set of squares, bit i = Square(i).
class Bitboard {
 public:
  constexpr Bitboard() = default;
  constexpr explicit Bitboard(std::uint64_t bits) : bits_(bits) {}
  constexpr Bitboard(Square square) : bits_(std::uint64_t{1} << square.index()) {}
  static constexpr Bitboard all() { return Bitboard(~std::uint64_t{0}); }
  static constexpr Bitboard file(int file) { return Bitboard(0x0101010101010101ULL << file); }
  static constexpr Bitboard rank(int rank) { return Bitboard(0xFFULL << (8 * rank)); }

  constexpr std::uint64_t bits() const { return bits_; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr bool any() const { return bits_ != 0; }
  constexpr explicit operator bool() const { return bits_ != 0; }
  constexpr bool contains(Square square) const { return (bits_ >> square.index()) & 1; }
  constexpr int popcount() const { return std::popcount(bits_); }
  constexpr bool more_than_one() const { return (bits_ & (bits_ - 1)) != 0; }
  // Lowest / highest square; the set must not be empty.
  constexpr Square lsb() const { return Square(std::countr_zero(bits_)); }
  constexpr Square msb() const { return Square(63 - std::countl_zero(bits_)); }
  // Removes and returns the lowest square; the set must not be empty.
  constexpr Square pop_lsb() {
    const Square square = lsb();
    bits_ &= bits_ - 1;
    return square;
  }

  constexpr Bitboard operator&(Bitboard o) const { return Bitboard(bits_ & o.bits_); }
  constexpr Bitboard operator|(Bitboard o) const { return Bitboard(bits_ | o.bits_); }
  constexpr Bitboard operator^(Bitboard o) const { return Bitboard(bits_ ^ o.bits_); }
  constexpr Bitboard operator~() const { return Bitboard(~bits_); }
  constexpr Bitboard operator<<(int n) const { return Bitboard(bits_ << n); }
  constexpr Bitboard operator>>(int n) const { return Bitboard(bits_ >> n); }
  constexpr Bitboard& operator&=(Bitboard o) { return bits_ &= o.bits_, *this; }
  constexpr Bitboard& operator|=(Bitboard o) { return bits_ |= o.bits_, *this; }
  constexpr Bitboard& operator^=(Bitboard o) { return bits_ ^= o.bits_, *this; }
  constexpr bool operator==(const Bitboard&) const = default;

  // Iterates squares from a1 towards h8: `for (Square s : bitboard)`.
  class Iterator {
   public:
    constexpr explicit Iterator(std::uint64_t bits) : bits_(bits) {}
    constexpr Square operator*() const { return Square(std::countr_zero(bits_)); }
    constexpr Iterator& operator++() { return bits_ &= bits_ - 1, *this; }
    constexpr bool operator!=(const Iterator& o) const { return bits_ != o.bits_; }

   private:
    std::uint64_t bits_;
  };
  constexpr Iterator begin() const { return Iterator(bits_); }
  constexpr Iterator end() const { return Iterator(0); }

 private:
  std::uint64_t bits_ = 0;
};

// The squares of each colour: a1 is dark, b1 and a2 light.
inline constexpr Bitboard kLightSquares(0x55AA55AA55AA55AAULL);
inline constexpr Bitboard kDarkSquares(0xAA55AA55AA55AA55ULL);

// Move layout (16 bits), as in Stockfish:
//   bits  0-5   from square
//   bits  6-11  to square
//   bits 12-13  promotion piece: 0 knight, 1 bishop, 2 rook, 3 queen (only for kPromotion)
//   bits 14-15  kind: 0 normal, 1 promotion, 2 en passant, 3 castling
// Castling is encoded as "king takes own rook" (to = the rook's square), which covers Chess960.
// Move() (raw 0, a1a1) means "no move"; Move::null() (raw 65, b1b1) is the null move "--".
class Move {
 public:
  enum class Kind : std::uint8_t { kNormal, kPromotion, kEnPassant, kCastling };

  constexpr Move() = default;
  constexpr Move(Square from, Square to, Kind kind = Kind::kNormal)
      : raw_(static_cast<std::uint16_t>(from.index() | (to.index() << 6) |
                                        (static_cast<int>(kind) << 14))) {}
  static constexpr Move promotion(Square from, Square to, PieceType promoted) {
    Move move(from, to, Kind::kPromotion);
    move.raw_ |= static_cast<std::uint16_t>((index_of(promoted) - 1) << 12);
    return move;
  }
  static constexpr Move castling(Square king, Square rook) {
    return Move(king, rook, Kind::kCastling);
  }
  static constexpr Move null() { return from_raw(65); }
  static constexpr Move from_raw(std::uint16_t raw) {
    Move move;
    move.raw_ = raw;
    return move;
  }

  constexpr Square from() const { return Square(raw_ & 63); }
  constexpr Square to() const { return Square((raw_ >> 6) & 63); }
  constexpr Kind kind() const { return Kind(raw_ >> 14); }
  constexpr bool is_promotion() const { return kind() == Kind::kPromotion; }
  constexpr bool is_en_passant() const { return kind() == Kind::kEnPassant; }
  constexpr bool is_castling() const { return kind() == Kind::kCastling; }
  // Only meaningful for promotions.
  constexpr PieceType promoted_to() const { return PieceType(((raw_ >> 12) & 3) + 1); }
  constexpr bool is_none() const { return raw_ == 0; }
  constexpr bool is_null() const { return raw_ == 65; }
  constexpr std::uint16_t raw() const { return raw_; }

  // Coordinates such as "e2e4", "e7e8q"; castling as king-takes-rook ("e1h1"); "0000" for null.
  std::string uci() const {
    if (is_null() || is_none()) return "0000";
    std::string text = from().name() + to().name();
    if (is_promotion()) text += static_cast<char>(piece_letter(promoted_to()) | 0x20);
    return text;
  }

  constexpr bool operator==(const Move&) const = default;

 private:
  std::uint16_t raw_ = 0;
};

}  // namespace materialist::chess
