"""Reads a model folder's face.onnx back into the face network's weights, as train.py --faces
loads them, so that the detector can be trained again alone beside the shipped face network
(make train-detector):

    /usr/bin/python3 scripts/dicenet/unexport.py dice/model .cache/faces   # writes .cache/faces/final.pt

The export folds each batch norm into the convolution before it (parity.from_onnx reads such
files back); here each norm is kept as an identity (scale 1, shift the folded bias, mean 0,
variance 1 - eps), so the state dict loads into nets.Face as training saves it.
"""
import argparse
import os

import cv2
import numpy as np
import torch

import common
import nets
import parity


def standard(folded, net, shape):
    """net (a fresh nets network) made to compute what folded (parity.from_onnx's) does."""
    def order(m):
        seen = []
        hs = [x.register_forward_hook(lambda x, i, o: seen.append(x)) for x in m.modules()
              if isinstance(x, (torch.nn.Conv2d, torch.nn.BatchNorm2d, torch.nn.Linear))]
        with torch.no_grad():
            m.eval()(torch.zeros(1, *shape))
        for h in hs:
            h.remove()
        return seen

    src, dst = order(folded), order(net)
    layers = [x for x in dst if not isinstance(x, torch.nn.BatchNorm2d)]
    with torch.no_grad():
        for s, d in zip(src, layers):
            d.weight.copy_(s.weight)
            nxt = dst[dst.index(d) + 1] if dst.index(d) + 1 < len(dst) else None
            if isinstance(nxt, torch.nn.BatchNorm2d):
                nxt.weight.fill_(1)
                nxt.bias.copy_(s.bias)
                nxt.running_mean.zero_()
                nxt.running_var.fill_(1 - nxt.eps)
            else:
                d.bias.copy_(s.bias)
    return net.eval()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('model', help='a model folder holding face.onnx')
    ap.add_argument('out', help='the folder to write final.pt into')
    a = ap.parse_args()
    shape = (3, common.FACE, common.FACE)
    face = standard(parity.from_onnx(a.model)[1], nets.Face(), shape)
    net = cv2.dnn.readNetFromONNX(os.path.join(a.model, 'face.onnx'))  # as the Go reader runs it
    x = np.random.default_rng(1).random((8, *shape), dtype=np.float32)
    net.setInput(x)
    diff = float(np.abs(face(torch.from_numpy(x)).detach().numpy() - net.forward()).max())
    if diff > 1e-3:
        raise SystemExit(f'{a.model}: the face network read back differs from face.onnx by {diff}')
    os.makedirs(a.out, exist_ok=True)
    torch.save(dict(face=face.state_dict()), os.path.join(a.out, 'final.pt'))
    print(os.path.join(a.out, 'final.pt'), f'(largest difference from face.onnx {diff:.2g})')


if __name__ == '__main__':
    main()
