"""Augmentations that make one rig look like another: colour, light, focus, noise, framing."""
import math

import cv2
import numpy as np

import common


def photometric(img, rng):
    """Colour and light as another rig's: channels shuffled, grey, inverted (dice of any colour),
    hue turned, gamma and contrast, soft focus, noise. img: uint8 BGR, returns a new one."""
    x = img
    if rng.random() < 0.5:
        x = x[..., rng.permutation(3)]
    if rng.random() < 0.3:
        hsv = cv2.cvtColor(np.ascontiguousarray(x), cv2.COLOR_BGR2HSV)
        hsv[..., 0] = (hsv[..., 0].astype(np.int32) + rng.integers(0, 180)) % 180
        x = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    if rng.random() < 0.15:
        x = cv2.cvtColor(cv2.cvtColor(np.ascontiguousarray(x), cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    if rng.random() < 0.15:
        x = 255 - x
    f = x.astype(np.float32) / 255.0
    f = f ** math.exp(rng.normal(0, 0.35))
    f = (f - 0.5) * math.exp(rng.normal(0, 0.25)) + 0.5 + rng.normal(0, 0.08)
    f = f * (1 + rng.normal(0, 0.06, 3)).astype(np.float32)
    if rng.random() < 0.3:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.4, 1.6))
    if rng.random() < 0.4:
        f = f + rng.normal(0, rng.uniform(0.005, 0.04), f.shape).astype(np.float32)
    return np.clip(f * 255, 0, 255).astype(np.uint8)


def rotate_about(img, cx, cy, ang, r):
    """The square of half-side r round (cx, cy) turned by ang degrees, at the image's scale, with
    (cx, cy) at its centre (the edge replicated)."""
    n = int(math.ceil(2 * r))
    M = cv2.getRotationMatrix2D((cx, cy), ang, 1.0)
    M[:, 2] += (n / 2 - cx, n / 2 - cy)
    return cv2.warpAffine(img, M, (n, n), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def square_variant(img, cx, cy, side, rng, shift=0.1, scale=(0.8, 1.3)):
    """A face square of a die at (cx, cy), framed as a detector might: turned at random, shifted
    by up to shift sides, its side misjudged by a factor in scale."""
    ang = rng.uniform(0, 360)
    s = side * rng.uniform(*scale)
    dx, dy = rng.uniform(-shift, shift, 2) * side
    r = common.CROP * s * 0.75 + abs(dx) + abs(dy) + 2
    patch = rotate_about(img, cx + dx, cy + dy, ang, r)
    c = patch.shape[0] / 2
    return common.face_square(patch, c, c, s)
