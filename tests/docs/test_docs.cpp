// The documentation stays true where it names files: docs/ARCHITECTURE.md's paths of src/ exist,
// every folder of src/ that holds files has its row, and it lists the files that include
// Emscripten headers; every relative link of README.md and docs/*.md leads to a file.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <vector>

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

TEST_CASE("docs/ARCHITECTURE.md names every file of src/ that includes an Emscripten header") {
  const fs::path root = repository();
  const std::string text = testing::read_fixture("../../docs/ARCHITECTURE.md");
  const std::size_t seams = text.find("Only these files include Emscripten");
  REQUIRE(seams != std::string::npos);
  const std::string paragraph = text.substr(seams, text.find("\n\n", seams) - seams);
  int found = 0;
  for (const auto& entry : fs::recursive_directory_iterator(root / "src")) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path());
    const std::string source((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
    const std::string path = fs::relative(entry.path(), root).generic_string();
    INFO(path);
    CHECK(source.find("#ifdef __EMSCRIPTEN__") == std::string::npos);
    if (source.find("#include <emscripten/") == std::string::npos) continue;
    CHECK(paragraph.find("`" + path + "`") != std::string::npos);
    ++found;
  }
  CHECK(found >= 4);
}

TEST_CASE("docs: every relative link of README.md and docs/*.md leads to a file") {
  const fs::path root = repository();
  std::vector<fs::path> pages{root / "README.md"};
  for (const auto& entry : fs::directory_iterator(root / "docs")) {
    if (entry.path().extension() == ".md") pages.push_back(entry.path());
  }
  REQUIRE(pages.size() > 5);
  const std::regex link_pattern(R"(\]\(([^)#:]+)(#[^)]*)?\))");  // [text](path) or (path#anchor)
  int links = 0;
  for (const fs::path& page : pages) {
    std::ifstream in(page);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (auto it = std::sregex_iterator(text.begin(), text.end(), link_pattern);
         it != std::sregex_iterator(); ++it) {
      const fs::path target = page.parent_path() / (*it)[1].str();
      INFO(page.filename().string() << " -> " << (*it)[1].str());
      CHECK(fs::exists(target));
      ++links;
    }
  }
  CHECK(links > 20);
}

}  // namespace materialist
