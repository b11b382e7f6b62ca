// read_files with -j: one thread reads each input and decodes it (archive::Decoder), cuts the
// decoded text at game starts (pgn::GameChunker) and queues the chunks; `jobs` threads parse
// them (learn::PartReader); the calling thread merges their parts into the split in file order
// (learn::FilePartsMerger), so the split is the sequential read's. Each parse thread keeps its
// game pairs in its own learn::PartScratch, added to the split once the read ends, or passed on
// with a chunk once a dataset's table holds more than chunk_bytes / 16 pairs, at most 16 384
// (checked after each chunk, a table of about 10 × 256 KiB: the rating-offset model's pairs are
// many). Memory stays bounded: the chunks in flight (queued, being parsed, or parsed and waiting
// for their turn) are at most 2 × jobs + 2, holding about (2 × jobs + 1) × chunk_bytes (one at
// least, whatever its size). Every thread is joined before returning, on every path.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

#include "cli/input.h"
#include "cli/read_files.h"
#include "cli/read_progress.h"
#include "learn/read/archive_reader.h"
#include "learn/read/dataset_part.h"
#include "learn/read/part_merger.h"
#include "pgn/game_chunker.h"

namespace materialist::cli {

namespace {

constexpr auto kProgressTick = std::chrono::milliseconds(100);
// The pairs a thread keeps per dataset before passing them on, whatever the chunks' size.
constexpr std::size_t kMaxKeptPairs = 16384;

// The games of one file chunk by chunk, as the parse threads count them: a chunk's bootstrap
// game ids need the games of every chunk before it.
struct GameChain {
  std::vector<std::optional<std::uint64_t>> games;  // per chunk, once parsed
  std::vector<std::uint64_t> offsets{0};            // games before chunk k, for k < size()
  // The merger reads the rest of the file itself (FilePartsMerger::continuing): the chunks not
  // parsed yet need no parse.
  bool continuing = false;

  void publish(std::size_t chunk, std::uint64_t count) {
    games[chunk] = count;
    while (offsets.size() <= games.size() && games[offsets.size() - 1]) {
      offsets.push_back(offsets.back() + *games[offsets.size() - 1]);
    }
  }
};

// What the merging thread takes, in order.
enum class ItemKind : std::uint8_t { kBeginInput, kBeginFile, kChunk, kEndFile, kEndInput, kDone };

struct Item {
  ItemKind kind = ItemKind::kDone;
  std::string name;            // kBeginInput: the input's; kBeginFile: the file's
  std::uint64_t bytes = 0;     // kBeginInput: its size (0: unknown); kEndInput: bytes read
  std::size_t file_index = 0;  // kBeginFile
  bool parsed_apart = false;   // kBeginFile, kChunk: PGN, parsed by the threads
  pgn::GameChunk chunk;        // kChunk
  std::shared_ptr<const std::vector<learn::PartTarget>> targets;
  std::shared_ptr<GameChain> chain;
  std::size_t chunk_number = 0;  // in its file
  bool ready = true;             // kChunk: parsed (or not to be)
  bool pairs_kept = false;       // kChunk: parsed, its game pairs kept in its thread's scratch
  learn::PartScratch passed_on;  // kChunk: its thread's tables that grew past the limit
  std::optional<std::vector<learn::DatasetPart>> parts;  // when the chunk stood alone
  InputEnd end;                                          // kEndInput
};

class Pipeline {
 public:
  Pipeline(learn::DatasetSplit& split, const ReadSettings& settings, int jobs)
      : split_(split),
        settings_(settings),
        jobs_(jobs),
        max_chunks_in_flight_(2 * static_cast<std::size_t>(jobs) + 2),
        max_bytes_in_flight_((2 * static_cast<std::uint64_t>(jobs) + 1) * settings.chunk_bytes),
        max_kept_pairs_(std::clamp<std::size_t>(settings.chunk_bytes / 16, 64, kMaxKeptPairs)) {}

  std::optional<Failure> run(const std::vector<std::string>& files);

  // ---- the reading thread ----
  // Queues an item in order; a chunk waits for room first. False when stopping.
  bool push(std::unique_ptr<Item> item);
  std::size_t begin_file() { return files_begun_++; }
  learn::DatasetSplit& split() { return split_; }
  const ReadSettings& settings() const { return settings_; }

