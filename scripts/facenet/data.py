"""Training crops for the face network (camera/facenet.go).

Reads the squares the reader's network would look at (`cantstop dice bench --crops`), labels
each from the photo folder's boxes.csv (the labelled box holding the square's centre, nearest
first; 0, "no top face", when none does) or, for a folder without boxes and a photo of one
die with one candidate, from labels.csv. Adds a square round every labelled box (dice the
reader missed), one half a die off each (label 0) and three of the bare tray (label 0), and
cuts each square several times turned, mirrored, shifted and scaled at random.
"""
import csv, json, math, os, random
from collections import defaultdict

import cv2
import numpy as np

SIDE = 32  # camera.netSide


def labels(folder):
    with open(os.path.join(folder, 'labels.csv')) as f:
        return {r['file']: sorted(int(v) for v in r['values'].split()) for r in csv.DictReader(f)}


def boxes(folder):
    out = defaultdict(list)
    p = os.path.join(folder, 'boxes.csv')
    if os.path.exists(p):
        with open(p) as f:
            for r in csv.DictReader(f):
                out[r['file']].append((int(r['value']), int(r['x0']), int(r['y0']), int(r['x1']), int(r['y1'])))
    return out


def box_value(bxs, x, y):
    best, bd = 0, math.inf
    for v, x0, y0, x1, y1 in bxs:
        if x0 <= x < x1 and y0 <= y < y1:
            d = (x - (x0 + x1) / 2) ** 2 + (y - (y0 + y1) / 2) ** 2
            if d < bd:
                best, bd = v, d
    return best


def box_scale(crops, bxs):
    """The folder's square side per labelled box side: its photographer may box the whole die
    or only its top face, so it is measured, not assumed."""
    r = []
    for c in crops:
        for v, x0, y0, x1, y1 in bxs[c['file']]:
            if x0 <= c['x'] < x1 and y0 <= c['y'] < y1:
                r.append(c['side'] / max(x1 - x0, y1 - y0))
                break
    return float(np.median(r)) if r else 1.5


def cut(img, cx, cy, s, ang):
    """The square of side s at (cx, cy) turned by ang degrees, resampled to SIDE pixels as
    camera.netInput does (smoothed first when it shrinks)."""
    sc = SIDE / s
    if sc < 0.7:
        img = cv2.GaussianBlur(img, (0, 0), 0.45 / sc)
    M = cv2.getRotationMatrix2D((cx, cy), ang, sc)
    M[0, 2] += SIDE / 2 - cx
    M[1, 2] += SIDE / 2 - cy
    return cv2.warpAffine(img, M, (SIDE, SIDE), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def hard(c):
    """Whether the reader refused the square's die for pips in no layout: the dice the
    network is there for (camera.netRead), few among the dice it is trained on."""
    return 'no canonical layout' in c.get('why', '')


def squares(crops, bxs, lab, scale, rng):
    """(x, y, side, label, hard) for one photo."""
    out = []
    for c in crops:
        if bxs:
            out.append((c['x'], c['y'], c['side'], box_value(bxs, c['x'], c['y']), hard(c)))
        elif len(lab) == 1 and len(crops) == 1:
            out.append((c['x'], c['y'], c['side'], lab[0], hard(c)))
    for v, x0, y0, x1, y1 in bxs:
        s = scale * max(x1 - x0, y1 - y0)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        out.append((cx, cy, s, v, False))
        a, r = rng.uniform(0, 2 * math.pi), rng.uniform(0.37, 0.53) * s
        out.append((cx + r * math.cos(a), cy + r * math.sin(a), s, 0, False))
    return out


def bare(img, bxs, scale, rng):
    if not bxs:
        return []
    s = scale * max(max(x1 - x0, y1 - y0) for _, x0, y0, x1, y1 in bxs)
    out = []
    for _ in range(3):
        for _ in range(20):
            x, y = rng.uniform(0, img.shape[1]), rng.uniform(0, img.shape[0])
            m = 0.2 * s
            if all(not (x0 - m <= x <= x1 + m and y0 - m <= y <= y1 + m) for _, x0, y0, x1, y1 in bxs):
                out.append((x, y, s, 0, False))
                break
    return out


def build(crops_file, folders, select, variants, seed=1, hard_times=1):
    """Crops of the photos in folders whose die count passes select, each cut variants times
    (hard_times as often for the dice the pip fitter refused)."""
    rng = random.Random(seed)
    by = defaultdict(list)
    with open(crops_file) as f:
        for line in f:
            c = json.loads(line)
            by[(c['set'], c['file'])].append(c)
    X, Y = [], []
    for folder in folders:
        name = os.path.basename(os.path.normpath(folder))
        lab, bx = labels(folder), boxes(folder)
        scale = box_scale([c for (s, _), cs in by.items() if s == name for c in cs], bx)
        for file, vals in sorted(lab.items()):
            if not select(len(vals)):
                continue
            img = cv2.imread(os.path.join(folder, file))
            if img is None:
                raise SystemExit(f'{folder}/{file}: cannot decode')
            sq = squares(by[(name, file)], bx[file], vals, scale, rng) + bare(img, bx[file], scale, rng)
            for x, y, s, v, h in sq:
                for _ in range(variants * (hard_times if h else 1)):
                    p = cut(img, x + rng.uniform(-0.06, 0.06) * s, y + rng.uniform(-0.06, 0.06) * s,
                            s * rng.uniform(0.85, 1.2), rng.uniform(0, 360))
                    X.append(p[:, ::-1] if rng.random() < 0.5 else p)
                    Y.append(v)
    return np.array(X, dtype=np.uint8), np.array(Y, dtype=np.int64)
