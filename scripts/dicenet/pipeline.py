"""The reader's pipeline in Python, as package dice runs it in Go: find die centres, read each
die's face four times turned, decide. Used to measure held-out rigs and set the thresholds."""
import math

import numpy as np
import torch
import torch.nn.functional as F

import common

# Candidates: detector peaks at least this sure (dice.minPeak).
MIN_PEAK = 0.15
# At most this many candidates are read further (dice.maxCands).
MAX_CANDS = 24


def candidates(det, img):
    """[(peak, cx, cy, side)] in the frame's pixels, best first, from the detector's peaks."""
    lb, s = common.letterbox(img)
    with torch.no_grad():
        out = det(torch.from_numpy(common.det_input(lb)))[0]
    heat = out[0]
    peak = (F.max_pool2d(heat[None, None], 3, 1, 1)[0, 0] == heat) & (heat >= MIN_PEAK)
    ys, xs = torch.nonzero(peak, as_tuple=True)
    c = []
    for y, x in zip(ys.tolist(), xs.tolist()):
        side = math.exp(float(out[1, y, x])) / s
        cx = (x + float(out[2, y, x])) * common.STRIDE / s
        cy = (y + float(out[3, y, x])) * common.STRIDE / s
        c.append((float(heat[y, x]), cx, cy, side))
    c.sort(key=lambda t: -t[0])
    return c[:MAX_CANDS]


def face_probs(face, img, cands):
    """Per candidate, the face network's 7 probabilities averaged over four quarter turns."""
    if not cands:
        return np.zeros((0, 7), np.float32)
    return square_probs(face, np.stack([common.face_square(img, cx, cy, side) for _, cx, cy, side in cands]))


def square_probs(face, sq):
    """The face network's probabilities for squares B x FACE x FACE x 3, averaged over four turns."""
    turns = np.concatenate([np.rot90(sq, k, axes=(1, 2)) for k in range(4)])
    with torch.no_grad():
        p = torch.softmax(face(torch.from_numpy(common.face_input(np.ascontiguousarray(turns)))), 1).numpy()
    return p.reshape(4, len(sq), 7).mean(0)


def decide(cands, probs, th):
    """(status, values, dice) from candidates and their face probabilities under thresholds th:
    a die is a peak >= th['peak'] the face network does not call bare (p0 < 0.5), and one
    overlapping a stronger die is the same die. Each die's value must reach th['face']; a weaker
    peak whose face the network reads surely (a value >= th['doubt']) may be a missed die. Any doubt
    makes the frame unreadable: never guess."""
    dice, doubt = [], False
    kept = []
    for (pk, cx, cy, side), p in zip(cands, probs):
        if any(math.hypot(cx - k[1], cy - k[2]) < 0.5 * max(side, k[3]) for k in kept):
            continue
        isdie = pk >= th['peak'] and p[0] < 0.5
        if isdie:
            kept.append((pk, cx, cy, side))
            v = int(np.argmax(p[1:])) + 1
            conf = float(p[v] / max(1e-6, 1 - p[0]))
            sure = p[v] >= th['face']
            dice.append(dict(value=v, x=cx, y=cy, side=side, conf=float(p[v]), peak=pk, sure=bool(sure)))
            doubt |= not sure
        elif max(p[1:]) >= th['doubt'] and pk >= MIN_PEAK:
            doubt = True
    vals = sorted(d['value'] for d in dice)
    if not dice:
        return 'unreadable', [], dice
    return ('unreadable' if doubt else 'read'), vals, dice