 private:
  void read_inputs(const std::vector<std::string>& files);
  void parse_chunks(learn::PartScratch& scratch);
  void parse(Item& item, learn::PartScratch& scratch);
  // The next item in order once it is ready; draws the progress while waiting.
  std::unique_ptr<Item> next_ready(ReadProgress& progress);
  ReadCounts counts() const;
  // Bytes read of the input being merged (its compressed bytes for an archive).
  std::uint64_t input_bytes() const;
  void stop();

  learn::DatasetSplit& split_;
  const ReadSettings& settings_;
  int jobs_;
  std::size_t max_chunks_in_flight_;
  std::uint64_t max_bytes_in_flight_;
  std::size_t max_kept_pairs_;                 // per dataset and thread
  std::size_t files_begun_ = 0;                // by the reading thread
  std::vector<learn::PartScratch> scratches_;  // one per parse thread
  learn::PartScratch taken_back_;              // the kept pairs of chunks whose parts went unused

  std::mutex mutex_;
  std::condition_variable room_, work_, ready_, offsets_;
  std::deque<std::unique_ptr<Item>> ordered_;
  std::deque<Item*> to_parse_;
  std::size_t chunks_in_flight_ = 0;
  std::uint64_t bytes_in_flight_ = 0;
  bool reading_done_ = false;
  bool stopping_ = false;

  // The input being read, for the progress line.
  std::atomic<std::uint64_t> inputs_begun_{0};
  std::atomic<std::uint64_t> input_bytes_{0};
  std::uint64_t inputs_merged_ = 0;  // kBeginInput items merged
  std::uint64_t input_size_ = 0;     // of the input being merged (0: unknown)
};

// The decoder's output for one input: each entry a file, its text cut into chunks and queued.
class ChunkingSink final : public archive::Sink {
 public:
  ChunkingSink(Pipeline& pipeline, std::string name)
      : pipeline_(pipeline), name_(std::move(name)) {}

  void begin_entry(std::string_view entry) override {
    ++files_;
    open_ = true;
    const std::string file = entry.empty() ? name_ : name_ + ":" + std::string(entry);
    auto item = std::make_unique<Item>();
    item->kind = ItemKind::kBeginFile;
    item->name = file;
    item->file_index = pipeline_.begin_file();
    // .mat rows are not games: fed to the split as they come, in chunks of at most twice
    // chunk_bytes (the chunker's least cap), cut at line breaks.
    parsed_apart_ = learn::file_kind_of(file) == learn::FileKind::kPgn;
    item->parsed_apart = parsed_apart_;
    const std::size_t target = pipeline_.settings().chunk_bytes;
    // The chunks' parsers count their lines (the merge adds them up): the chunker only cuts.
    chunker_ = pgn::GameChunker(
        {.target_bytes = target, .max_bytes = parsed_apart_ ? std::size_t{4} << 20 : 0});
    targets_ = std::make_shared<const std::vector<learn::PartTarget>>(
        pipeline_.split().part_targets(item->file_index));
    chain_ = std::make_shared<GameChain>();
    chunks_ = 0;
    pipeline_.push(std::move(item));
  }
  void data(const char* bytes, std::size_t size) override {
    // An eighth of a chunk at a time: a cut then moves only the bytes after it to the next
    // chunk, at most about an eighth of one, not the rest of a large read (with 256 KiB chunks, a
    // 1 MiB read cut four times was copied 2.5 times over; a chunk's worth at a time, 1.5 times).
    const std::size_t step = std::max<std::size_t>(pipeline_.settings().chunk_bytes / 8, 1);
    for (std::size_t at = 0; at < size; at += step) {
      chunker_.feed(bytes + at, std::min(step, size - at));
      queue_chunks();
    }
  }
  void end_entry() override { close(); }
  void skipped_entry(std::string_view entry, std::string_view reason) override {
    learn::list_skipped_entry(skipped_, entry, reason);
  }
  void error(const Error& error) override { error_ = error; }

  // Ends the open file (an error inside it: the games before it are kept).
  void close() {
    if (!open_) return;
    chunker_.finish();
    queue_chunks();
    auto item = std::make_unique<Item>();
    item->kind = ItemKind::kEndFile;
    pipeline_.push(std::move(item));
    open_ = false;
  }
  std::optional<Error> problem(const archive::Decoder& decoder) const {
    return learn::archive_problem(decoder, error_, files_, skipped_);
  }

 private:
  void queue_chunks() {
    while (std::optional<pgn::GameChunk> chunk = chunker_.next()) {
      auto item = std::make_unique<Item>();
      item->kind = ItemKind::kChunk;
      item->parsed_apart = parsed_apart_;
      item->ready = !parsed_apart_;
      item->chunk = std::move(*chunk);
      item->targets = targets_;
      item->chain = chain_;
      item->chunk_number = chunks_++;
      if (!pipeline_.push(std::move(item))) return;
    }
  }

