"""Writes dice/testdata/parity.json: what the PyTorch networks (the training framework) make of
fixed inputs, for package dice's parity test (dice/parity_test.go) to check its OpenCV run of
the exported ONNX networks against.

It holds, for the photos of PHOTOS, pipeline.candidates, pipeline.face_probs, pipeline.wide_probs and
the closer looks at its weak candidates (pipeline.closer, under the model's peak threshold); the face
probabilities of a few synthetic squares; common.face_square of a photo at a few places, some past
its edges, and common.zoom_square's (their bytes' SHA-256: they are large); and np.rot90 of a small image (the turn convention). The ONNX files' SHA-256 are
recorded so the test can tell fixtures made from other weights.

    /usr/bin/python3 scripts/dicenet/parity.py --weights .cache/dicenet/final.pt --model dice/model

--weights is the state dicts train.py saved with the ONNX files in --model (final.pt with
dice/model, fold-RIG.pt with a folder exported from it), or "onnx" to rebuild the PyTorch
networks from the ONNX files' weights (BatchNorm folded into the convolutions) when the state
dicts were not kept."""
import argparse
import base64
import hashlib
import json
import os
import sys

import cv2
import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import nets  # noqa: E402
import pipeline  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
TESTDATA = os.path.join(ROOT, 'dice', 'testdata')
# One photo per rig, several dice where the rig has them, and one with a weak candidate whose
# closer look finds a die (paths under dice/testdata).
PHOTOS = ['photos/matteop65/dice_40.jpg', 'photos/nell-byler/IMG_20191208_111816.jpg',
          'photos/tai-studio/eyes_3_2.jpg', 'photos/matteop65/four_17.jpg']


def b64(a):
    return base64.b64encode(np.ascontiguousarray(a, np.uint8).tobytes()).decode()


def synthetic_squares():
    """Three FACE x FACE BGR squares: noise, a drawn 5 on a tilted die, a colour-cast gradient."""
    f = common.FACE
    rng = np.random.default_rng(7)
    noise = rng.integers(0, 256, (f, f, 3), dtype=np.uint8)
    die = np.full((f, f, 3), (40, 90, 30), np.uint8)
    box = cv2.boxPoints(((f / 2, f / 2), (28, 28), 12)).astype(np.int32)
    cv2.fillConvexPoly(die, box, (235, 240, 245))
    for dx, dy in [(-7, -7), (7, -7), (0, 0), (-7, 7), (7, 7)]:
        cv2.circle(die, (int(f / 2 + dx + dy * 0.2), int(f / 2 + dy - dx * 0.2)), 3, (20, 20, 20), -1)
    yy, xx = np.mgrid[0:f, 0:f]
    grad = np.stack([xx * 5, yy * 3 + 40, (xx + yy) * 2 + 100], -1).clip(0, 255).astype(np.uint8)
    return [('noise', noise), ('five', die), ('gradient', grad)]


def from_onnx(model):
    """The PyTorch networks rebuilt from the ONNX files in model, for when the state dicts were
    not kept: torch.onnx folds each BatchNorm into the convolution before it, so each BatchNorm
    becomes an identity (scale 1, shift the folded bias, mean 0, variance 1 - eps) and the
    convolutions take the folded weights, matched in the order the forward pass runs them
    (checked by shape). The state dicts load as training saves them (unexport.py)."""
    import onnx
    from onnx import numpy_helper

    def rebuild(net, path, shape):
        g = onnx.load(path).graph
        init = {i.name: numpy_helper.to_array(i) for i in g.initializer}
        order = []
        hs = [m.register_forward_hook(lambda m, i, o: order.append(m)) for m in net.modules()
              if isinstance(m, (torch.nn.Conv2d, torch.nn.BatchNorm2d, torch.nn.Linear))]
        net.eval()
        with torch.no_grad():
            net(torch.zeros(1, *shape))
        for h in hs:
            h.remove()
        norm = lambda i: order[i] if i < len(order) and isinstance(order[i], torch.nn.BatchNorm2d) else None
        layers = [(m, norm(i + 1)) for i, m in enumerate(order) if not isinstance(m, torch.nn.BatchNorm2d)]
        nodes = [n for n in g.node if n.op_type in ('Conv', 'Gemm', 'MatMul')]
        if len(nodes) != len(layers):
            raise SystemExit(f'{path}: {len(nodes)} weighted nodes, the network has {len(layers)} layers')
        with torch.no_grad():
            for (m, bn), n in zip(layers, nodes):
                w = torch.from_numpy(init[n.input[1]].copy())
                if n.op_type == 'MatMul':
                    w = w.t()
                if w.shape != m.weight.shape:
                    raise SystemExit(f'{path}: node {n.name} has weights {tuple(w.shape)}, layer {m} wants {tuple(m.weight.shape)}')
                m.weight.copy_(w)
                b = torch.from_numpy(init[n.input[2]].copy() if len(n.input) > 2 else np.zeros(w.shape[0], np.float32))
                if bn is not None:
                    bn.weight.fill_(1)
                    bn.bias.copy_(b)
                    bn.running_mean.zero_()
                    bn.running_var.fill_(1 - bn.eps)
                elif m.bias is not None:
                    m.bias.copy_(b)
                else:
                    m.bias = torch.nn.Parameter(b)
        return net.eval()

    return (rebuild(nets.Detector(), os.path.join(model, 'detector.onnx'), (3, common.DET, common.DET)),
            rebuild(nets.Face(), os.path.join(model, 'face.onnx'), (3, common.FACE, common.FACE)))


