/*
 * t-chart-browser.c -- the SVG chart as people see it, and the verb
 * `adams chart` end to end.
 *
 * chart_browser_render draws the chart of S_2 through stem 30 with the
 * library (sq_chart_write_svg), renders it in headless Chromium and reads
 * the screenshot back: a PNG of exactly the size sq_chart_svg_size gives,
 * not blank (much larger than the render of a blank page of that size),
 * with a dark pixel at the centre of every dot of the file and pixels of
 * each of the three structure-line colours.  The pixels are decoded with
 * the system's zlib, opened at run time (dlopen "libz.so.1") so that the
 * tests need no link dependency; without it only the size checks run.
 * Skipped (exit 77) when no browser is found: $ADAMS_CHROMIUM, else
 * chromium, chromium-browser, google-chrome or google-chrome-stable on
 * PATH (Debian: apt-get install chromium).
 *
 * The chart_cli_* tests run `adams chart`; a program that does not know the
 * verb fails them (a broken dispatch is a failure, never a skip: the skip
 * is only for a missing browser).  ADAMS_TEST_BIN, when set, names
 * the program to run instead of the one built with the tests.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fdmod.h"
#include "resol.h"
#include "sq_chart_svg.h"
#include "sq_test.h"

/* ---- the browser ---------------------------------------------------------- */

/* The browser to run, or NULL: $ADAMS_CHROMIUM, else the first of the
 * usual names found on PATH (into buf). */
static const char *find_browser(char *buf, size_t len)
{
    const char *env = getenv("ADAMS_CHROMIUM");
    if (env && *env)
        return env;
    static const char *const names[] = {"chromium", "chromium-browser", "google-chrome",
                                        "google-chrome-stable"};
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        for (const char *p = path; *p;) {
            const char *e = strchr(p, ':');
            size_t dl = e ? (size_t)(e - p) : strlen(p);
            snprintf(buf, len, "%.*s/%s", (int)dl, p, names[k]);
            if (dl > 0 && access(buf, X_OK) == 0)
                return buf;
            p += dl + (e ? 1 : 0);
        }
    }
    return NULL;
}

/* Renders the file svg (absolute path) at width x height into png; returns
 * the exit status of the browser (0 on success). */
static int render(const char *browser, const char *dir, const char *svg, const char *png,
                  int64_t width, int64_t height)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd,
             "timeout 180 '%s' --headless --no-sandbox --disable-gpu --hide-scrollbars "
             "--force-device-scale-factor=1 --no-first-run --user-data-dir='%s/profile' "
             "--screenshot='%s' --window-size=%lld,%lld 'file://%s' >'%s/browser.log' 2>&1",
             browser, dir, png, (long long)width, (long long)height, svg, dir);
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* ---- reading the PNG ------------------------------------------------------ */

typedef struct {
    uint32_t width, height;
    int channels;    /* 3 (RGB) or 4 (RGBA); 0 when the pixels were not decoded */
    uint8_t *pixels; /* height rows of width * channels bytes (sq_malloc), or NULL */
    size_t file_size;
} png_t;

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int paeth(int a, int b, int c)
{
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* Undoes the PNG row filters of raw (height rows of 1 + stride bytes) into
 * out (height rows of stride bytes).  Returns 0, or -1 on a bad filter. */
static int unfilter(uint8_t *out, const uint8_t *raw, uint32_t height, size_t stride, int bpp)
{
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *in = raw + (size_t)y * (stride + 1);
        uint8_t *row = out + (size_t)y * stride;
        const uint8_t *up = y ? row - stride : NULL;
        int type = in[0];
        in++;
        for (size_t x = 0; x < stride; x++) {
            int a = x >= (size_t)bpp ? row[x - (size_t)bpp] : 0;
            int b = up ? up[x] : 0;
            int c = up && x >= (size_t)bpp ? up[x - (size_t)bpp] : 0;
            int v;
            switch (type) {
            case 0:
                v = 0;
                break;
            case 1:
                v = a;
                break;
            case 2:
                v = b;
                break;
            case 3:
                v = (a + b) / 2;
                break;
            case 4:
                v = paeth(a, b, c);
                break;
            default:
                return -1;
            }
            row[x] = (uint8_t)(in[x] + v);
        }
    }
    return 0;
}

typedef int (*uncompress_fn)(uint8_t *dest, unsigned long *dest_len, const uint8_t *src,
                             unsigned long src_len);

