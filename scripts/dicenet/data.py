"""Training samples: detector frames (a photo framed at a random die size, turned and lit as
another rig's) and face squares (every labelled die, crop-set dice, drawn dice and the tray)."""
import math

import cv2
import numpy as np

import augment
import common

GRID = common.DET // common.STRIDE


def det_sample(img, dice, rng):
    """One detector input (DET x DET BGR) and its targets: heat (GRID x GRID), and per cell the
    log side, the offset in the cell and a mask of the cells that carry them."""
    h, w = img.shape[:2]
    D = common.DET
    if rng.random() < 0.25:  # exactly as the reader frames a photo
        s, ang = D / max(h, w), 0.0
        M = np.float32([[s, 0, 0], [0, s, 0]])
        border = dict(borderMode=cv2.BORDER_CONSTANT, borderValue=(common.PAD,) * 3)
    else:
        med = float(np.median([d[3] for d in dice])) if dice else max(h, w) / 10
        s = math.exp(rng.uniform(math.log(7), math.log(140))) / med
        s = max(s, 0.3 * D / max(h, w))
        ang = rng.uniform(-180, 180) if rng.random() < 0.5 else 0.0
        if dice and rng.random() < 0.7:
            _, px, py, side = dice[rng.integers(len(dice))]
            px, py = px + rng.uniform(-0.4, 0.4) * D / s, py + rng.uniform(-0.4, 0.4) * D / s
        else:
            px, py = rng.uniform(0, w), rng.uniform(0, h)
        M = cv2.getRotationMatrix2D((px, py), ang, s)
        M[:, 2] += (D / 2 - px, D / 2 - py)
        if rng.random() < 0.5:
            border = dict(borderMode=cv2.BORDER_REPLICATE)
        else:
            border = dict(borderMode=cv2.BORDER_CONSTANT, borderValue=tuple(int(v) for v in rng.integers(0, 256, 3)))
    x = cv2.warpAffine(img, M, (D, D), flags=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR, **border)
    x = augment.photometric(x, rng)
    heat = np.zeros((GRID, GRID), np.float32)
    reg = np.zeros((3, GRID, GRID), np.float32)
    mask = np.zeros((GRID, GRID), np.float32)
    ys, xs = np.mgrid[0:GRID, 0:GRID]
    for _, cx, cy, side in dice:
        X, Y = M @ np.float32([cx, cy, 1])
        S = side * s
        if not (0 <= X < D and 0 <= Y < D) or S < 3:
            continue
        gx, gy = X / common.STRIDE, Y / common.STRIDE
        sig = max(0.6, S / common.STRIDE * 0.15)
        heat = np.maximum(heat, np.exp(-((xs + 0.5 - gx) ** 2 + (ys + 0.5 - gy) ** 2) / (2 * sig * sig)))
        ix, iy = int(gx), int(gy)
        heat[iy, ix] = 1.0
        reg[:, iy, ix] = (math.log(S), gx - ix, gy - iy)
        mask[iy, ix] = 1
    return x, heat, reg, mask


def photo_squares(img, dice, rng, per_die=3, min_side=0):
    """Face squares of a photo: per_die framings of each labelled die at least min_side pixels
    across (its value), and squares off the dice (0): half a die or more off each, and of the
    bare tray."""
    X, Y = [], []
    h, w = img.shape[:2]
    centres = np.float32([(d[1], d[2]) for d in dice]).reshape(-1, 2)

    def far(x, y, side, k):
        return len(centres) == 0 or np.min(np.hypot(centres[:, 0] - x, centres[:, 1] - y) / side) >= k
    for v, cx, cy, side in dice:
        if side < min_side:
            continue
        for _ in range(per_die):
            X.append(augment.square_variant(img, cx, cy, side, rng))
            Y.append(v)
        a = rng.uniform(0, 2 * math.pi)
        r = rng.uniform(0.65, 1.0) * side
        x, y = cx + r * math.cos(a), cy + r * math.sin(a)
        if far(x, y, side, 0.6):
            X.append(augment.square_variant(img, x, y, side, rng, shift=0))
            Y.append(0)
    sides = [d[3] for d in dice] or [max(h, w) / 10]
    for _ in range(2 + len(dice) // 2):
        side = sides[rng.integers(len(sides))] * rng.uniform(0.7, 1.4)
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        if far(x, y, side, 0.75):
            X.append(augment.square_variant(img, x, y, side, rng, shift=0))
            Y.append(0)
    return X, Y


def mined_squares(img, dice, cands, rng, sized=True, min_side=0):
    """Squares framed as the detector frames them: a peak on a labelled die (within 0.3 of its
    side) at about its size is labelled with its value; a peak on no die, or on a part of one (a
    pip taken for a small die), is labelled 0 — the detector's false hits. Peaks nearest a die
    under min_side pixels give no square: too small to read, it is no false hit either."""
    X, Y = [], []
    for pk, x, y, side in cands:
        best, bd, bs = None, math.inf, 1.0
        for v, cx, cy, s in dice:
            d = math.hypot(x - cx, y - cy) / (s if sized else side)
            if d < bd:
                best, bd, bs = v, d, s
        ratio = side / bs if sized else 1.0
        if bs < min_side and bd < 1.0:
            continue
        if bd < (0.3 if sized else 0.45) and 0.65 <= ratio <= 1.6:
            X.append(augment.square_variant(img, x, y, side, rng, shift=0.03, scale=(0.95, 1.05)))
            Y.append(best)
        elif bd > (0.6 if sized else 1.0) or (bd < 0.75 and ratio < 0.6):
            for _ in range(2):
                X.append(augment.square_variant(img, x, y, side, rng, shift=0.05, scale=(0.9, 1.1)))
                Y.append(0)
    return X, Y


def cropset_squares(crops, name, rng, per=2):
    X, Y = [], []
    k = common.CROP_DIE[name]
    for img, v in crops:
        h, w = img.shape[:2]
        for _ in range(per):
            X.append(augment.square_variant(img, w / 2, h / 2, k * max(h, w), rng, shift=0.05, scale=(0.9, 1.15)))
            Y.append(v)
    return X, Y


def face_set(photos, cropsets, rng, find=None, min_side=None):
    """Face squares of photos = [(rig, [(file, img, labels, dice)])] and cropsets = [(name, crops)];
    find(img) -> candidates adds the detector's own framings and false hits (mined_squares);
    min_side: {rig: the smallest die of it that is read} (rendered scenes' dice of a few pixels
    would teach the network to guess)."""
    X, Y = [], []
    for rig, items in photos:
        sized = rig not in common.UNSIZED
        least = (min_side or {}).get(rig, 0)
        for _, img, _, dice in items:
            if sized:
                x, y = photo_squares(img, dice, rng, min_side=least)
                X += x
                Y += y
            if find is not None and dice:
                x, y = mined_squares(img, dice, find(img), rng, sized, least)
                X += x
                Y += y
    for name, crops in cropsets:
        x, y = cropset_squares(crops, name, rng)
        X += x
        Y += y
    return np.stack(X), np.int64(Y)
