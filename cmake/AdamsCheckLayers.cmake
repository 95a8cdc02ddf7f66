# AdamsCheckLayers.cmake -- script mode (cmake -P): the layering rule, checked
# two ways (docs/library.md, "Layering").
#
# MODE=includes (the CTest test layering.includes): reads every
#   `#include "x.h"` under src/ and fails unless x.h lives in the including
#   file's own layer or in a layer below it, and names no directory (a path
#   like "../resolution/resol.h" would get around the include directories).
#   Inputs: SRC (the src/ folder), LAYERS ("layer:dep1,dep2;..." -- the
#   transitive closure, as CMakeLists.txt computes it).
#
# MODE=compile (the CTest tests layering.<layer>): builds, with the layer's
#   own compile line, probe files that include one header of each layer above
#   it; each must fail with that header not found, and a probe that includes
#   the layer's own and lower headers must build.  Inputs: BUILD (the build
#   folder), OK (the target that must build), BAD ("target:header;...").
cmake_minimum_required(VERSION 3.25)
if(MODE STREQUAL "includes")
  set(fail "")
  foreach(entry IN LISTS LAYERS)
    string(REPLACE ":" ";" parts "${entry}")
    list(GET parts 0 layer)
    set(allowed ${layer})
    list(LENGTH parts np)
    if(np GREATER 1)
      list(GET parts 1 deps)
      string(REPLACE "," ";" deps "${deps}")
      list(APPEND allowed ${deps})
    endif()
    set(visible "")
    foreach(a IN LISTS allowed)
      file(GLOB hs RELATIVE "${SRC}/${a}" "${SRC}/${a}/*.h")
      list(APPEND visible ${hs})
    endforeach()
    file(GLOB files "${SRC}/${layer}/*.c" "${SRC}/${layer}/*.h")
    foreach(f IN LISTS files)
      file(STRINGS "${f}" incs REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
      foreach(line IN LISTS incs)
        string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]*)\".*" "\\1" h "${line}")
        file(RELATIVE_PATH rel "${SRC}" "${f}")
        if(h MATCHES "/")
          string(APPEND fail "  src/${rel}: #include \"${h}\" names a directory\n")
        elseif(NOT h IN_LIST visible)
          string(APPEND fail "  src/${rel}: #include \"${h}\" is not a header of ${layer} or a layer below it (${allowed})\n")
        endif()
      endforeach()
    endforeach()
  endforeach()
  if(fail)
    message(FATAL_ERROR "layering: includes against the rule core <- fp <- algebra <- module <- resolution <- io <- cli:\n${fail}")
  endif()
  message(STATUS "layering: every include under ${SRC} points down")
elseif(MODE STREQUAL "compile")
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BUILD}" --target "${OK}"
    OUTPUT_VARIABLE out ERROR_VARIABLE out RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "layering: ${OK} (own and lower headers) does not build:\n${out}")
  endif()
  foreach(entry IN LISTS BAD)
    string(REPLACE ":" ";" parts "${entry}")
    list(GET parts 0 target)
    list(GET parts 1 header)
    execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BUILD}" --target "${target}"
      OUTPUT_VARIABLE out ERROR_VARIABLE out RESULT_VARIABLE rc)
    string(REPLACE "." "\\." hre "${header}")
    if(rc EQUAL 0)
      message(FATAL_ERROR "layering: ${target} built, but it includes ${header} from a layer above")
    elseif(NOT out MATCHES "${hre}[:']* (file )?(No such file|not found)")
      message(FATAL_ERROR "layering: ${target} failed, but not because ${header} was not found:\n${out}")
    endif()
    message(STATUS "layering: ${target}: ${header} not found, as it should be")
  endforeach()
else()
  message(FATAL_ERROR "AdamsCheckLayers.cmake: MODE=includes or MODE=compile")
endif()
