// Live values by square (Engine::fit_squares_live): nothing while too few positions are read, a
// preview marked live once there are, and the same preview from a coordinator that holds only a
// reader's live sample.
#include <string>
#include <vector>

#include "core/json_value.h"
#include "engine_test_util.h"

namespace materialist::worker {

using test::fixture;

namespace {

ReadOptions with_boards() {
  ReadOptions options;
  options.keep.boards = true;
  return options;
}

void feed(Engine& engine, const std::string& bytes, std::size_t from, std::size_t to) {
  for (std::size_t at = from; at < to; at += 65521) {
    engine.feed(bytes.data() + at, std::min<std::size_t>(65521, to - at));
  }
}

}  // namespace

TEST_CASE("engine: values by square live while a read goes on, from its readers' samples too") {
  const std::string pgn = fixture("OpenRating.pgn");
  Engine reader;
  REQUIRE(!reader.begin_read(with_boards()));
  reader.begin_file("OpenRating.pgn", static_cast<double>(pgn.size()));
  feed(reader, pgn, 0, pgn.size() / 50);
  CHECK(reader.fit_squares_live({}, FitSettings{}).empty());  // too few positions yet
  feed(reader, pgn, pgn.size() / 50, pgn.size());

  const std::string own = reader.fit_squares_live({}, FitSettings{});
  auto message = parse_json(own);
  REQUIRE(message);
  CHECK(message->find("type")->as_string() == "squares");
  CHECK(message->find("live")->as_bool());
  REQUIRE(message->find("squares") != nullptr);
  CHECK(message->find("squares")->is_object());

  // A coordinator with nothing read itself: the reader's live share carries its sample.
  const Part part = reader.export_live_part(true);
  REQUIRE(part.has_squares);
  CHECK(part.squares_rows.size() > 2000);
  CHECK(part.squares_rows.size() <= Engine::kLiveSquaresRows);
  CHECK_FALSE(reader.export_live_part(false).has_squares);
  Engine coordinator;
  REQUIRE(!coordinator.begin_read(with_boards()));
  auto shared = parse_json(coordinator.fit_squares_live({part}, FitSettings{}));
  REQUIRE(shared);
  CHECK(shared->find("squares")->find("mg")->find("N")->size() == 64);
  for (const char* phase : {"mg", "eg"}) {
    for (const char* piece : {"P", "N", "K"}) {
      const JsonValue& a = *message->find("squares")->find(phase)->find(piece);
      const JsonValue& b = *shared->find("squares")->find(phase)->find(piece);
      for (std::size_t s = 0; s < 64; ++s) CHECK(a[s].as_number() == b[s].as_number());
    }
  }

  // Without boards kept, no preview.
  Engine plain;
  REQUIRE(!plain.begin_read({}));
  plain.begin_file("OpenRating.pgn", static_cast<double>(pgn.size()));
  feed(plain, pgn, 0, pgn.size());
  CHECK(plain.fit_squares_live({}, FitSettings{}).empty());
}

}  // namespace materialist::worker
