# Every dependency comes from Debian 12's packages; scripts/setup.sh installs
# them. LLVM 19 provides FileCheck and lit for the golden tests.
find_package(absl REQUIRED CONFIG)
find_package(Threads REQUIRED)

set(LLVM_DIR "/usr/lib/llvm-19/lib/cmake/llvm" CACHE PATH "LLVM 19 CMake package")
find_package(LLVM REQUIRED CONFIG)
if(NOT LLVM_VERSION_MAJOR EQUAL 19)
  message(FATAL_ERROR "xstitch needs LLVM 19, found ${LLVM_PACKAGE_VERSION} at ${LLVM_DIR}")
endif()
message(STATUS "xstitch: LLVM ${LLVM_PACKAGE_VERSION} from ${LLVM_DIR}")
# Backends link the shared libLLVM: one cheap link instead of dozens of static
# component libraries. XSTITCH_LLVM_BUNDLE instead links the components
# xstitch uses into one shared library of its own, libxstitch_llvm.so, which
# needs nothing of LLVM's dependencies but zlib, zstd and terminfo (libLLVM
# pulls in z3, libxml2, ICU and more): the package for GPU machines carries it.
add_library(xstitch_llvm INTERFACE)
target_include_directories(xstitch_llvm SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS})
target_compile_definitions(xstitch_llvm INTERFACE ${LLVM_DEFINITIONS})
if(XSTITCH_LLVM_BUNDLE)
  llvm_map_components_to_libnames(XSTITCH_LLVM_COMPONENT_LIBS
    core support passes analysis transformutils irreader orcjit jitlink
    x86codegen x86asmparser x86desc x86info nvptxcodegen nvptxdesc nvptxinfo)
  file(WRITE ${CMAKE_BINARY_DIR}/xstitch_llvm_bundle.cpp
       "// The components of XSTITCH_LLVM_BUNDLE; this library has no code of its own.\n")
  add_library(xstitch_llvm_bundle SHARED ${CMAKE_BINARY_DIR}/xstitch_llvm_bundle.cpp)
  set_target_properties(xstitch_llvm_bundle PROPERTIES OUTPUT_NAME xstitch_llvm)
  # The named components whole (the executables call into them), what they
  # depend on as far as they use it. Support is not taken whole: its Z3
  # solver would pull in libz3, which nothing of xstitch uses.
  set(XSTITCH_LLVM_WHOLE_ARCHIVES)
  foreach(lib ${XSTITCH_LLVM_COMPONENT_LIBS})
    if(NOT lib STREQUAL "LLVMSupport")
      list(APPEND XSTITCH_LLVM_WHOLE_ARCHIVES "$<TARGET_FILE:${lib}>")
    endif()
  endforeach()
  target_link_libraries(xstitch_llvm_bundle PRIVATE
    -Wl,--whole-archive ${XSTITCH_LLVM_WHOLE_ARCHIVES} -Wl,--no-whole-archive
    ${XSTITCH_LLVM_COMPONENT_LIBS})
  target_link_options(xstitch_llvm_bundle PRIVATE -Wl,--gc-sections -Wl,--as-needed)
  target_link_libraries(xstitch_llvm INTERFACE xstitch_llvm_bundle)
else()
  target_link_libraries(xstitch_llvm INTERFACE LLVM)
endif()
# lld as a library (Debian's liblld-19-dev): the AMDGPU backend links HSA
# code objects in process.
if(XSTITCH_AMDGPU)
  find_package(LLD REQUIRED CONFIG HINTS "${LLVM_DIR}/../lld" NO_DEFAULT_PATH)
endif()

find_package(TBB REQUIRED CONFIG)

# The ONNX frontend reads models through Debian's libonnx (protobuf types and
# the checker).
find_package(ONNX REQUIRED CONFIG)
find_package(Protobuf REQUIRED)

# oneDNN runs `dot` on f32 (runtime/cpu/LibraryOps.cpp says why not OpenBLAS).
find_package(dnnl REQUIRED CONFIG)

if(XSTITCH_BUILD_TESTS)
  find_package(GTest REQUIRED)
  find_program(XSTITCH_FILECHECK FileCheck HINTS "${LLVM_TOOLS_BINARY_DIR}" NO_DEFAULT_PATH REQUIRED)
  find_program(XSTITCH_NOT not HINTS "${LLVM_TOOLS_BINARY_DIR}" NO_DEFAULT_PATH REQUIRED)
  find_file(XSTITCH_LIT lit.py HINTS "${LLVM_TOOLS_BINARY_DIR}/../build/utils/lit" NO_DEFAULT_PATH REQUIRED)
  # lit runs under Debian's Python, not whatever python3 comes first on PATH.
  if(EXISTS /usr/bin/python3 AND NOT Python3_EXECUTABLE)
    set(Python3_EXECUTABLE /usr/bin/python3)
  endif()
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
endif()
