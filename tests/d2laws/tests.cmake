# tests/d2laws -- bench/d2-laws.py, the checker of the Adams d_2's laws on a
# whole `adams d2` output (d_2 d_2 = 0, Leibniz by h_0..h_5, the known values
# of the sphere; docs/secondary.md), run by tests/d2laws/run.sh on S_2 through
# stem 40: d2laws.ok (the real output passes, with the counts of what was
# checked) and d2laws.altered (a line altered or removed: exit 1 naming the
# cell).  Label "d2laws", skip code 77 with a message when python3 is missing.
if(ADAMS_FUZZ)
  return()
endif()
foreach(mode ok altered)
  add_test(NAME d2laws.${mode}
    COMMAND ${CMAKE_SOURCE_DIR}/tests/d2laws/run.sh ${mode} $<TARGET_FILE:adams>
            ${CMAKE_SOURCE_DIR}/bench/d2-laws.py ${CMAKE_BINARY_DIR}/d2laws-${mode})
  set_tests_properties(d2laws.${mode} PROPERTIES LABELS d2laws SKIP_RETURN_CODE 77 TIMEOUT 120)
endforeach()