/* Reads the PNG at path: checks its signature and header (8-bit RGB or
 * RGBA, not interlaced), and decodes the pixels when zlib can be opened. */
static void read_png(png_t *img, const char *path)
{
    memset(img, 0, sizeof *img);
    FILE *f = fopen(path, "rb");
    if (!f)
        sq_test_fail(__FILE__, __LINE__, "no screenshot at %s", path);
    uint8_t *data = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (len == cap) {
            cap = cap ? 2 * cap : 1 << 16;
            data = sq_realloc(data, cap);
        }
        got = fread(data + len, 1, cap - len, f);
        len += got;
    } while (got > 0);
    fclose(f);
    img->file_size = len;
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    ASSERT(len > 8 + 25 && memcmp(data, sig, 8) == 0);
    ASSERT(memcmp(data + 12, "IHDR", 4) == 0 && be32(data + 8) == 13);
    img->width = be32(data + 16);
    img->height = be32(data + 20);
    int depth = data[24], ctype = data[25], interlace = data[28];
    ASSERT_EQ(depth, 8);
    ASSERT(ctype == 2 || ctype == 6);
    ASSERT_EQ(interlace, 0);
    int channels = ctype == 2 ? 3 : 4;

    /* The concatenated IDAT chunks form one zlib stream. */
    uint8_t *z = sq_malloc(len);
    size_t zlen = 0;
    int ended = 0;
    for (size_t p = 8; p + 12 <= len;) {
        uint32_t clen = be32(data + p);
        ASSERT(p + 12 + (size_t)clen <= len);
        if (memcmp(data + p + 4, "IDAT", 4) == 0) {
            memcpy(z + zlen, data + p + 8, clen);
            zlen += clen;
        }
        if (memcmp(data + p + 4, "IEND", 4) == 0)
            ended = 1;
        p += 12 + (size_t)clen;
    }
    ASSERT(ended && zlen > 0);
    sq_free(data);

    void *lib = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);
    uncompress_fn unz = lib ? (uncompress_fn)(uintptr_t)dlsym(lib, "uncompress") : NULL;
    if (!unz) {
        printf("note: zlib (libz.so.1) not found: the pixels are not checked\n");
        sq_free(z);
        if (lib)
            dlclose(lib);
        return;
    }
    size_t stride = (size_t)img->width * (size_t)channels;
    unsigned long raw_len = (unsigned long)((stride + 1) * img->height);
    uint8_t *raw = sq_malloc(raw_len);
    unsigned long out_len = raw_len;
    ASSERT_EQ(unz(raw, &out_len, z, (unsigned long)zlen), 0);
    ASSERT_EQ(out_len, raw_len);
    img->pixels = sq_malloc(stride * img->height);
    ASSERT_EQ(unfilter(img->pixels, raw, img->height, stride, channels), 0);
    img->channels = channels;
    sq_free(raw);
    sq_free(z);
    dlclose(lib);
}

static const uint8_t *pixel(const png_t *img, int64_t x, int64_t y)
{
    return img->pixels + ((size_t)y * img->width + (size_t)x) * (size_t)img->channels;
}

/* Number of pixels within distance tol (per channel) of the colour
 * "#rrggbb". */
static int64_t count_colour(const png_t *img, const char *hex, int tol)
{
    unsigned r, g, b;
    ASSERT_EQ(sscanf(hex, "#%2x%2x%2x", &r, &g, &b), 3);
    int64_t c = 0;
    for (uint32_t y = 0; y < img->height; y++)
        for (uint32_t x = 0; x < img->width; x++) {
            const uint8_t *p = pixel(img, x, y);
            c +=
                abs(p[0] - (int)r) <= tol && abs(p[1] - (int)g) <= tol && abs(p[2] - (int)b) <= tol;
        }
    return c;
}

static int64_t count_not_white(const png_t *img)
{
    int64_t c = 0;
    for (uint32_t y = 0; y < img->height; y++)
        for (uint32_t x = 0; x < img->width; x++) {
            const uint8_t *p = pixel(img, x, y);
            c += p[0] < 250 || p[1] < 250 || p[2] < 250;
        }
    return c;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ASSERT(f != NULL);
    fputs(text, f);
    ASSERT_EQ(fclose(f), 0);
}