  Pipeline& pipeline_;
  std::string name_;
  pgn::GameChunker chunker_;
  bool open_ = false;
  bool parsed_apart_ = false;
  std::uint64_t files_ = 0;
  std::size_t chunks_ = 0;
  std::shared_ptr<const std::vector<learn::PartTarget>> targets_;
  std::shared_ptr<GameChain> chain_;
  std::optional<Error> error_;
  std::vector<std::string> skipped_;
};

bool Pipeline::push(std::unique_ptr<Item> item) {
  const bool chunk = item->kind == ItemKind::kChunk;
  const std::uint64_t size = chunk ? item->chunk.bytes.size() : 0;
  {
    std::unique_lock lock(mutex_);
    if (chunk) {
      room_.wait(lock, [&] {
        return stopping_ || chunks_in_flight_ == 0 ||
               (chunks_in_flight_ < max_chunks_in_flight_ &&
                bytes_in_flight_ + size <= max_bytes_in_flight_);
      });
    }
    if (stopping_) return false;
    if (chunk) {
      ++chunks_in_flight_;
      bytes_in_flight_ += size;
      if (item->parsed_apart) {
        item->chain->games.emplace_back();
        to_parse_.push_back(item.get());
      }
    }
    if (item->kind == ItemKind::kDone) reading_done_ = true;
    ordered_.push_back(std::move(item));
  }
  work_.notify_all();  // a chunk to parse, or the end of the reading
  ready_.notify_one();
  return true;
}

void Pipeline::read_inputs(const std::vector<std::string>& files) {
  for (const std::string& path : files) {
    const std::string name = path == "-" ? "(stdin)" : path;
    auto begin = std::make_unique<Item>();
    begin->kind = ItemKind::kBeginInput;
    begin->name = name;
    begin->bytes = input_size(path);
    input_bytes_ = 0;
    ++inputs_begun_;
    if (!push(std::move(begin))) break;
    ChunkingSink sink(*this, name);
    archive::Decoder decoder(sink);
    auto read = stream_file(
        path,
        [&](const char* data, std::size_t size) {
          if (settings_.on_stored_bytes) settings_.on_stored_bytes(data, size);
          return decoder.feed(data, size);
        },
        [&](const InputProgress& p) { input_bytes_ = p.bytes_read; });
    decoder.finish();
    sink.close();
    auto end = std::make_unique<Item>();
    end->kind = ItemKind::kEndInput;
    end->bytes = read ? *read : input_bytes_.load();
    if (!read) {
      end->end.read_error = read.error().message;
      end->end.read_error_code = read.error().code;
    }
    end->end.problem = sink.problem(decoder);
    const bool failed = failure_of(name, end->end).has_value();
    if (!push(std::move(end)) || failed) break;  // the sequential read stops there too
  }
  push(std::make_unique<Item>());  // kDone
}

void Pipeline::parse_chunks(learn::PartScratch& scratch) {
  for (;;) {
    Item* item = nullptr;
    {
      std::unique_lock lock(mutex_);
      work_.wait(lock, [&] { return stopping_ || !to_parse_.empty() || reading_done_; });
      if (stopping_ || to_parse_.empty()) return;
      item = to_parse_.front();
      to_parse_.pop_front();
      if (item->chain->continuing) {
        item->ready = true;
        item = nullptr;
      }
    }
    if (item) {
      parse(*item, scratch);
    } else {
      ready_.notify_one();
    }
  }
}

void Pipeline::parse(Item& item, learn::PartScratch& scratch) {
  const pgn::GameChunk& chunk = item.chunk;
  learn::PartReader reader(*item.targets, chunk.offset, &scratch);
  const bool alone = learn::read_chunk(reader, chunk);
  // Bootstrap replicates need the file's game numbers, hence the games of every chunk before this
  // one; without them the thread goes on at once (the merge shifts the parts' game numbers).
  if (reader.needs_game_offset()) {
    std::uint64_t games_before = 0;
    {
      std::unique_lock lock(mutex_);
      GameChain& chain = *item.chain;
      chain.publish(item.chunk_number, reader.games());
      offsets_.notify_all();
      // The chunks before this one were taken first, and each publishes its games right after
      // its parse: this wait ends.
      offsets_.wait(lock, [&] { return stopping_ || chain.offsets.size() > item.chunk_number; });
      if (stopping_) return;
      games_before = chain.offsets[item.chunk_number];
    }
    reader.set_game_offset(games_before);
  }
  std::vector<learn::DatasetPart> parts = reader.take_parts();
  for (std::size_t id = 0; id < scratch.pairs.size(); ++id) {
    if (scratch.pairs[id].distinct() <= max_kept_pairs_) continue;
    if (item.passed_on.pairs.size() <= id) item.passed_on.pairs.resize(id + 1);
    item.passed_on.pairs[id] = std::exchange(scratch.pairs[id], learn::GamePairs());
  }
  {
    std::lock_guard lock(mutex_);
    if (alone) item.parts = std::move(parts);
    item.pairs_kept = true;
    item.ready = true;
  }
  ready_.notify_one();
}

ReadCounts Pipeline::counts() const {
  const learn::DatasetReport live = split_.live_report();
  return {live.games.games_read, live.rows};
}

std::unique_ptr<Item> Pipeline::next_ready(ReadProgress& progress) {
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      const auto front_ready = [&] { return !ordered_.empty() && ordered_.front()->ready; };
      if (ready_.wait_for(lock, kProgressTick, front_ready)) {
        std::unique_ptr<Item> item = std::move(ordered_.front());
        ordered_.pop_front();
        if (item->kind == ItemKind::kChunk) {
          --chunks_in_flight_;
          bytes_in_flight_ -= item->chunk.bytes.size();
          room_.notify_one();
        }
        return item;
      }
    }
    if (progress.due(input_bytes())) progress.update(input_bytes(), counts());
  }
}

