"""What training and the Go reader (package dice) must agree on: input sizes, how a frame
becomes the detector's input, how a die becomes the face network's square, and the photo sets."""
import csv
import os
from collections import defaultdict

import cv2
import numpy as np

DET = 320        # the detector's square input (dice.detSide)
STRIDE = 4       # its output grid step: DET/STRIDE cells a side
FACE = 40        # the face network's square (dice.faceSide)
CROP = 1.25      # a face square's side per die side (dice.cropScale)
PAD = 114        # the letterbox's grey

RIGS = ['nell-byler', 'matteop65', 'epanemu', 'tai-studio']
CROPSETS = ['crops-casino', 'crops-white']
# Box side -> whole die side: matteop65 boxes the top face only.
BOX_TO_DIE = {'matteop65': 1.2}
# Rigs whose boxes say where a die is but not how big: matteop65's are often round part of the
# top face only. Their dice's face squares are cut as the detector frames them
# (data.mined_squares).
UNSIZED = {'matteop65'}
# Rigs the detector does not learn from. Trained on matteop65's boxes, even as centres alone, it
# gave that rig's clear ivory dice no peak: a fold read it 81.3% trained on them, 89.0% without
# (BENCHMARKS-dice).
NO_DETECTOR = {'matteop65'}
# Die side per crop side in the crop sets (measured by eye on a sample of each).
CROP_DIE = {'crops-casino': 0.85, 'crops-white': 0.46}


def letterbox(img):
    """img (BGR uint8) -> (DET x DET image, scale): shrunk so its longer side is DET, at the
    top left, grey to the right and below (dice.letterbox)."""
    h, w = img.shape[:2]
    s = DET / max(h, w)
    nw, nh = max(1, round(w * s)), max(1, round(h * s))
    r = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    out = cv2.copyMakeBorder(r, 0, DET - nh, 0, DET - nw, cv2.BORDER_CONSTANT, value=(PAD, PAD, PAD))
    return out, s


def det_input(img):
    """DET x DET BGR uint8 -> 1 x 3 x DET x DET float32 (dice.detBlob: values/255)."""
    return (img.astype(np.float32) / 255.0).transpose(2, 0, 1)[None]


def face_square(img, cx, cy, side):
    """The FACE x FACE square round a die of the given side centred at (cx, cy) (dice.faceSquare):
    a square of CROP*side pixels, rounded to whole pixels, the frame's edge replicated past it,
    shrunk (or grown) to FACE."""
    n = max(4, int(round(CROP * side)))
    x0, y0 = int(round(cx - n / 2)), int(round(cy - n / 2))
    h, w = img.shape[:2]
    px0, py0, px1, py1 = max(0, -x0), max(0, -y0), max(0, x0 + n - w), max(0, y0 + n - h)
    sub = img[max(0, y0):min(h, y0 + n), max(0, x0):min(w, x0 + n)]
    if sub.size == 0:
        sub = np.full((n, n, 3), PAD, np.uint8)
    elif px0 or py0 or px1 or py1:
        sub = cv2.copyMakeBorder(sub, py0, py1, px0, px1, cv2.BORDER_REPLICATE)
    interp = cv2.INTER_AREA if n > FACE else cv2.INTER_LINEAR
    return cv2.resize(sub, (FACE, FACE), interpolation=interp)


def zoom_square(img, cx, cy, z, side):
    """(square, scale, x0, y0): the side x side detector input round (cx, cy) at scale z (dice.zoomSquare):
    a square of n = side/z frame pixels, rounded to whole pixels, from (x0, y0), the letterbox's grey
    past the frame's edge, resized to side; scale is side/n."""
    n = max(4, int(round(side / z)))
    x0, y0 = int(round(cx - n / 2)), int(round(cy - n / 2))
    h, w = img.shape[:2]
    sub = np.full((n, n, 3), PAD, np.uint8)
    ix0, iy0, ix1, iy1 = max(0, x0), max(0, y0), min(w, x0 + n), min(h, y0 + n)
    if ix1 > ix0 and iy1 > iy0:
        sub[iy0 - y0:iy1 - y0, ix0 - x0:ix1 - x0] = img[iy0:iy1, ix0:ix1]
    if n != side:
        sub = cv2.resize(sub, (side, side), interpolation=cv2.INTER_AREA if n > side else cv2.INTER_LINEAR)
    return sub, side / n, x0, y0


def face_input(squares):
    """B x FACE x FACE x 3 uint8 -> B x 3 x FACE x FACE float32 (dice.faceBlob): each channel less
    its mean, over the square's spread + 0.02 (light and colour cast do not matter)."""
    x = squares.astype(np.float32).transpose(0, 3, 1, 2) / 255.0
    x = x - x.mean(axis=(2, 3), keepdims=True)
    return x / (x.std(axis=(1, 2, 3), keepdims=True) + 0.02)


def read_labels(folder):
    with open(os.path.join(folder, 'labels.csv')) as f:
        return {r['file']: sorted(int(v) for v in r['values'].split()) for r in csv.DictReader(f)}


def read_boxes(folder):
    out = defaultdict(list)
    p = os.path.join(folder, 'boxes.csv')
    if os.path.exists(p):
        with open(p) as f:
            for r in csv.DictReader(f):
                out[r['file']].append((int(r['value']), *(float(r[k]) for k in ('x0', 'y0', 'x1', 'y1'))))
    return out


def load_rig(shared, rig):
    """[(file, image, labels, dice)] of a photo set; dice are (value, cx, cy, side) with side the
    whole die's (BOX_TO_DIE). tai-studio has no boxes: its one die is found by its labels alone."""
    folder = os.path.join(shared, rig)
    labels, boxes = read_labels(folder), read_boxes(folder)
    k = BOX_TO_DIE.get(rig, 1.0)
    out = []
    for f in sorted(labels):
        img = cv2.imread(os.path.join(folder, f), cv2.IMREAD_COLOR)
        if img is None:
            continue
        dice = [(v, (x0 + x1) / 2, (y0 + y1) / 2, max(x1 - x0, y1 - y0) * k) for v, x0, y0, x1, y1 in boxes[f]]
        out.append((f, img, labels[f], dice))
    return out


def group(rig, f):
    """Photos that must stay on one side of a split: epanemu's augmented copies share dice_N."""
    return f.split('_jpg')[0] if rig == 'epanemu' else f


def load_cropset(shared, name):
    """[(image, value)] of a crop set (folder = value)."""
    out = []
    for v in range(1, 7):
        d = os.path.join(shared, name, str(v))
        for f in sorted(os.listdir(d)):
            img = cv2.imread(os.path.join(d, f), cv2.IMREAD_COLOR)
            if img is not None:
                out.append((img, v))
    return out
