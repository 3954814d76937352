"""The reader's pipeline in Python, as package dice runs it in Go: find die centres, look closer
at the weak ones, read each die's face four times turned, decide. Used to measure held-out rigs
and set the thresholds."""
import math

import numpy as np
import torch
import torch.nn.functional as F

import common

# Candidates: detector peaks at least this sure. Training mines the detector's false hits down
# to it; the reader's own floor (model.json's min_peak, dice.config.MinPeak) is tuned with the
# thresholds (th['min_peak']): a weak peak read as a die makes a frame unreadable, and the
# weaker it may be the more frames that refuses.
MIN_PEAK = 0.15
# At most this many candidates are read further (dice.maxCands).
MAX_CANDS = 24
# A candidate this sure but under the peak threshold is looked at closer (dice.closerFrom): the
# detector run again on a ZOOM_SIDE square round it at ZOOM times the letterbox's scale. Small
# dice it half sees at 320 px (held-out nell-byler: 11% of its 16-24 px dice under 0.5) it sees
# whole there; weaker candidates are mostly specks and parts of dice.
CLOSER_FROM = 0.3
ZOOM = 2.0
ZOOM_SIDE = 128
# A die read surely is read again in a square WIDE times as wide (dice.wideBy): a detector
# sometimes frames a pip of a big die as a small die, whose face is then a 1 (matteop65's
# two_2.jpg, read as a 1 at 0.91), where the wider square shows the die's 2 (0.99). Only dice
# read up to WIDE_MAX are: a part of a face looks like a 1 (a pip), 2 or 3 (pips in a row) or 4
# (a square of pips), never a 5 or 6. Reading 5s and 6s wider too changed no held-out reading
# and cost half as much again.
WIDE = 1.6
WIDE_MAX = 4
# A frame where no die is found is looked at again farther away (dice.farBy): the whole frame in
# the middle FAR of the detector's input. A die close up, half the frame or more, is bigger than
# any the detector learnt, and it finds none, or only its pips. Only its peaks of dice at least
# FAR_MIN_SIDE of the frame's longer side count (dice.farMinSide): smaller ones are the first
# look's, and the far look's were mostly parts of dice cut by the frame's edge.
FAR = 0.5
FAR_MIN_SIDE = 0.3
# A die whose box runs past the frame's edge by more than EDGE of its side may be cut off, and
# part of a die reads as a smaller face (dice.edgeOver): the frame is unreadable. A detector
# trained on rendered scenes, whose boxes are cut at the frame's edge, finds such dice often.
EDGE = 0.05


def candidates(det, img, min_peak=MIN_PEAK):
    """[(peak, cx, cy, side)] in the frame's pixels, best first, from the detector's peaks."""
    lb, s = common.letterbox(img)
    with torch.no_grad():
        out = det(torch.from_numpy(common.det_input(lb)))[0]
    c = heat_peaks(out, s, min_peak=min_peak)
    c.sort(key=lambda t: -t[0])
    return c[:MAX_CANDS]


def heat_peaks(out, s, x0=0.0, y0=0.0, min_peak=MIN_PEAK):
    """[(peak, cx, cy, side)] of a detector output (4 x g x g) whose input was the frame at
    scale s with its top left at frame pixel (x0, y0), unsorted (dice.peaks)."""
    heat = out[0]
    peak = (F.max_pool2d(heat[None, None], 3, 1, 1)[0, 0] == heat) & (heat >= min_peak)
    ys, xs = torch.nonzero(peak, as_tuple=True)
    c = []
    for y, x in zip(ys.tolist(), xs.tolist()):
        side = math.exp(float(out[1, y, x])) / s
        cx = x0 + (x + float(out[2, y, x])) * common.STRIDE / s
        cy = y0 + (y + float(out[3, y, x])) * common.STRIDE / s
        c.append((float(heat[y, x]), cx, cy, side))
    return c


def closer(det, img, cand, min_peak=MIN_PEAK):
    """The detector's surest peak on the die of a weak candidate, seen closer (dice.closer): a
    ZOOM_SIDE square cut round it at ZOOM times the letterbox's scale (common.zoom_square). The
    peak must frame the same die: its centre within half a side of the candidate's, its side
    0.6-1.6 times. None when there is none."""
    _, cx, cy, side = cand
    sq, s, x0, y0 = common.zoom_square(img, cx, cy, ZOOM * common.DET / max(img.shape[:2]), ZOOM_SIDE)
    with torch.no_grad():
        out = det(torch.from_numpy(common.det_input(sq)))[0]
    near = [k for k in heat_peaks(out, s, x0, y0, min_peak)
            if math.hypot(k[1] - cx, k[2] - cy) < 0.5 * max(k[3], side) and 0.6 <= k[3] / side <= 1.6]
    return max(near) if near else None


