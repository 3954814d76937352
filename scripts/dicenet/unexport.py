"""Reads a model folder's face.onnx back into the face network's weights, as train.py --faces
loads them, so that the detector can be trained again alone beside the shipped face network
(make train-detector):

    /usr/bin/python3 scripts/dicenet/unexport.py dice/model .cache/faces   # writes .cache/faces/final.pt

The export folds each batch norm into the convolution before it; parity.from_onnx reads such
files back into networks whose state dicts load as training saves them.
"""
import argparse
import os

import cv2
import numpy as np
import torch

import common
import parity


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('model', help='a model folder holding face.onnx')
    ap.add_argument('out', help='the folder to write final.pt into')
    a = ap.parse_args()
    shape = (3, common.FACE, common.FACE)
    face = parity.from_onnx(a.model)[1]
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
