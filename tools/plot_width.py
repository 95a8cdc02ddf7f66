#!/usr/bin/env python3
"""Plots 'time_ms ready running' samples (sched_sim.py --width) as an SVG:
the number of bidegrees available at once (ready + running) and the number
running, against time.

Usage: plot_width.py WIDTH.tsv OUT.svg "title"
"""
import sys


def main():
    src, out, title = sys.argv[1], sys.argv[2], sys.argv[3]
    pts = []
    for line in open(src):
        if line.startswith("time"):
            continue
        t, r, u = line.split()
        pts.append((float(t) / 1e3, int(r) + int(u), int(u)))
    if len(pts) > 1500:  # keep the file small: every k-th sample, plus the last
        k = len(pts) // 1500 + 1
        pts = pts[::k] + [pts[-1]]
    W, H, L, B = 800, 400, 60, 40
    tmax = max(p[0] for p in pts) or 1
    ymax = max(p[1] for p in pts) or 1
    sx = lambda t: L + (W - L - 20) * t / tmax
    sy = lambda y: H - B - (H - B - 30) * y / ymax
    o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
         f'<rect width="{W}" height="{H}" fill="white"/>',
         f'<text x="{W/2}" y="18" text-anchor="middle" font-size="14">{title}</text>',
         f'<line x1="{L}" y1="{H-B}" x2="{W-20}" y2="{H-B}" stroke="black"/>',
         f'<line x1="{L}" y1="{H-B}" x2="{L}" y2="30" stroke="black"/>']
    for k in range(6):
        t = tmax * k / 5
        o.append(f'<text x="{sx(t):.0f}" y="{H-B+16}" text-anchor="middle">{t:.0f}</text>')
        y = ymax * k / 5
        o.append(f'<text x="{L-6}" y="{sy(y)+4:.0f}" text-anchor="end">{y:.0f}</text>')
    o.append(f'<text x="{W/2}" y="{H-6}" text-anchor="middle">time (s)</text>')
    o.append(f'<text x="14" y="{H/2}" transform="rotate(-90 14 {H/2})" text-anchor="middle">bidegrees</text>')
    for idx, color, label in ((1, "#1f77b4", "available (ready + running)"), (2, "#d62728", "running")):
        path = " ".join(f"{'M' if i == 0 else 'L'}{sx(p[0]):.1f},{sy(p[idx]):.1f}" for i, p in enumerate(pts))
        o.append(f'<path d="{path}" fill="none" stroke="{color}" stroke-width="1.2"/>')
        yy = 40 + 16 * idx
        o.append(f'<line x1="{W-250}" y1="{yy}" x2="{W-225}" y2="{yy}" stroke="{color}" stroke-width="2"/>')
        o.append(f'<text x="{W-220}" y="{yy+4}">{label}</text>')
    o.append("</svg>")
    open(out, "w").write("\n".join(o) + "\n")


if __name__ == "__main__":
    main()
