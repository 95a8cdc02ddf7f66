# The interactive chart (adams chart --format html) in headless Chromium,
# driven by Selenium (tests/browser/chart_html.py): CTest test
# browser.chart_html, label "browser", skip code 77 with a message when
# python3-selenium, chromium or chromium-driver is missing (scripts/deps.sh
# installs them for CI). Not registered in a sanitizer build (the browser
# and Python gain nothing from it); scripts/test.sh also leaves the label
# out of its second pass (generic kernels).
if(ADAMS_SANITIZE OR ADAMS_FUZZ)
  return()
endif()
add_test(NAME browser.chart_html
  COMMAND ${CMAKE_SOURCE_DIR}/tests/browser/run.sh $<TARGET_FILE:adams>
          ${CMAKE_BINARY_DIR}/browser-chart-html)
set_tests_properties(browser.chart_html PROPERTIES LABELS browser SKIP_RETURN_CODE 77 TIMEOUT 300)