def sha(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--weights', default=os.path.join(ROOT, '.cache/dicenet/final.pt'),
                    help='state dicts {det, face}; "onnx": rebuild the networks from --model (BatchNorm folded)')
    ap.add_argument('--model', default=os.path.join(ROOT, 'dice/model'),
                    help='the ONNX folder exported from --weights; "dice/model" is recorded as built in')
    ap.add_argument('--out', default=os.path.join(TESTDATA, 'parity.json'))
    a = ap.parse_args()
    torch.set_num_threads(1)
    model = os.path.abspath(a.model)
    if a.weights == 'onnx':
        det, face = from_onnx(model)
    else:
        sd = torch.load(a.weights, map_location='cpu')
        det, face = nets.Detector(), nets.Face()
        det.load_state_dict(sd['det'])
        face.load_state_dict(sd['face'])
        det.eval()
        face.eval()

    out = dict(
        model='' if model == os.path.join(ROOT, 'dice', 'model') else model,
        sha256={n: sha(os.path.join(model, n)) for n in ('detector.onnx', 'face.onnx')},
        photos=[], squares=[], face_squares=[], zoom_squares=[], rot90=None)
    with open(os.path.join(model, 'model.json')) as f:
        cfg = json.load(f)
    peak, min_peak = cfg['thresholds']['peak'], cfg['min_peak']

    for p in PHOTOS:
        img = cv2.imread(os.path.join(TESTDATA, p), cv2.IMREAD_COLOR)
        cands = pipeline.candidates(det, img, min_peak)
        probs = pipeline.face_probs(face, img, cands)
        looks = [[i, pipeline.closer(det, img, c, min_peak)] for i, c in enumerate(cands) if pipeline.CLOSER_FROM <= c[0] < peak]
        out['photos'].append(dict(file=p, cands=[list(c) for c in cands],
                                  probs=[[float(v) for v in r] for r in probs],
                                  wide=[[float(v) for v in r] for r in pipeline.wide_probs(face, img, cands)],
                                  looks=[[i, list(k) if k else None] for i, k in looks]))

    names, sq = zip(*synthetic_squares())
    probs = pipeline.square_probs(face, np.stack(sq))
    for n, s, pr in zip(names, sq, probs):
        out['squares'].append(dict(name=n, bgr=b64(s), probs=[float(v) for v in pr]))

    img = cv2.imread(os.path.join(TESTDATA, PHOTOS[0]), cv2.IMREAD_COLOR)
    h, w = img.shape[:2]
    for cx, cy, side in [(100.3, 200.5, 50.2), (5.0, 7.5, 60.0), (w - 3.2, h - 10.0, 41.0),
                         (w + 200.0, 100.0, 30.0), (300.5, 240.5, 20.0), (50.0, h - 1.0, 2.0)]:
        s = common.face_square(img, cx, cy, side)
        out['face_squares'].append(dict(file=PHOTOS[0], x=cx, y=cy, side=side, bgr=b64(s)))

    for cx, cy, z in [(300.5, 240.5, 1.0), (10.0, 470.0, 1.0), (200.2, 100.7, 0.37), (320.0, 240.0, 2.5)]:
        s, scale, x0, y0 = common.zoom_square(img, cx, cy, z, pipeline.ZOOM_SIDE)
        out['zoom_squares'].append(dict(file=PHOTOS[0], x=cx, y=cy, z=z, scale=scale, x0=x0, y0=y0,
                                        sha256=hashlib.sha256(np.ascontiguousarray(s).tobytes()).hexdigest()))

    small = np.arange(2 * 3 * 3, dtype=np.uint8).reshape(2, 3, 3)
    out['rot90'] = dict(rows=2, cols=3, bgr=b64(small),
                        turned=[dict(k=k, rows=t.shape[0], cols=t.shape[1], bgr=b64(t))
                                for k in range(4) for t in [np.rot90(small[None], k, axes=(1, 2))[0]]])

    with open(a.out, 'w') as f:
        json.dump(out, f, indent=1)
    print(f'wrote {a.out}: {sum(len(p["cands"]) for p in out["photos"])} candidates in {len(PHOTOS)} photos, '
          f'{sum(len(p["looks"]) for p in out["photos"])} looked at closer')


if __name__ == '__main__':
    main()
