"""The same numbers as the program on shipped modules: Ext, the
filtration-one products, a product and a Massey product, the chart; and
threads = 1 and 2 give the same."""
import pytest

import adams
from conftest import cli, csv_of, products_text

# (module as named on the command line, stem): the sphere, a finite module,
# a shifted one, a module over a subalgebra (ko: a profile), an infinite one
# (truncated), the sphere at p = 3, names with a basis, tensor products, duals.
MODULES = [("S_2", 30), ("C2", 20), ("C2[2]", 16), ("ko", 30), ("RP_inf", 16), ("S_3", 40),
           ("Ceta[2]@adem", 18), ("Joker@milnor", 20), ("C2*Ceta", 16), ("C2[1]*Ceta", 16),
           ("C2*D(C2)", 16), ("D(Joker)[4]", 16)]


@pytest.mark.parametrize("module,stem", MODULES)
def test_ext_equals_program(module, stem):
    r = adams.resolve(module, stem=stem)
    _, out, _ = cli("resolve", module, "--stem", str(stem), "--format", "csv", "--quiet")
    assert csv_of(r) == out
    assert r.prime == (3 if module == "S_3" else 2)
    assert len(r.classes()) == sum(int(line.split(",")[2]) for line in out.split())


def test_h4_in_stem_15():
    r = adams.resolve("S_2", stem=40)
    assert r.ext(15, 1) == 1
    assert r.products((0, 0, 0))["h4"] == (15, 1, [1])


@pytest.mark.parametrize("module,stem", [("S_2", 24), ("C2", 16), ("ko", 20), ("S_3", 30)])
def test_products_equal_program(module, stem):
    r = adams.resolve(module, stem=stem)
    _, out, _ = cli("products", module, "--stem", str(stem), "--quiet")
    assert products_text(r) == out
    if r.prime == 3:  # and known values
        assert r.products((0, 0, 0)) == {"a0": (0, 1, [1]), "h0": (3, 1, [1]),
                                         "h1": (11, 1, [1])}
        assert r.products((0, 1, 0))["a0"] == (0, 2, [1])
        assert r.products((3, 1, 0))["a0"] == (3, 2, [])  # a0 h0 = 0: Ext^{2} is 0 there


def test_product_and_massey_equal_program():
    r = adams.resolve("S_2", stem=20)
    _, out, _ = cli("product", "--class", "14,4,0", "--by", "0,1,0", "--quiet")
    assert r.product((14, 4, 0), (0, 1, 0)) == (14, 5, [1])
    assert out == "x_(14, 4) [1] * y_(0, 1) [1] = [1] at (14, 5)\n"
    # <h1, h0, h1> = h0 h2, <h0, h1, h0> = h1^2 (no indeterminacy)
    assert r.massey((1, 1, 0), (0, 1, 0), (1, 1, 0)) == (3, 2, [1], [])
    assert r.massey((0, 1, 0), (1, 1, 0), (0, 1, 0)) == (2, 2, [1], [])
    _, out, _ = cli("massey", "--a", "1,1,0", "--b", "0,1,0", "--c", "1,1,0", "--quiet")
    assert out == "<a, b, c> = [1] at (3, 2)\nindeterminacy: 0\n"
    # A vector class and a product over C2.
    c2 = adams.resolve("C2", stem=12)
    _, out, _ = cli("product", "C2", "--class", "0,0,[1]", "--by", "1,1,0", "--quiet")
    x = c2.product((0, 0, [1]), (1, 1, 0))
    assert out == "x_(0, 0) [1] * y_(1, 1) [1] = [%s] at (1, 1)\n" % ", ".join(map(str, x[2]))


def test_svg_equals_program(tmp):
    r = adams.resolve("S_2", stem=20)
    cli("chart", "S_2", "--stem", "20", "-o", str(tmp / "c.svg"), "--quiet")
    svg = r._repr_svg_()
    assert svg == (tmp / "c.svg").read_text()
    assert svg.count("<circle") == len(r.classes())


def test_threads_do_not_change_results():
    r1 = adams.resolve("S_2", stem=40, threads=1)
    r2 = adams.resolve("S_2", stem=40, threads=2)
    assert r1.max_s == r2.max_s
    assert csv_of(r1) == csv_of(r2)
    assert r1.products() == r2.products()
    assert r1.svg() == r2.svg()


def test_resolution_object():
    with adams.resolve("C2", stem=10) as r:
        assert r.module == "C2" and r.prime == 2 and r.min_stem == 0 and r.stem == 10
        assert r.engine in ("classical", "nassau")
        assert "C2" in repr(r)
    with pytest.raises(adams.StateError):
        r.ext(0, 0)


def test_odd_prime_products_and_massey():
    r = adams.resolve("S_3", stem=30)
    h0 = (3, 1, 0)
    assert r.product(h0, h0) == (6, 2, [])                      # h0^2 = 0: Ext is 0 there
    m = r.massey(h0, h0, h0)                                    # b_0 = <h0, h0, h0>
    assert (m.stem, m.s, m.indeterminacy) == (10, 2, []) and m.value in ([1], [2])
    _, out, _ = cli("massey", "S_3", "--a", "3,1,0", "--b", "3,1,0", "--c", "3,1,0", "--quiet")
    assert out == "<a, b, c> = [%d] at (10, 2)\nindeterminacy: 0\n" % m.value[0]
    _, out, _ = cli("product", "S_3", "--class", "10,2,0", "--by", "0,1,0", "--quiet")
    assert r.product((10, 2, 0), (0, 1, 0)) == (10, 3, [1])    # a0 b0
    assert out == "x_(10, 2) [1] * y_(0, 1) [1] = [1] at (10, 3)\n"
    assert r.product((0, 0, 0), (10, 2, 0)) == (10, 2, [1])     # 1 . b_0 = b_0


@pytest.mark.parametrize("module,stem", [("C4", 20), ("Ceta2", 16)])
def test_cofiber_ext_equals_program(module, stem):
    r = adams.resolve(module, stem=stem, threads=2)
    _, out, _ = cli("resolve", module, "--stem", str(stem), "--format", "csv", "--quiet")
    assert r.cofiber and csv_of(r) == out
    assert csv_of(adams.resolve(module, stem=stem, threads=1)) == out
    for call in (lambda: r.products((0, 0, 0)), lambda: r.products(), r.svg,
                 lambda: r.product((0, 0, 0), (0, 1, 0))):
        with pytest.raises(adams.InputError) as e:
            call()
        assert "cofiber" in str(e.value)
    assert r._repr_svg_() is None and r.filtration_one() == []
