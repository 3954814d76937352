#!/usr/bin/python3
"""Writes camera/testdata/facenet/parity.json: crops of held-out photos and the probabilities
PyTorch gives for them, for TestFaceNetParity.

  /usr/bin/python3 scripts/facenet/parity.py /tmp/crops.jsonl camera/facenet.bin \\
      ../shared/dice-photos/nell-byler camera/testdata/facenet/parity.json

The network is rebuilt from the exported weights (not the training checkpoint), so the test
checks the file the program embeds.
"""
import base64, json, os, struct, sys

import cv2
import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(__file__))
from data import cut  # noqa: E402
from net import CONVS, HIDDEN, Net, prepare  # noqa: E402


def load(path):
    b = open(path, 'rb').read()
    assert b[:4] == b'CSFN' and struct.unpack('<I', b[4:8])[0] == 2
    net = Net()
    want = [net.side, len(CONVS)] + [v for c, p in CONVS for v in (c, int(p))] + [HIDDEN]
    got = list(struct.unpack(f'<{len(want)}I', b[8:8 + 4 * len(want)]))
    assert got == want, f'{path}: architecture {got}, net.py has {want}'
    off = 8 + 4 * len(want)

    def arr(shape):
        nonlocal off
        n = struct.unpack('<I', b[off:off + 4])[0]
        a = np.frombuffer(b, '<f4', n, off + 4).reshape(shape)
        off += 4 + 4 * n
        return torch.from_numpy(a.copy())

    with torch.no_grad():
        for c, norm in zip(net.convs, net.norms):
            c.weight.copy_(arr(c.weight.shape))
            c.bias.copy_(arr(c.bias.shape))
            norm.reset_parameters()  # folded: identity
            norm.eval()
            norm.running_var.fill_(1 - norm.eps)
        for f in (net.f1, net.f2):
            f.weight.copy_(arr(f.weight.shape))
            f.bias.copy_(arr(f.bias.shape))
    net.eval()
    return net


def main():
    crops, weights, folder, out = sys.argv[1:5]
    net = load(weights)
    name = os.path.basename(os.path.normpath(folder))
    rows = [json.loads(line) for line in open(crops)]
    rows = [r for r in rows if r['set'] == name][::40][:12]
    cases = []
    for r in rows:
        img = cv2.imread(os.path.join(folder, r['file']))
        px = cut(img, r['x'], r['y'], r['side'], 0)
        with torch.no_grad():
            p = F.softmax(net(prepare(px[None])), 1)[0].double().numpy()
        cases.append({'name': f"{r['file']} ({r['x']:.0f},{r['y']:.0f})",
                      'bgr': base64.b64encode(px.tobytes()).decode(), 'probs': [round(float(v), 7) for v in p]})
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, 'w') as f:
        json.dump(cases, f, indent=1)


if __name__ == '__main__':
    main()