std::uint64_t Pipeline::input_bytes() const {
  // The reading thread may be on the next input already: this one was read whole.
  return inputs_begun_.load() == inputs_merged_ ? input_bytes_.load() : input_size_;
}

void Pipeline::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  room_.notify_all();
  work_.notify_all();
  offsets_.notify_all();
  ready_.notify_all();
}

std::optional<Failure> Pipeline::run(const std::vector<std::string>& files) {
  std::thread reading([this, &files] { read_inputs(files); });
  scratches_.resize(static_cast<std::size_t>(jobs_));
  std::vector<std::thread> parsing;
  for (learn::PartScratch& scratch : scratches_) {
    parsing.emplace_back([this, &scratch] { parse_chunks(scratch); });
  }

  std::optional<Failure> failure;
  ReadProgress progress(settings_.progress);
  std::string input;
  std::unique_ptr<learn::FilePartsMerger> merger;
  for (;;) {
    std::unique_ptr<Item> item = next_ready(progress);
    if (item->kind == ItemKind::kDone) break;
    switch (item->kind) {
      case ItemKind::kBeginInput:
        input = item->name;
        ++inputs_merged_;
        input_size_ = item->bytes;
        progress.begin_file(item->name, item->bytes);
        break;
      case ItemKind::kBeginFile:
        split_.begin_file(item->name);
        if (item->parsed_apart) {
          merger = std::make_unique<learn::FilePartsMerger>(split_, item->file_index);
        }
        break;
      case ItemKind::kChunk:
        if (merger) {
          merger->add(item->chunk, std::move(item->parts),
                      item->pairs_kept ? &taken_back_ : nullptr);
          split_.add_kept_pairs(item->passed_on);
          if (merger->continuing() && !item->chain->continuing) {
            std::lock_guard lock(mutex_);
            item->chain->continuing = true;
          }
        } else {
          split_.feed(item->chunk.bytes.data(), item->chunk.bytes.size());
        }
        if (progress.due(input_bytes())) progress.update(input_bytes(), counts());
        break;
      case ItemKind::kEndFile:
        if (merger) merger->finish();
        merger.reset();
        split_.end_file();
        break;
      case ItemKind::kEndInput:
        progress.end_file(item->bytes, counts());
        if (!failure) failure = failure_of(input, item->end);
        break;
      case ItemKind::kDone:
        break;
    }
  }
  stop();
  reading.join();
  for (std::thread& thread : parsing) thread.join();
  for (const learn::PartScratch& scratch : scratches_) split_.add_kept_pairs(scratch);
  split_.subtract_kept_pairs(taken_back_);
  return failure;
}

}  // namespace

std::optional<Failure> read_files_in_parallel(const std::vector<std::string>& files,
                                              learn::DatasetSplit& split,
                                              const ReadSettings& settings, int jobs) {
  Pipeline pipeline(split, settings, std::max(jobs, 1));
  return pipeline.run(files);
}

}  // namespace materialist::cli