TEST(chart_browser_render)
{
    char bbuf[4096];
    const char *browser = find_browser(bbuf, sizeof bbuf);
    if (!browser) {
        printf("SKIP: no Chromium found (install it: apt-get install chromium; or set "
               "ADAMS_CHROMIUM to a Chromium or Chrome binary)\n");
        exit(77);
    }
    char dir[] = "/tmp/adams-chart-XXXXXX";
    ASSERT(mkdtemp(dir) != NULL);
    char svg[256], blank[256], png[256], blank_png[256];
    snprintf(svg, sizeof svg, "%s/chart.svg", dir);
    snprintf(blank, sizeof blank, "%s/blank.svg", dir);
    snprintf(png, sizeof png, "%s/chart.png", dir);
    snprintf(blank_png, sizeof blank_png, "%s/blank.png", dir);

    const int32_t max_n = 30, max_s = 18;
    fdmod_t *M = fdmod_sphere();
    resol_t *R = resol_new(M, max_s, max_n);
    resol_run(R, RESOL_CLASSICAL);
    FILE *f = fopen(svg, "w");
    ASSERT(f != NULL);
    ASSERT_EQ(sq_chart_write_svg(f, R, NULL, 0, max_n, max_s), 0);
    ASSERT_EQ(fclose(f), 0);
    resol_free(R);
    fdmod_free(M);
    int64_t w, h;
    sq_chart_svg_size(0, max_n, max_s, &w, &h);
    char text[512];
    snprintf(text, sizeof text,
             "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%lld\" height=\"%lld\">"
             "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/></svg>\n",
             (long long)w, (long long)h);
    write_file(blank, text);

    int rc = render(browser, dir, svg, png, w, h);
    if (rc != 0)
        sq_test_fail(__FILE__, __LINE__, "%s exited with %d (log: %s/browser.log)", browser, rc,
                     dir);
    ASSERT_EQ(render(browser, dir, blank, blank_png, w, h), 0);

    png_t img, white;
    read_png(&img, png);
    read_png(&white, blank_png);
    ASSERT_EQ(img.width, w);
    ASSERT_EQ(img.height, h);
    ASSERT_EQ(white.width, w);
    /* A blank page of this size compresses to a few kilobytes; the chart,
     * with its text, dots and lines, to many times that. */
    if (img.file_size < 4 * white.file_size || img.file_size < 20000)
        sq_test_fail(__FILE__, __LINE__,
                     "the screenshot looks blank: %zu bytes (blank: %zu); "
                     "see %s",
                     img.file_size, white.file_size, png);
    if (img.pixels) {
        ASSERT_EQ(count_not_white(&white), 0);
        int64_t ink = count_not_white(&img);
        if (ink < (int64_t)w * h / 50)
            sq_test_fail(__FILE__, __LINE__, "only %lld pixels are not white; see %s",
                         (long long)ink, png);
        /* Each structure line colour is drawn, as a run of pixels. */
        static const char *const colour[SQ_CHART_SVG_NUM_H] = {
            SQ_CHART_SVG_H0_COLOUR, SQ_CHART_SVG_H1_COLOUR, SQ_CHART_SVG_H2_COLOUR};
        for (int i = 0; i < SQ_CHART_SVG_NUM_H; i++) {
            int64_t c = count_colour(&img, colour[i], 40);
            if (c < 200)
                sq_test_fail(__FILE__, __LINE__, "h_%d's colour %s: %lld pixels; see %s", i,
                             colour[i], (long long)c, png);
        }
        /* Every dot of the file is dark at its centre in the picture. */
        char *doc = sq_test_slurp(svg);
        int64_t dots = 0;
        for (const char *p = strstr(doc, "<circle "); p; p = strstr(p + 1, "<circle ")) {
            double cx, cy;
            ASSERT_EQ(sscanf(p, "<circle cx=\"%lf\" cy=\"%lf\"", &cx, &cy), 2);
            const uint8_t *q = pixel(&img, (int64_t)cx, (int64_t)cy);
            if (q[0] > 90 || q[1] > 90 || q[2] > 90)
                sq_test_fail(__FILE__, __LINE__, "the dot at (%g, %g) is (%d, %d, %d); see %s", cx,
                             cy, q[0], q[1], q[2], png);
            dots++;
        }
        ASSERT(dots > 100);
        sq_free(doc);
        sq_free(img.pixels);
        sq_free(white.pixels);
    }
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ASSERT_EQ(system(cmd), 0);
}

/* ---- adams chart ---------------------------------------------------------- */