def farther(det, img, min_peak=MIN_PEAK):
    """The detector's peaks of dice at least FAR_MIN_SIDE of the frame, on the whole frame shrunk to
    FAR of its input, centred (dice.farther), best first."""
    h, w = img.shape[:2]
    sq, s, x0, y0 = common.zoom_square(img, w / 2, h / 2, FAR * common.DET / max(h, w), common.DET)
    with torch.no_grad():
        out = det(torch.from_numpy(common.det_input(sq)))[0]
    c = [k for k in heat_peaks(out, s, x0, y0, min_peak) if k[3] >= FAR_MIN_SIDE * max(h, w)]
    c.sort(key=lambda t: -t[0])
    return c[:MAX_CANDS]


def closer_all(det, face, img, cands, below=0.5):
    """Per candidate, (its closer look, that look's face probabilities) for those from
    CLOSER_FROM to below sure, else None (train.py keeps them all below the highest peak threshold
    it tries; the reader only those under its own)."""
    out = []
    for c in cands:
        k = closer(det, img, c) if CLOSER_FROM <= c[0] < below else None
        out.append(None if k is None else (k, face_probs(face, img, [k])[0].tolist()))
    return out


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


def wide_probs(face, img, cands):
    """Per candidate, its face probabilities read WIDE times as wide (decide's wide)."""
    return face_probs(face, img, [(pk, cx, cy, side * WIDE) for pk, cx, cy, side in cands])


def decide(cands, probs, th, closers=None, wide=None):
    """(status, values, dice) from candidates and their face probabilities under thresholds th:
    a die is a peak >= th['peak'] the face network does not call bare (p0 < 0.5), and one
    overlapping a stronger die is the same die. Each die's value must reach th['face']; a weaker
    peak whose face the network reads surely (a value >= th['doubt']) may be a missed die. Any
    doubt makes the frame unreadable: never guess. Peaks under th['min_peak'] are no candidates.

    A peak >= th['peak'] whose face leans to no value (its likeliest under th['lean']) is a spot
    of the scene, not a die (a screw head, a stain): it is passed over, but the faces of that
    frame must then reach th['look'] too, as with a spot the rig's background drops
    (dice.decide's spots).

    When that leaves the frame unread, the closer looks (closers, from closer_all) are taken
    too: a weak candidate whose look is a peak >= th['peak'] with its face read surely (th['look']
    too) is that die, as the look frames it. Frames read without them are not looked at closer:
    the looks cost time (dice.Reader.Read).

    wide, when given, holds per candidate its face probabilities read WIDE times as wide
    (wide_probs): a die read surely as at most WIDE_MAX whose wider square is read surely as
    another value is in doubt. Dice framed by a closer look are not read wider: their look was
    read at th['look']. wide_probs reads every candidate; the reader reads only those it asks."""
    if closers:
        first = decide(cands, probs, th, wide=wide)
        if first[0] == 'read':
            return first
    spots = [is_spot(c, p, th) for c, p in zip(cands, probs)]
    if any(spots):
        th = dict(th, face=max(th['face'], th.get('look', 0)))
    dice, doubt = [], False
    kept = []
    for i, (cand, p) in enumerate(zip(cands, probs)):
        if cand[0] < th.get('min_peak', MIN_PEAK) or spots[i]:
            continue
        z = closers[i] if closers else None
        looked = False
        if cand[0] < th['peak'] and z is not None:
            zp = np.asarray(z[1])
            if z[0][0] >= th['peak'] and zp[0] < 0.5 and max(zp[1:]) >= max(th['face'], th.get('look', 0)):
                cand, p = z[0], zp
                looked = True
        pk, cx, cy, side = cand
        if any(math.hypot(cx - k[1], cy - k[2]) < 0.5 * max(side, k[3]) for k in kept):
            continue
        isdie = pk >= th['peak'] and p[0] < 0.5
        if isdie:
            kept.append((pk, cx, cy, side))
            v = int(np.argmax(p[1:])) + 1
            sure = p[v] >= th['face']
            if sure and wide is not None and not looked and v <= WIDE_MAX:
                w = np.asarray(wide[i])
                wv = int(np.argmax(w[1:])) + 1
                sure = not (wv != v and w[wv] >= th['face'])
            dice.append(dict(value=v, x=cx, y=cy, side=side, conf=float(p[v]), peak=pk, sure=bool(sure)))
            doubt |= not sure
        elif max(p[1:]) >= th['doubt']:
            doubt = True
    vals = sorted(d['value'] for d in dice)
    if not dice:
        return 'unreadable', [], dice
    return ('unreadable' if doubt else 'read'), vals, dice


def at_edge(dice, w, h):
    """Whether a die of decide's dice runs past a w x h frame's edge by more than EDGE of its side."""
    return any(min(d['x'] - d['side'] / 2, d['y'] - d['side'] / 2, w - d['x'] - d['side'] / 2,
                   h - d['y'] - d['side'] / 2) < -EDGE * d['side'] for d in dice)


def is_spot(cand, p, th):
    """A peak strong enough to be a die whose face the network does not call bare but leans to no
    value: a spot of the scene (decide)."""
    return cand[0] >= th['peak'] and p[0] < 0.5 and max(p[1:]) < th.get('lean', 0)
