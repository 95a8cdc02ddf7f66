#!/usr/bin/env python3
# Writes tests/data/d2-sphere-isaksen.txt from the chart data file ASS-S_2.json of
# github.com/hoodmane/js_spectralsequences (see the header written below for the
# citation).  Usage:
#   git -C <clone of hoodmane/js_spectralsequences> show \
#     85ce95a:json/ASS-S_2.json > ASS-S_2.json
#   python3 d2-sphere-isaksen.gen.py ASS-S_2.json > d2-sphere-isaksen.txt
# Only the names are interpreted here (written as factors for the test): a name
# is split into atoms (h_i, c_i, d_i, ..., Q', x', B_{21}; "P^k X", the periodicity
# operator applied to one atom X, is an atom), each with its exponent, and sums
# (" + ") into terms; a name whose terms' bidegrees do not add up to the class's
# position, or that does not parse (empty names, P^k applied to a product, a sum with
# a term of no class) is written "-", and the three classes of (31, 8-10) that the
# chart is inconsistent about "?" (see below); the test finds those from their lines
# or as the other basis vector of their bidegree.
import json, re, sys

MAX_N, MAX_S = 61, 33
ATOM = re.compile(r"(h_\d|c_\d|d_\d|e_\d|f_\d|g_\d|B_\{21\}|B_\d|D_\d|R_\d|Q_\d|X_\d"
                  r"|Q'|x'|A'|[ABCGNP]|[g-z])")
EXP = re.compile(r"\^\{?(\d+)\}?")


def tokens(name):
    out, pos, pend = [], 0, 0
    while pos < len(name):
        m = ATOM.match(name, pos)
        if not m:
            raise ValueError(name)
        a, pos, e = m.group(1), m.end(), 1
        m2 = EXP.match(name, pos)
        if m2:
            e, pos = int(m2.group(1)), m2.end()
        if a == 'P':
            pend += e
            continue
        if pend:
            # P^k applies to the whole product after it: only P^k of one atom is
            # an atom here (P^k(x y) need not be (P^k x) y)
            if e > 1 or pos < len(name):
                raise ValueError(name)
            out.append(('P%d%s' % (pend, a), 1))
            pend = 0
        else:
            out.append((a, e))
    if pend or not out:
        raise ValueError(name)
    return out


def reading(name):
    """The chart's name as a sum of products ("h_1^3 = h_0^2h_2": the first)."""
    return name.split(' = ')[0]


def main():
    d = json.load(open(sys.argv[1]))
    C = d['classes']
    keep = [i for i, c in enumerate(C) if 0 <= c['x'] <= MAX_N and c['y'] <= MAX_S]
    # an atom's bidegree: where the chart has a class named by that atom alone
    atom_at = {}
    for i in keep:
        c = C[i]
        try:
            t = tokens(c['name'].split(' = ')[0])
        except ValueError:
            continue
        if len(t) == 1 and t[0][1] == 1 and not t[0][0].startswith('h_'):
            atom_at.setdefault(t[0][0], (c['x'], c['y']))
    ids = {}
    lines = []
    for i in sorted(keep, key=lambda i: (C[i]['x'], C[i]['y'], C[i]['name'])):
        c = C[i]
        ids[i] = len(ids)
        fac = '-'
        try:
            terms = []
            for term in reading(c['name']).split('+'):
                t = tokens(term.strip())
                n = s = 0
                words = []
                for a, e in t:
                    if a.startswith('h_'):
                        k = int(a[2:])
                        n, s = n + e * ((1 << k) - 1), s + e
                        words.append('h%d' % k + ('^%d' % e if e > 1 else ''))
                    else:
                        an, as_ = atom_at[a]
                        n, s = n + e * an, s + e * as_
                        words.append('%s@%d,%d' % (re.sub(r'[_{}]', '', a), an, as_)
                                     + ('^%d' % e if e > 1 else ''))
                if (n, s) != (c['x'], c['y']):
                    raise ValueError(c['name'])
                terms.append(' '.join(words))
            fac = ' + '.join(terms)
        except (ValueError, KeyError):
            pass
        if c['x'] == 31 and 8 <= c['y'] <= 10 and c['name'].startswith('d_0e_0 +'):
            # inconsistent in the chart: the h_0 line from "d_0e_0 + h_0^7h_5" and the
            # h_2 line from d_0^2 (h_2 d_0^2 = h_0 d_0 e_0) end on the same class,
            # which would make h_0^8 h_5 zero
            fac = '?'
        page = c['page_list'][0]
        lines.append('c %d %d %d %d %s ; %s' % (ids[i], c['x'], c['y'], page, fac,
                                                 c['name'] if c['name'] else '(no name)'))
    arrows = []
    for e in d['edges']:
        if e['type'] == 'Differential' and e['page'] == 2 and e['source'] in ids:
            if e['target'] not in ids:
                raise SystemExit('target out of range')
            arrows.append((ids[e['source']], ids[e['target']]))
    for a, b in sorted(arrows):
        lines.append('d %d %d' % (a, b))
    lines_h = []
    for e in d['edges']:
        if e['type'] == 'Structline' and e['source'] in ids and e['target'] in ids:
            a, b = C[e['source']], C[e['target']]
            i = {(0, 1): 0, (1, 1): 1, (3, 1): 2}[(b['x'] - a['x'], b['y'] - a['y'])]
            lines_h.append((ids[e['source']], ids[e['target']], i, e['page']))
    for a, b, i, page in sorted(lines_h):
        lines.append('h %d %d %d %d' % (a, b, i, page))
    print('\n'.join(lines))


main()