/* Runs "adams <args>" like sq_test_run_adams, with $ADAMS_TEST_BIN when set;
 * fails the test when the program does not know `chart` (the skip, 77, is
 * only for a missing browser). */
static int run_chart(const char *args, char **out, char **err)
{
    const char *bin = getenv("ADAMS_TEST_BIN");
    char o[] = "/tmp/adams-chart-out-XXXXXX", e[] = "/tmp/adams-chart-err-XXXXXX";
    int fo = mkstemp(o), fe = mkstemp(e);
    ASSERT(fo >= 0 && fe >= 0);
    close(fo);
    close(fe);
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' %s >%s 2>%s", bin && *bin ? bin : SQ_ADAMS_BIN, args, o, e);
    int rc = system(cmd);
    ASSERT(WIFEXITED(rc));
    *out = sq_test_slurp(o);
    *err = sq_test_slurp(e);
    unlink(o);
    unlink(e);
    if (WEXITSTATUS(rc) == 2 && strstr(*err, "unknown command 'chart'"))
        sq_test_fail(__FILE__, __LINE__,
                     "this adams has no 'chart' verb (src/cli/main.c does not call cmd_chart)");
    return WEXITSTATUS(rc);
}

static void expect_error(const char *args, int code, const char *needle)
{
    char *out, *err;
    int rc = run_chart(args, &out, &err);
    if (rc != code || strstr(err, needle) == NULL || sq_test_count_lines(err) != 1 ||
        out[0] != '\0')
        sq_test_fail(__FILE__, __LINE__,
                     "adams %s: rc=%d stderr='%s' stdout='%.80s' (want %d, "
                     "'%s')",
                     args, rc, err, out, code, needle);
    sq_free(out);
    sq_free(err);
}

TEST(chart_cli_outputs)
{
    char *out, *err;
    ASSERT_EQ(run_chart("chart S_2 --stem 12 --max-s 6 --quiet", &out, &err), 0);
    ASSERT(strncmp(out, "<svg ", 5) == 0);
    ASSERT(strstr(out, "<title>x_(0, 6, 0)</title>") != NULL);
    ASSERT(strstr(out, "<title>x_(0, 7, 0)</title>") == NULL);
    ASSERT_STR_EQ(err, "");
    sq_free(out);
    sq_free(err);
    ASSERT_EQ(run_chart("chart --stem 12 --max-s 6 --format json --quiet", &out, &err), 0);
    ASSERT(strstr(out, "\"module\": \"S_2\"") != NULL);
    ASSERT(strstr(out, "{\"h\": 1, \"from\": [0, 0, 0], \"to\": [[1, 1, 0]]}") != NULL);
    sq_free(out);
    sq_free(err);
    /* -o writes the file (json chosen by the suffix), nothing on stdout. */
    char dir[] = "/tmp/adams-chart-o-XXXXXX";
    ASSERT(mkdtemp(dir) != NULL);
    char args[512], path[300];
    snprintf(path, sizeof path, "%s/c.json", dir);
    snprintf(args, sizeof args, "chart Ceta --stem 10 --quiet -o '%s'", path);
    ASSERT_EQ(run_chart(args, &out, &err), 0);
    ASSERT_STR_EQ(out, "");
    char *file = sq_test_slurp(path);
    ASSERT(strstr(file, "\"format\": \"adams-chart\"") != NULL);
    sq_free(file);
    sq_free(out);
    sq_free(err);
    unlink(path);
    rmdir(dir);
}

TEST(chart_cli_errors)
{
    expect_error("chart --bogus", 2, "chart: unknown option '--bogus'");
    expect_error("chart --stem abc", 2, "--stem: expected an integer, got 'abc'");
    expect_error("chart --format png", 2, "--format: expected 'svg', 'json' or 'html', got 'png'");
    expect_error("chart -o", 2, "-o: missing value");
    expect_error("chart S_2 C2", 2, "more than one module");
    expect_error("chart NoSuchModule", 2, "unknown module 'NoSuchModule'");
    expect_error("chart --stem 100000", 2, "");
    expect_error("chart C4 --stem 10", 2, "cofiber");
    expect_error("chart --stem 8 -o /nonexistent-dir/x.svg", 1,
                 "cannot write '/nonexistent-dir/x.svg'");
    struct stat st;
    if (stat("/dev/full", &st) == 0)
        expect_error("chart --stem 30 --quiet -o /dev/full", 1, "could not write '/dev/full'");
}
