# The archive libraries src/archive decodes with: materialist::zstd, materialist::zlib,
# materialist::bzip2 (included by the top-level CMakeLists.txt before the core).
#   Native:      Debian's libzstd-dev, zlib1g-dev, libbz2-dev (emsdk-setup.sh installs them).
#   WebAssembly: the same Debian source packages, unpacked by emsdk-setup.sh in third_party/
#                (zstd, zlib, bzip2): the decompressors' C sources become static libraries here.
#                Emscripten's own ports (-sUSE_ZLIB, -sUSE_BZIP2) download from the internet.
if(NOT EMSCRIPTEN)
  find_path(MATERIALIST_ZSTD_INCLUDE zstd.h)
  find_library(MATERIALIST_ZSTD_LIBRARY zstd)
  find_package(ZLIB)
  find_package(BZip2)
  if(NOT MATERIALIST_ZSTD_INCLUDE OR NOT MATERIALIST_ZSTD_LIBRARY OR NOT ZLIB_FOUND OR NOT BZIP2_FOUND)
    message(FATAL_ERROR "libzstd, zlib or libbz2 (headers and library) not found: run ./emsdk-setup.sh "
      "(Debian: apt-get install libzstd-dev zlib1g-dev libbz2-dev)")
  endif()
  add_library(materialist_zstd INTERFACE)
  target_include_directories(materialist_zstd INTERFACE "${MATERIALIST_ZSTD_INCLUDE}")
  target_link_libraries(materialist_zstd INTERFACE "${MATERIALIST_ZSTD_LIBRARY}")
  add_library(materialist::zstd ALIAS materialist_zstd)
  add_library(materialist::zlib ALIAS ZLIB::ZLIB)
  add_library(materialist::bzip2 ALIAS BZip2::BZip2)
  return()
endif()

set(ZSTD_SOURCE_DIR "${MATERIALIST_THIRD_PARTY}/zstd")
set(ZLIB_SOURCE_DIR "${MATERIALIST_THIRD_PARTY}/zlib")
set(BZIP2_SOURCE_DIR "${MATERIALIST_THIRD_PARTY}/bzip2")
foreach(required "${ZSTD_SOURCE_DIR}/lib/zstd.h" "${ZLIB_SOURCE_DIR}/zlib.h" "${BZIP2_SOURCE_DIR}/bzlib.h")
  if(NOT EXISTS "${required}")
    message(FATAL_ERROR "${required} is missing: run ./emsdk-setup.sh (it unpacks Debian's zstd, "
      "zlib and bzip2 sources in ${MATERIALIST_THIRD_PARTY})")
  endif()
endforeach()

# zstd: the decompressor only (no legacy formats, no assembly, single-threaded).
add_library(materialist_zstd STATIC
  "${ZSTD_SOURCE_DIR}/lib/common/debug.c" "${ZSTD_SOURCE_DIR}/lib/common/entropy_common.c"
  "${ZSTD_SOURCE_DIR}/lib/common/error_private.c" "${ZSTD_SOURCE_DIR}/lib/common/fse_decompress.c"
  "${ZSTD_SOURCE_DIR}/lib/common/xxhash.c" "${ZSTD_SOURCE_DIR}/lib/common/zstd_common.c"
  "${ZSTD_SOURCE_DIR}/lib/decompress/huf_decompress.c" "${ZSTD_SOURCE_DIR}/lib/decompress/zstd_ddict.c"
  "${ZSTD_SOURCE_DIR}/lib/decompress/zstd_decompress.c"
  "${ZSTD_SOURCE_DIR}/lib/decompress/zstd_decompress_block.c")
target_include_directories(materialist_zstd SYSTEM PUBLIC "${ZSTD_SOURCE_DIR}/lib")
target_compile_definitions(materialist_zstd PRIVATE ZSTD_DISABLE_ASM=1 ZSTD_LEGACY_SUPPORT=0)
add_library(materialist::zstd ALIAS materialist_zstd)

# zlib: inflate (and crc32, which zip entries are checked with).
add_library(materialist_zlib STATIC
  "${ZLIB_SOURCE_DIR}/adler32.c" "${ZLIB_SOURCE_DIR}/crc32.c" "${ZLIB_SOURCE_DIR}/inffast.c"
  "${ZLIB_SOURCE_DIR}/inflate.c" "${ZLIB_SOURCE_DIR}/inftrees.c" "${ZLIB_SOURCE_DIR}/zutil.c")
target_include_directories(materialist_zlib SYSTEM PUBLIC "${ZLIB_SOURCE_DIR}")
add_library(materialist::zlib ALIAS materialist_zlib)

# bzip2: libbz2 (bzlib.c refers to the compressor too).
add_library(materialist_bzip2 STATIC
  "${BZIP2_SOURCE_DIR}/blocksort.c" "${BZIP2_SOURCE_DIR}/bzlib.c" "${BZIP2_SOURCE_DIR}/compress.c"
  "${BZIP2_SOURCE_DIR}/crctable.c" "${BZIP2_SOURCE_DIR}/decompress.c" "${BZIP2_SOURCE_DIR}/huffman.c"
  "${BZIP2_SOURCE_DIR}/randtable.c")
target_include_directories(materialist_bzip2 SYSTEM PUBLIC "${BZIP2_SOURCE_DIR}")
add_library(materialist::bzip2 ALIAS materialist_bzip2)

foreach(lib materialist_zstd materialist_zlib materialist_bzip2)
  target_compile_options(${lib} PRIVATE -w)
endforeach()
