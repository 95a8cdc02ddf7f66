"""chart_html.py -- the interactive chart (adams chart --format html) in
headless Chromium, driven by Selenium through chromedriver.

Usage: chart_html.py ADAMS WORKDIR [--bench N S STORE]

The test writes S_2 through stem 40 with `adams chart ... -o FILE.html`,
opens it by its file:// URL and checks, as a person would use it:
  - it loads without console errors (the browser log holds no SEVERE entry)
    and without any network request (everything is inline);
  - the data in the page is the JSON export (`--format json`, the same
    region), byte for byte;
  - the number of drawn dots equals the number of classes, the number of
    drawn lines of h_0, h_1, h_2 equals the nonzero products of the data;
  - unticking h_1 hides its lines (none drawn, and no pixel of its colour
    left on the canvas), ticking it again brings them back;
  - hovering over a dot shows its name; clicking a dot shows its products
    by each h_i, as the data has them, and "d_2: not computed";
  - the search box finds "x_(15, 1, 0)" and "8,3,0" and centres the class;
    an absent name says so;
  - the zoom buttons and the mouse wheel change the scale, a drag pans;
  - a module whose name holds quotes, < > and & is shown literally.
It leaves WORKDIR/chart-html.png, the screenshot, for people to look at.
Exit 77 (skipped, with a message) when selenium, chromium or chromedriver
is missing (Debian: python3-selenium chromium chromium-driver).

--bench N S STORE: instead, writes the chart of the store STORE through
stem N, filtration S, and prints the time the page took to open (the
script's first drawing done, performance.now() from navigation start),
as the median of 5 loads.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import time


def skip(msg):
    print("SKIP: " + msg)
    sys.exit(77)


try:
    from selenium import webdriver
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.chrome.service import Service
except ImportError:
    skip("python3-selenium is not installed (apt-get install python3-selenium)")

FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL: " + what)


def find_exe(names):
    for n in names:
        p = shutil.which(n)
        if p:
            return p
    return None


def start_browser():
    chromium = os.environ.get("ADAMS_CHROMIUM") or find_exe(
        ["chromium", "chromium-browser", "google-chrome"])
    driver_exe = find_exe(["chromedriver"]) or (
        "/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else None)
    if not chromium:
        skip("no chromium on PATH (apt-get install chromium)")
    if not driver_exe:
        skip("no chromedriver (apt-get install chromium-driver)")
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for a in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--window-size=1280,800", "--force-device-scale-factor=1", "--no-first-run"]:
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    return webdriver.Chrome(service=Service(driver_exe), options=opts)


def adams(exe, *args):
    r = subprocess.run([exe, *args], capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        print("adams %s failed (%d): %s" % (" ".join(args), r.returncode, r.stderr))
        sys.exit(1)


def embedded_json(html):
    m = re.search(r'<script type="application/json" id="adams-data">(.*?)</script>', html, re.S)
    return m.group(1) if m else None


def load(drv, path):
    drv.get("file://" + os.path.abspath(path))
    for _ in range(200):
        if drv.execute_script("return document.body && document.body.getAttribute('data-ready')"):
            return
        time.sleep(0.05)
    raise SystemExit("the page never finished its first drawing")


def js(drv, expr):
    return drv.execute_script("return " + expr)


def colour_pixels(drv, rgb):
    """The canvas pixels within 30 of the colour rgb in each channel."""
    return drv.execute_script("""
        var c = document.getElementById('chart'), x = c.getContext('2d');
        window.adamsChart.paintNow();
        var d = x.getImageData(0, 0, c.width, c.height).data, n = 0, t = arguments[0];
        for (var k = 0; k < d.length; k += 4)
          if (Math.abs(d[k]-t[0]) < 30 && Math.abs(d[k+1]-t[1]) < 30 && Math.abs(d[k+2]-t[2]) < 30) n++;
        return n;""", rgb)


def click_at(drv, sx, sy):
    """Clicks the canvas at (sx, sy), canvas pixels from its top left."""
    canvas = drv.find_element(By.ID, "chart")
    w, h = canvas.size["width"], canvas.size["height"]
    ActionChains(drv).move_to_element_with_offset(canvas, int(sx - w / 2), int(sy - h / 2)).click().perform()


def name(c):
    return "x_(%d, %d, %d)" % tuple(c)


def expected_products(data, cls):
    """The lines the panel must show for the class cls, from the data."""
    out = []
    for rec in data["products"]:
        if rec["from"] != cls:
            continue
        op = rec["by"] if "by" in rec else "h%d" % rec["h"]
        label = op[0] + "_" + op[1:]
        terms = [("" if len(t) < 4 or t[3] == 1 else "%d " % t[3]) + name(t[:3]) for t in rec["to"]]
        out.append((rec.get("h", op), label + " \u00b7 " + name(cls) + " = " + (" + ".join(terms) or "0")))
    return [t for _, t in out]


def run_checks(exe, work):
    html_path = os.path.join(work, "s2-40.html")
    json_path = os.path.join(work, "s2-40.json")
    adams(exe, "chart", "S_2", "--stem", "40", "--max-s", "20", "--quiet", "-o", html_path)
    adams(exe, "chart", "S_2", "--stem", "40", "--max-s", "20", "--quiet", "--format", "json",
          "-o", json_path)
    html = open(html_path, encoding="utf-8").read()
    jtext = open(json_path, encoding="utf-8").read()
    check(embedded_json(html) == jtext, "the page's data is the JSON export byte for byte")
    data = json.loads(jtext)
    classes = len(data["classes"])
    nz = {k: sum(len(r["to"]) for r in data["products"] if r.get("h") == k) for k in range(3)}

    drv = start_browser()
    try:
        load(drv, html_path)
        errors = [e for e in drv.get_log("browser") if e["level"] == "SEVERE"]
        check(not errors, "no console errors: %s" % errors)
        reqs = [e for e in drv.get_log("performance")
                if '"Network.requestWillBeSent"' in e["message"]
                and not re.search(r'"url":"(file:|data:)', e["message"])]
        check(not reqs, "no network requests: %s" % [r["message"][:200] for r in reqs])
        ac = "window.adamsChart"
        check(js(drv, ac + ".classes") == classes, "the page has the data's %d classes" % classes)
        check(js(drv, ac + ".drawn.dots") == classes,
              "drawn dots %s == classes %d" % (js(drv, ac + ".drawn.dots"), classes))
        for k in range(3):
            got = js(drv, ac + ".drawn.lines.h%d" % k)
            check(got == nz[k] and nz[k] > 0, "drawn h_%d lines %s == products %d" % (k, got, nz[k]))
        title = drv.title
        check(title == "Adams chart of S_2", "the title names the module: %r" % title)

        # h_1 off and on again
        h1 = (0xd5, 0x5e, 0x00)
        before = colour_pixels(drv, h1)
        drv.find_element(By.ID, "show-h1").click()
        time.sleep(0.1)
        check(js(drv, ac + ".drawn.lines.h1") == 0, "h_1 unticked: no h_1 line drawn")
        check(js(drv, ac + ".drawn.lines.h0") == nz[0], "h_1 unticked: the h_0 lines stay")
        after = colour_pixels(drv, h1)
        check(before > 100 and after == 0, "h_1 unticked: its colour's pixels %d -> %d" % (before, after))
        drv.find_element(By.ID, "show-h1").click()
        time.sleep(0.1)
        check(js(drv, ac + ".drawn.lines.h1") == nz[1], "h_1 ticked again: its lines are back")

        # hover and click: c_0 = x_(8, 3, 0) (h_1 c_0 != 0)
        target = [8, 3, 0]
        j = js(drv, ac + ".indexOf(8, 3, 0)")
        sx, sy = js(drv, ac + ".screenOf(%d)" % j)
        canvas = drv.find_element(By.ID, "chart")
        w, h = canvas.size["width"], canvas.size["height"]
        ActionChains(drv).move_to_element_with_offset(canvas, int(sx - w / 2), int(sy - h / 2)).perform()
        time.sleep(0.1)
        tip = drv.find_element(By.ID, "tip")
        check(tip.is_displayed() and tip.text == name(target), "hover shows the name: %r" % tip.text)
        click_at(drv, sx, sy)
        time.sleep(0.1)
        head = drv.find_element(By.CSS_SELECTOR, "#info h2").text
        check(head == name(target), "a click selects the class: %r" % head)
        shown = [li.text for li in drv.find_elements(By.CSS_SELECTOR, "#products li")]
        want = expected_products(data, target)
        check(shown == want and len(want) >= 2, "its products as the data has them: %s vs %s" % (shown, want))
        check(any("h_1" in t and "x_(9, 4, 0)" in t for t in shown), "h_1 c_0 = x_(9, 4, 0) shown")
        check("d_2: not computed" in drv.find_element(By.ID, "d2").text, "d_2 is said not computed")

        # search
        q = drv.find_element(By.ID, "q")
        for text, cls in [("x_(15, 1, 0)", [15, 1, 0]), ("8,3,0", [8, 3, 0])]:
            q.clear()
            q.send_keys(text + Keys.ENTER)
            time.sleep(0.1)
            j = js(drv, ac + ".indexOf(%d, %d, %d)" % tuple(cls))
            sx, sy = js(drv, ac + ".screenOf(%d)" % j)
            v = js(drv, ac + ".view()")
            check(abs(sx - v["width"] / 2) < 1 and abs(sy - v["height"] / 2) < 1,
                  "search %r centres the class (%.1f, %.1f) in %sx%s" % (text, sx, sy, v["width"], v["height"]))
            check(drv.find_element(By.CSS_SELECTOR, "#info h2").text == name(cls),
                  "search %r selects the class" % text)
        q.clear()
        q.send_keys("x_(15, 2, 3)" + Keys.ENTER)
        time.sleep(0.1)
        check("no class x_(15, 2, 3)" in drv.find_element(By.ID, "found").text,
              "a search for an absent class says so")

        # zoom and pan
        drv.find_element(By.ID, "fit").click()
        time.sleep(0.1)
        s0 = js(drv, ac + ".view().scale")
        drv.find_element(By.ID, "zin").click()
        time.sleep(0.1)
        s1 = js(drv, ac + ".view().scale")
        check(abs(s1 / s0 - 1.5) < 1e-9, "the + button zooms in by 1.5 (%s -> %s)" % (s0, s1))
        check(js(drv, ac + ".drawn.dots") < classes, "zoomed in, fewer dots are in view")
        ActionChains(drv).scroll_to_element(canvas).perform()
        drv.execute_script("""var c = document.getElementById('chart'), r = c.getBoundingClientRect();
            c.dispatchEvent(new WheelEvent('wheel', {deltaY: 300, clientX: r.left + 200,
                                                      clientY: r.top + 200, bubbles: true, cancelable: true}));""")
        time.sleep(0.1)
        s2 = js(drv, ac + ".view().scale")
        check(s2 < s1, "the wheel zooms out (%s -> %s)" % (s1, s2))
        ox0 = js(drv, ac + ".view().ox")
        ActionChains(drv).move_to_element(canvas).click_and_hold().move_by_offset(120, 0).release().perform()
        time.sleep(0.1)
        ox1 = js(drv, ac + ".view().ox")
        check(abs(ox1 - ox0 - 120) < 2, "a drag pans the chart (ox %s -> %s)" % (ox0, ox1))

        # the screenshot people look at: stems 0..40, c_0 selected
        drv.find_element(By.ID, "fit").click()
        js(drv, ac + ".select(%d, false)" % js(drv, ac + ".indexOf(8, 3, 0)"))
        time.sleep(0.2)
        drv.save_screenshot(os.path.join(work, "chart-html.png"))
        errors = [e for e in drv.get_log("browser") if e["level"] == "SEVERE"]
        check(not errors, "no console errors after using it: %s" % errors)

        # a hostile module name
        hostile = os.path.join(work, "h\"'<i>&x.json")
        shutil.copy(os.path.join(os.path.dirname(__file__), "..", "..", "modules", "C2.json"), hostile)
        hpath = os.path.join(work, "hostile.html")
        adams(exe, "chart", hostile, "--stem", "10", "--quiet", "-o", hpath)
        load(drv, hpath)
        want = "Adams chart of h\"'<i>&x"
        check(drv.title == want and drv.find_element(By.ID, "heading").text == want,
              "a hostile name is shown literally: %r" % drv.title)
        check(not drv.find_elements(By.TAG_NAME, "i"), "the name made no element")
        errors = [e for e in drv.get_log("browser") if e["level"] == "SEVERE"]
        check(not errors, "no console errors with a hostile name: %s" % errors)
    finally:
        drv.quit()


def bench(exe, work, stem, maxs, store):
    path = os.path.join(work, "bench.html")
    t = time.time()
    adams(exe, "chart", "--from", store, "--stem", stem, "--max-s", maxs, "--quiet", "-o", path)
    print("written in %.2f s: %d bytes" % (time.time() - t, os.path.getsize(path)))
    drv = start_browser()
    try:
        times = []
        for _ in range(5):
            load(drv, path)
            ready = js(drv, "window.adamsChart.readyMs")
            nav = js(drv, "performance.getEntriesByType('navigation')[0].toJSON()")
            times.append((ready, nav["domContentLoadedEventEnd"], nav["loadEventEnd"]))
            print("first drawing done at %.0f ms (DOMContentLoaded %.0f, load %.0f); %d classes, %d dots drawn"
                  % (ready, nav["domContentLoadedEventEnd"], nav["loadEventEnd"],
                     js(drv, "window.adamsChart.classes"), js(drv, "window.adamsChart.drawn.dots")))
        times.sort()
        print("median: %.0f ms" % times[2][0])
        errors = [e for e in drv.get_log("browser") if e["level"] == "SEVERE"]
        print("console errors: %s" % errors)
        drv.save_screenshot(os.path.join(work, "bench.png"))
    finally:
        drv.quit()


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        sys.exit(2)
    exe, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    if len(sys.argv) == 7 and sys.argv[3] == "--bench":
        bench(exe, work, sys.argv[4], sys.argv[5], sys.argv[6])
        return
    run_checks(exe, work)
    if FAILS:
        print("%d check(s) failed" % len(FAILS))
        sys.exit(1)
    print("all checks passed; screenshot: %s" % os.path.join(work, "chart-html.png"))


if __name__ == "__main__":
    main()
