"""Stores written from Python: read by `adams ext`, reopened with
adams.open, resumed and extended as `adams resolve --save` does."""
import adams
from conftest import cli, csv_of


def test_store_read_by_program(tmp):
    db = tmp / "s2.db"
    r = adams.resolve("S_2", stem=24, threads=2, save=db)
    _, out, _ = cli("ext", str(db), "--format", "csv")
    _, plain, _ = cli("resolve", "S_2", "--stem", "24", "--format", "csv", "--quiet")
    assert out == plain == csv_of(r)


def test_store_reopened_and_extended(tmp):
    db = tmp / "c2.db"
    adams.resolve("C2", stem=12, save=db)
    o = adams.open(db)
    assert (o.module, o.stem, o.prime) == ("C2", 12, 2)
    assert csv_of(o) == csv_of(adams.resolve("C2", stem=12))
    assert o.products() == adams.resolve("C2", stem=12).products()
    o.close()
    r = adams.resolve("C2", stem=18, save=db)          # extends the store in place
    _, out, _ = cli("ext", str(db), "--format", "csv")
    assert out == csv_of(r) == csv_of(adams.open(db))
    assert adams.open(db).stem == 18


def test_store_written_by_program(tmp):
    db = tmp / "prog.db"
    cli("resolve", "S_2", "--stem", "16", "--save", str(db), "--quiet")
    o = adams.open(str(db))
    assert o.ext(15, 1) == 1 and o.stem == 16
    assert o.product((14, 4, 0), (0, 1, 0)) == (14, 5, [1])


def test_store_at_an_odd_prime(tmp):
    db = tmp / "s3.db"
    adams.resolve("S_3", stem=24, save=db)
    o = adams.open(db)
    assert (o.prime, o.stem) == (3, 24) and o.ext(10, 2) == 1   # b_0
    r = adams.resolve("S_3", stem=32, save=db)                  # extended in place
    _, out, _ = cli("ext", str(db), "--format", "csv")
    _, plain, _ = cli("resolve", "S_3", "--stem", "32", "--format", "csv", "--quiet")
    assert out == plain == csv_of(r) == csv_of(adams.open(db))


def test_store_of_a_truncated_infinite_module(tmp):
    db = tmp / "rp.db"
    adams.resolve("RP_inf", stem=14, save=db)                   # identified by its definition
    r = adams.resolve("RP_inf", stem=18, save=db)               # extended: the truncation grows
    assert csv_of(adams.open(db)) == csv_of(r)
    cli("resolve", "RP_inf", "--stem", "20", "--save", str(db), "--quiet")   # the program agrees
    _, out, _ = cli("resolve", "RP_inf", "--stem", "20", "--format", "csv", "--quiet")
    assert csv_of(adams.open(db)) == out
    cli("check", str(db))
