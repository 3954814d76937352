"""Makes a 3×2 sheet of `dice bench --failures` pictures for the docs, each cut round its
labelled dice (4:3, shown at 400×300) with the picture's status line on top:

    bin/cantstop dice bench --model .cache/dicenet-cl/fold-nell-byler --max-dice 6 \\
        --failures /tmp/failures ../shared/dice-photos/nell-byler
    /usr/bin/python3 scripts/dicenet/failsheet.py /tmp/failures ../shared/dice-photos/nell-byler \\
        docs/img/failures-nell-byler.jpg IMG_20191208_112426 IMG_20191208_112135 ...

Each NAME is the start of a photo's file name in the rig's boxes.csv; up to six.
"""
import collections
import csv
import sys

import cv2
import numpy as np


def tile(failures, rig, f, boxes):
    """The failures picture of photo f cut round its dice, 400×300, its status line on top."""
    im = cv2.imread(f'{failures}/{f.rsplit(".", 1)[0]}.png')
    if im is None:
        sys.exit(f'failsheet: no picture of {f} in {failures}: was it read exactly?')
    h, w = im.shape[:2]
    s = w / cv2.imread(f'{rig}/{f}').shape[1]  # the picture may be scaled from the photo
    b = np.array(boxes) * s
    x0, y0, x1, y1 = b[:, 0].min() - 50, b[:, 1].min() - 50, b[:, 2].max() + 50, b[:, 3].max() + 50
    cw = max(x1 - x0, (y1 - y0) * 4 / 3, 240)
    cw = min(cw, w, h * 4 / 3)
    ch = cw * 3 / 4
    X0 = int(min(max((x0 + x1 - cw) / 2, 0), w - cw))
    Y0 = int(min(max((y0 + y1 - ch) / 2, 0), h - ch))
    t = cv2.resize(im[Y0:Y0 + int(ch), X0:X0 + int(cw)], (400, 300), interpolation=cv2.INTER_AREA)
    t[:24] = im[:24, :400]
    return t


def main():
    if len(sys.argv) < 5 or len(sys.argv) > 10:
        sys.exit(__doc__)
    failures, rig, out, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    boxes = collections.defaultdict(list)
    with open(f'{rig}/boxes.csv') as fh:
        for r in csv.DictReader(fh):
            boxes[r['file']].append([float(r[k]) for k in ('x0', 'y0', 'x1', 'y1')])
    tiles = []
    for n in names:
        f = next((k for k in boxes if k.startswith(n)), None)
        if f is None:
            sys.exit(f'failsheet: no photo named {n}… in {rig}/boxes.csv')
        tiles.append(tile(failures, rig, f, boxes[f]))
    tiles += [np.full((300, 400, 3), 255, np.uint8)] * (6 - len(tiles))
    cv2.imwrite(out, np.vstack([np.hstack(tiles[:3]), np.hstack(tiles[3:])]), [cv2.IMWRITE_JPEG_QUALITY, 85])


if __name__ == '__main__':
    main()
