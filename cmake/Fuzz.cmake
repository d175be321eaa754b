# SPDX-License-Identifier: MIT
# cmake/Fuzz.cmake — FABRICLINT_FUZZ=ON: the whole build is instrumented
# for libFuzzer (-fsanitize=fuzzer-no-link) with AddressSanitizer and
# UndefinedBehaviorSanitizer, and tests/fuzz/ builds one libFuzzer
# executable per harness (docs/testing.md, "Fuzzing"). Use a build folder
# of its own:
#   CC=clang cmake -S . -B build-fuzz -DFABRICLINT_FUZZ=ON
#
# The sanitizer runtime is the shared one (-shared-libasan): the library and
# the plugins are linked with -Wl,-z,defs, which the static runtime (linked
# into executables only) cannot satisfy.
option(FABRICLINT_FUZZ
       "Build the libFuzzer harnesses of tests/fuzz (needs clang; use a separate build folder)"
       OFF)
if(FABRICLINT_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR
      "FABRICLINT_FUZZ=ON needs clang (libFuzzer), not ${CMAKE_C_COMPILER_ID}: "
      "configure a separate build folder with "
      "`CC=clang cmake -S . -B build-fuzz -DFABRICLINT_FUZZ=ON` "
      "(Debian 12: apt-get install clang libclang-rt-14-dev)")
  endif()
  execute_process(
    COMMAND ${CMAKE_C_COMPILER} -print-file-name=libclang_rt.asan-x86_64.so
    OUTPUT_VARIABLE FL_ASAN_RT OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(
    COMMAND ${CMAKE_C_COMPILER} -print-file-name=libclang_rt.fuzzer-x86_64.a
    OUTPUT_VARIABLE FL_FUZZER_RT OUTPUT_STRIP_TRAILING_WHITESPACE)
  include(CheckCSourceCompiles)
  set(CMAKE_REQUIRED_FLAGS "-fsanitize=fuzzer")
  check_c_source_compiles(
    "#include <stddef.h>
     #include <stdint.h>
     int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }"
    FL_HAVE_LIBFUZZER)
  unset(CMAKE_REQUIRED_FLAGS)
  if(NOT FL_HAVE_LIBFUZZER OR NOT IS_ABSOLUTE "${FL_ASAN_RT}"
     OR NOT IS_ABSOLUTE "${FL_FUZZER_RT}")
    message(FATAL_ERROR
      "FABRICLINT_FUZZ=ON: ${CMAKE_C_COMPILER} cannot link -fsanitize=fuzzer "
      "or has no shared AddressSanitizer runtime "
      "(Debian 12: apt-get install libclang-rt-14-dev)")
  endif()
  get_filename_component(FL_ASAN_RT_DIR ${FL_ASAN_RT} DIRECTORY)
  set(FL_SANITIZE -fsanitize=address,undefined -fno-sanitize-recover=undefined
      -fno-omit-frame-pointer)
  add_compile_options(-fsanitize=fuzzer-no-link ${FL_SANITIZE})
  add_link_options(${FL_SANITIZE} -shared-libasan
                   -Wl,-rpath,${FL_ASAN_RT_DIR})
endif()
