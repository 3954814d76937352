"""Drawn dice for the face network: dice of colours, sizes, pip styles and views no photo set
holds, so that the network learns pip layouts rather than the few dice it was shown.

Each square is drawn at four times the network's side, blurred and shrunk: a die 0.45-0.7 of
the square wide (as the reader's squares, camera.netCrop die sides wide, hold the photo sets'
dice), turned at random, on a tray of random colour and texture, with its shadow, often with
two side faces in view (with their own pips), sometimes a neighbour die at the square's
edge; bodies plain, marbled or translucent; pips round, of any contrasting colour, of any
size and spacing a real die has, sometimes with glare. Label 0 ("no top face") squares hold
a die half a side off centre, or none.
"""
import math
import multiprocessing

import cv2
import numpy as np

import common

LAYOUT = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def colour(rng):
    """Any colour, dark ones as often as light (a uniform cube is mostly pastel)."""
    hsv = np.uint8([[[rng.integers(0, 180), rng.integers(0, 256), rng.integers(15, 256)]]])
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float64)


def contrasting(body, rng):
    """A pip colour that differs from the body in brightness or hue, as a real die's must."""
    for _ in range(50):
        c = rng.choice([np.array([245, 245, 245]), np.array([20, 20, 20]), np.array([40, 40, 200]),
                        np.array([40, 180, 230]), colour(rng)]) + rng.normal(0, 12, 3)
        if np.abs(c - body).sum() > 150:
            return np.clip(c, 0, 255)
    return 255 - body


