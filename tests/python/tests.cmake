# The Python package's tests (tests/python/test_*.py, pytest), one CTest test
# python.<file> each, label "python", run by tests/python/run.sh against this
# build's libadams.so and adams program (skip code 77, with a message, when
# python3 or pytest is missing; scripts/deps.sh installs them for CI), and
# python.pip_install: `pip install ./python` offline into a temporary folder.
# Not registered in a sanitizer build: a python3 host would need the
# sanitizer runtime preloaded (LD_PRELOAD=libasan.so) and reports the
# interpreter's own leaks; the C interface itself is checked there by
# tests/api/t-api.c.  Needs the shared library (ADAMS_BUILD_SHARED).
if(ADAMS_SANITIZE OR ADAMS_FUZZ OR NOT ADAMS_BUILD_SHARED)
  message(STATUS "adams: python tests not registered (a sanitizer build, or no shared library)")
  return()
endif()
file(GLOB py_tests CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/python/test_*.py)
foreach(t ${py_tests})
  get_filename_component(name ${t} NAME_WE)
  string(REGEX REPLACE "^test_" "" name ${name})
  add_test(NAME python.${name}
    COMMAND ${CMAKE_SOURCE_DIR}/tests/python/run.sh pytest $<TARGET_FILE:adams_shared>
            $<TARGET_FILE:adams> ${t})
  set_tests_properties(python.${name} PROPERTIES LABELS python SKIP_RETURN_CODE 77 TIMEOUT 300)
endforeach()
add_test(NAME python.pip_install
  COMMAND ${CMAKE_SOURCE_DIR}/tests/python/run.sh pip $<TARGET_FILE:adams_shared>
          $<TARGET_FILE:adams> ${CMAKE_SOURCE_DIR}/python)
set_tests_properties(python.pip_install PROPERTIES LABELS python SKIP_RETURN_CODE 77 TIMEOUT 300)
