# Warnings and sanitizers for every xstitch target. Options arrive as CMake
# options (XSTITCH_WERROR, XSTITCH_SANITIZE), never from the environment.
set(XSTITCH_WARNING_FLAGS -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers -Wimplicit-fallthrough)
if(XSTITCH_WERROR)
  list(APPEND XSTITCH_WARNING_FLAGS -Werror)
endif()

set(XSTITCH_SANITIZER_FLAGS "")
if(XSTITCH_SANITIZE AND XSTITCH_TSAN)
  message(FATAL_ERROR "XSTITCH_SANITIZE (ASan + UBSan) and XSTITCH_TSAN (ThreadSanitizer) cannot "
                      "be combined; configure a separate build directory for each")
endif()
if(XSTITCH_TSAN)
  set(XSTITCH_SANITIZER_FLAGS -fsanitize=thread -fno-omit-frame-pointer)
  add_compile_options(${XSTITCH_SANITIZER_FLAGS})
  add_link_options(${XSTITCH_SANITIZER_FLAGS})
endif()
if(XSTITCH_SANITIZE)
  set(XSTITCH_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined
                              -fno-omit-frame-pointer)
  add_compile_options(${XSTITCH_SANITIZER_FLAGS})
  add_link_options(${XSTITCH_SANITIZER_FLAGS})
endif()

# xstitch_add_library(name SOURCES ... DEPS ...): a static library for one folder.
function(xstitch_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  if(NOT ARG_SOURCES)
    # A folder whose code has not landed yet: headers only.
    add_library(${name} INTERFACE)
    target_include_directories(${name} INTERFACE ${PROJECT_SOURCE_DIR})
    target_link_libraries(${name} INTERFACE ${ARG_DEPS})
    return()
  endif()
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_compile_options(${name} PRIVATE ${XSTITCH_WARNING_FLAGS})
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
endfunction()

function(xstitch_add_tool name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_compile_options(${name} PRIVATE ${XSTITCH_WARNING_FLAGS})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS})
  # A NEEDED entry only for libraries the tool calls (oneDNN's CMake package
  # adds OpenCL, which nothing of xstitch's calls): the xstitch-tools
  # package's dependencies are what dpkg-shlibdeps finds there.
  target_link_options(${name} PRIVATE -Wl,--as-needed)
endfunction()

# Sets XSTITCH_CACHE_DIR=off for the tests of the current directory that do
# not set it themselves.
function(xstitch_tests_without_disk_cache)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(test ${tests})
    get_test_property(${test} ENVIRONMENT environment)
    if(NOT environment OR NOT environment MATCHES "XSTITCH_CACHE_DIR=")
      set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT "XSTITCH_CACHE_DIR=off")
    endif()
  endforeach()
endfunction()