def noise_field(shape, rng, scale):
    f = rng.normal(0, 1, (max(2, shape[0] // scale), max(2, shape[1] // scale)))
    f = cv2.resize(f, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)
    return (f - f.min()) / (f.max() - f.min() + 1e-9)


def background(n, rng):
    base = colour(rng) if rng.random() < 0.5 else np.full(3, rng.uniform(150, 245))
    img = np.zeros((n, n, 3), np.float32) + base
    img *= (0.85 + 0.3 * noise_field((n, n), rng, 24))[..., None]
    img += rng.normal(0, rng.uniform(0, 8), (n, n, 3))
    return img


def face_poly(cx, cy, d, ang, rnd):
    """The rounded square of side d at (cx, cy) turned by ang, as a polygon."""
    pts = []
    r = rnd * d
    h = d / 2 - r
    for k, (sx, sy) in enumerate([(1, 1), (-1, 1), (-1, -1), (1, -1)]):
        for t in np.linspace(0, math.pi / 2, 5):
            a = t + k * math.pi / 2
            pts.append((sx * h + r * math.cos(a), sy * h + r * math.sin(a)))
    c, s = math.cos(ang), math.sin(ang)
    return np.array([(cx + c * x - s * y, cy + s * x + c * y) for x, y in pts])


def draw_pips(img, v, cx, cy, d, ang, squash, pip, rng, glare):
    """The pips of value v on a face of side d centred at (cx, cy), turned by ang; squash
    foreshortens the face along its own y axis (a side face seen obliquely)."""
    g = rng.uniform(0.22, 0.3) * d
    r = rng.uniform(0.07, 0.12) * d
    c, s = math.cos(ang), math.sin(ang)
    turn = rng.random() < 0.5  # 2, 3 and 6 lie either way on a die
    for px, py in LAYOUT[v]:
        if turn:
            px, py = py, -px
        x, y = px * g, py * g * squash
        X, Y = cx + c * x - s * y, cy + s * x + c * y
        axes = (max(1, int(r)), max(1, int(r * squash)))
        cv2.ellipse(img, (int(X * 4), int(Y * 4)), (axes[0] * 4, axes[1] * 4), math.degrees(ang), 0, 360,
                    pip.tolist(), -1, cv2.LINE_AA, 2)
        if glare and rng.random() < 0.4:
            cv2.circle(img, (int((X - r / 3) * 4), int((Y - r / 3) * 4)), max(1, int(r / 3)) * 4,
                       (250, 250, 250), -1, cv2.LINE_AA, 2)


def dark_die(rng):
    """A dark body with coloured pips (black or smoky dice with red, blue, gold or green pips):
    pips that differ from the body in hue more than in brightness."""
    body = cv2.cvtColor(np.uint8([[[rng.integers(0, 180), rng.integers(0, 200), rng.integers(10, 90)]]]),
                        cv2.COLOR_HSV2BGR)[0, 0].astype(np.float64)
    pip = cv2.cvtColor(np.uint8([[[rng.choice([0, 5, 110, 120, 25, 60, 170]), rng.integers(150, 256),
                                   rng.integers(110, 240)]]]), cv2.COLOR_HSV2BGR)[0, 0].astype(np.float64)
    return body, pip


def die(img, cx, cy, d, v, rng):
    """Draws a die showing v at (cx, cy), side d pixels, onto img (float, drawn in place)."""
    n = img.shape[0]
    ang = rng.uniform(0, 2 * math.pi)
    rnd = rng.uniform(0.06, 0.2)
    if rng.random() < 0.3:
        body, pip = dark_die(rng)
    else:
        body = colour(rng)
        pip = contrasting(body, rng)
    # Shadow.
    sh = np.zeros((n, n), np.float32)
    off = rng.normal(0, 0.08 * d, 2)
    cv2.fillPoly(sh, [(face_poly(cx + off[0], cy + off[1], d * 1.05, ang, rnd) * 4).astype(np.int32)], 1.0,
                 cv2.LINE_AA, 2)
    sh = cv2.GaussianBlur(sh, (0, 0), 0.08 * d + 1)
    img *= (1 - rng.uniform(0.1, 0.45) * sh)[..., None]
    # Side faces: the top face lifted by a vector the tilt of the camera would show.
    top = face_poly(cx, cy, d, ang, rnd)
    if rng.random() < 0.6:
        la = rng.uniform(0, 2 * math.pi)
        lift = rng.uniform(0.05, 0.3) * d * np.array([math.cos(la), math.sin(la)])
        base = face_poly(cx - lift[0], cy - lift[1], d, ang, rnd)
        hull = cv2.convexHull(np.concatenate([base, top]).astype(np.float32))
        m = np.zeros((n, n), np.float32)
        cv2.fillPoly(m, [(hull * 4).astype(np.int32)], 1.0, cv2.LINE_AA, 2)
        side = body * rng.uniform(0.45, 0.9)
        img[:] = img * (1 - m[..., None]) + side * m[..., None]
        if rng.random() < 0.5 and np.linalg.norm(lift) > 0.12 * d:
            # A side face's pips, foreshortened, between the top face and its base.
            sq = np.linalg.norm(lift) / d
            mid = np.array([cx, cy]) - lift * 0.5 - lift / np.linalg.norm(lift) * d * 0.5
            la = math.atan2(lift[1], lift[0]) - math.pi / 2
            draw_pips(img, int(rng.integers(1, 7)), mid[0], mid[1], d, la, sq, pip * rng.uniform(0.5, 1),
                      rng, False)
    m = np.zeros((n, n), np.float32)
    cv2.fillPoly(m, [(top * 4).astype(np.int32)], 1.0, cv2.LINE_AA, 2)
    face = np.zeros((n, n, 3), np.float32) + body
    kind = rng.random()
    if kind < 0.15:  # marbled: a second colour in soft streaks
        f = noise_field((n, n), rng, int(rng.integers(4, 12)))
        f = np.clip((f - 0.5) * rng.uniform(2, 6) + 0.5, 0, 1)[..., None]
        face = face * (1 - f) + colour(rng) * f
    elif kind < 0.3:  # swirled: veins of a near colour, as real marbled and smoky dice
        f = noise_field((n, n), rng, int(rng.integers(3, 8)))
        f = np.exp(-((f - rng.uniform(0.3, 0.7)) / rng.uniform(0.03, 0.1)) ** 2)[..., None]
        face = face * (1 - f) + np.clip(body * rng.uniform(0.4, 1.8) + rng.normal(0, 25, 3), 0, 255) * f
    elif kind < 0.5:  # translucent: the tray and shadow show through
        a = rng.uniform(0.45, 0.8)
        face = a * face + (1 - a) * img
    face *= (0.8 + 0.4 * noise_field((n, n), rng, 48))[..., None]  # uneven light
    img[:] = img * (1 - m[..., None]) + face * m[..., None]
    glare = rng.random() < 0.15
    draw_pips(img, v, cx, cy, d, ang, 1.0, pip, rng, glare)
    if glare:
        gx, gy = rng.uniform(-0.3, 0.3, 2) * d
        gl = np.zeros((n, n), np.float32)
        cv2.circle(gl, (int((cx + gx) * 4), int((cy + gy) * 4)), int(rng.uniform(0.15, 0.3) * d * 4), 1.0,
                   -1, cv2.LINE_AA, 2)
        gl = cv2.GaussianBlur(gl, (0, 0), 0.05 * d + 1) * m
        img[:] = img * (1 - gl[..., None]) + 250 * gl[..., None]


def square(label, rng):
    """One drawn square of common.FACE pixels (BGR uint8) showing label (0: no top face)."""
    side = common.FACE
    n = side * 4  # drawn at 4x, shrunk as a photo is
    img = background(n, rng)
    d = n / common.CROP * rng.uniform(0.82, 1.15)  # as the reader's squares hold its dice
    if rng.random() < 0.35:  # a neighbour at the square's edge
        a = rng.uniform(0, 2 * math.pi)
        r = d * rng.uniform(1.02, 1.3)
        die(img, n / 2 + r * math.cos(a), n / 2 + r * math.sin(a), d * rng.uniform(0.9, 1.1),
            int(rng.integers(1, 7)), rng)
    j = rng.uniform(-0.1, 0.1, 2) * d
    if label > 0:
        die(img, n / 2 + j[0], n / 2 + j[1], d, label, rng)
    elif rng.random() < 0.7:  # half a die off centre, as data.squares cuts
        a, r = rng.uniform(0, 2 * math.pi), rng.uniform(0.6, 1.0) * d
        die(img, n / 2 + r * math.cos(a), n / 2 + r * math.sin(a), d, int(rng.integers(1, 7)), rng)
    img = cv2.GaussianBlur(np.clip(img, 0, 255).astype(np.float32), (0, 0), rng.uniform(0.5, 2.5))
    out = cv2.resize(img, (side, side), interpolation=cv2.INTER_AREA)
    out = np.clip(out + rng.normal(0, rng.uniform(0, 3), out.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.5:  # a die only 20-40 px across in the photo, JPEG-compressed there
        low = int(rng.integers(24, side + 1))
        small = cv2.resize(out, (low, low), interpolation=cv2.INTER_AREA)
        ok, buf = cv2.imencode('.jpg', small, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 95))])
        out = cv2.resize(cv2.imdecode(buf, cv2.IMREAD_COLOR), (side, side), interpolation=cv2.INTER_LINEAR)
    return out


def _part(args):
    count, seed = args
    rng = np.random.default_rng(seed)
    return np.stack([square(int(v), rng) for v in np.arange(count) % 7])


def build(count, seed=2, procs=1):
    """count drawn squares, labels 0-6 evenly, in two halves seeded apart (the same squares
    however many processes draw them)."""
    per = -(-count // 7 // 2) * 7
    parts = [(min(per, count - i * per), seed * 1000 + i) for i in range(2) if count > i * per]
    if procs > 1:
        with multiprocessing.Pool(min(procs, len(parts))) as p:
            X = np.concatenate(p.map(_part, parts))
    else:
        X = np.concatenate([_part(a) for a in parts])
    Y = np.concatenate([np.arange(c) % 7 for c, _ in parts])
    return X, Y.astype(np.int64)


if __name__ == '__main__':
    import sys
    X, Y = build(70, int(sys.argv[2]) if len(sys.argv) > 2 else 2)
    big = [cv2.resize(x, (96, 96), interpolation=cv2.INTER_NEAREST) for x in X]
    for i, v in enumerate(Y):
        cv2.putText(big[i], str(v), (2, 12), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 255, 0), 1)
    cv2.imwrite(sys.argv[1], np.vstack([np.hstack(big[i:i + 10]) for i in range(0, 70, 10)]))
