"""Bad input raises adams.Error subclasses with the library's one-line
message; the interpreter never crashes."""
import pytest

import adams
from conftest import cli


def one_line(e):
    msg = str(e.value)
    assert msg and "\n" not in msg
    return msg


def test_unknown_module():
    with pytest.raises(adams.InputError) as e:
        adams.resolve("no_such_module_xyz", stem=10)
    assert "unknown module 'no_such_module_xyz'" in one_line(e)


def test_bad_names():
    with pytest.raises(adams.InputError) as e:
        adams.resolve("C2[1", stem=10)
    assert "'['" in one_line(e)
    with pytest.raises(adams.InputError):
        adams.resolve("", stem=10)
    with pytest.raises(adams.InputError):
        adams.resolve(42, stem=10)
    with pytest.raises(adams.InputError) as e:
        adams.resolve("Ceta@serre", stem=10)
    assert one_line(e) == ("module 'Ceta@serre': unknown basis 'serre' after '@' (expected "
                           "milnor or adem)")


@pytest.mark.parametrize("name", ["C2*", "*C2", "C2*no_such_module_xyz", "C2*Ceta@serre",
                                  "a*b*c*d*e*f*g*h*i", "C2*C3"])
def test_bad_tensor_product_as_program(name):
    with pytest.raises(adams.InputError) as e:
        adams.resolve(name, stem=10)
    rc, _, err = cli("resolve", name, "--stem", "10", check=False)
    assert rc == 2 and err == "adams: %s\n" % one_line(e)


def test_bad_file(tmp):
    f = tmp / "bad.json"
    f.write_text('{"p": 2, "gens": {"x0": 0, "x1": 1}, "actions": ["Sq1 x0 = x7"]}')
    with pytest.raises(adams.InputError) as e:
        adams.resolve(str(f), stem=10)
    assert "bad.json" in one_line(e)
    f.write_text('{"p": 2, "gens": {')
    with pytest.raises(adams.InputError) as e:
        adams.resolve(str(f), stem=10)
    assert "bad.json" in one_line(e)
    with pytest.raises(adams.InputError):
        adams.resolve(str(tmp / "missing.json"), stem=10)


def test_module_file_and_shift(tmp):
    f = tmp / "mine.json"
    f.write_text('{"p": 2, "gens": {"x0": 0, "x1": 1}, "actions": ["Sq1 x0 = x1"]}')
    assert adams.resolve(f, stem=5).module == "mine"          # a pathlib.Path too
    r = adams.resolve(str(f) + "[3]", stem=12)
    c2 = adams.resolve("C2", stem=9)
    assert r.min_stem == 3
    assert [r.ext(n + 3, s) for n in range(10) for s in range(6)] == \
        [c2.ext(n, s) for n in range(10) for s in range(6)]


def test_region_too_large():
    with pytest.raises(adams.InputError) as e:
        adams.resolve("S_2", stem=10**7)
    one_line(e)
    with pytest.raises(adams.InputError):
        adams.resolve("S_2", stem=-5)
    with pytest.raises(adams.MemoryLimitError) as e:
        adams.resolve("S_2", stem=120, max_memory=10e6)
    assert "memory" in one_line(e)
    with pytest.raises(adams.InputError):
        adams.resolve("S_2", stem=10, threads=100000)
    with pytest.raises(adams.InputError):
        adams.resolve("S_2", stem=10, max_memory=-1)



def test_refused_runs_create_no_store(tmp):
    with pytest.raises(adams.MemoryLimitError):
        adams.resolve("S_2", stem=120, max_memory=10e6, save=tmp / "big.db")
    with pytest.raises(adams.InputError):
        adams.resolve("S_2", stem=10**7, save=tmp / "huge.db")
    assert list(tmp.iterdir()) == []


def test_bad_classes():
    r = adams.resolve("S_2", stem=20)
    with pytest.raises(adams.InputError) as e:
        r.ext(21, 0)
    assert "outside" in one_line(e)
    with pytest.raises(adams.InputError) as e:
        r.products((15, 1, 1))                 # Ext there is one-dimensional
    assert "does not exist" in one_line(e)
    with pytest.raises(adams.InputError) as e:
        r.products((15, 1, [1, 0]))            # too long
    assert "entries" in one_line(e)
    with pytest.raises(adams.InputError) as e:
        r.products((15, 1, [2]))               # not mod 2
    assert "0..1" in one_line(e)
    with pytest.raises(adams.InputError) as e:
        r.products((2, 1, [1]))                # Ext^{1,3} = 0
    assert "zero" in one_line(e)
    with pytest.raises(adams.InputError) as e:
        r.product((15, 1, 0), (15, 1, 0))      # lands beyond stem 20
    assert "outside" in one_line(e)
    with pytest.raises(adams.InputError) as e:
        r.product((0, 0, 0), (-1, 1, [1]))
    one_line(e)
    with pytest.raises(adams.InputError) as e:
        r.massey((0, 1, 0), (0, 1, 0), (0, 0, 0))   # h0 h0 != 0
    assert "not defined" in one_line(e)
    with pytest.raises(adams.InputError):
        r.products((1, 2))
    with pytest.raises(adams.InputError):
        r.products(5)
    with pytest.raises(adams.InputError):
        r.ext(2**32 + 15, 1)                   # would wrap to (15, 1) in an int32_t
    with pytest.raises(adams.InputError):
        r.products((15, 1, [2**32 + 1]))       # would wrap to 1
    with pytest.raises(adams.InputError):
        r.products((15, 1.0, 0))
    with pytest.raises(adams.InputError):
        adams.resolve("S_2", stem=2**32 + 10)


def test_store_errors(tmp):
    with pytest.raises(adams.StoreError):
        adams.open(tmp / "missing.db")
    (tmp / "junk.db").write_bytes(b"not a store at all" * 100)
    with pytest.raises(adams.StoreError) as e:
        adams.open(tmp / "junk.db")
    one_line(e)
    adams.resolve("S_2", stem=8, save=tmp / "s.db")
    with pytest.raises(adams.StoreError) as e:
        adams.resolve("C2", stem=8, save=tmp / "s.db")     # another module
    one_line(e)
    with pytest.raises(adams.InputError) as e:     # C4 = the cofiber of h0^2 on C2
        adams.resolve("C4", stem=8, save=tmp / "c4.db")
    assert "cofiber" in one_line(e)
