// docs/ARCHITECTURE.md stays true where it lists files: every path of src/ it names exists, and
// every folder of src/ that holds files has its row in the modules table.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <string>

#include "test_util.h"

namespace materialist {
namespace {

namespace fs = std::filesystem;

fs::path repository() {
  return fs::path(testing::fixture("")).parent_path().parent_path().parent_path();
}

}  // namespace

TEST_CASE("docs/ARCHITECTURE.md: the paths it names exist, and it names every folder of src/") {
  const fs::path root = repository();
  const std::string text = testing::read_fixture("../../docs/ARCHITECTURE.md");
  REQUIRE(text.size() > 1000);

  // `src/...` and `learn/...`-style paths in backquotes: files and folders of src/.
  const std::regex path_pattern(
      R"(`((?:src/)?(?:core|chess|archive|pgn|learn|protocol|play|cli|worker|app)/[a-z_/]+(?:\.(?:h|cpp|inc))?)`)");
  int named = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), path_pattern);
       it != std::sregex_iterator(); ++it) {
    std::string path = (*it)[1].str();
    if (path.rfind("src/", 0) != 0) path = "src/" + path;
    if (path.back() == '/') path.pop_back();
    INFO(path);
    CHECK(fs::exists(root / path));
    ++named;
  }
  CHECK(named > 50);

  for (const auto& entry : fs::recursive_directory_iterator(root / "src")) {
    if (!entry.is_directory()) continue;
    const auto files = fs::directory_iterator(entry.path());
    if (std::none_of(fs::begin(files), fs::end(files),
                     [](const fs::directory_entry& e) { return e.is_regular_file(); }))
      continue;  // a folder of folders (src/learn)
    const std::string folder = fs::relative(entry.path(), root).generic_string();
    INFO(folder);
    CHECK(text.find("| `" + folder + "` |") != std::string::npos);
  }
}

}  // namespace materialist
