"""Exports saved weights (train.py's final.pt or a fold-RIG.pt) to a model folder the Go reader
loads with `--model DIR`, with the thresholds of an existing model.json:

    /usr/bin/python3 scripts/dicenet/export.py .cache/dicenet/fold-epanemu.pt .cache/dicenet/fold-epanemu

--det-only writes the detector alone, keeping the folder's face network (a detector retrained
with train.py --faces).
"""
import argparse
import json
import os
import shutil

import torch

import nets
import train


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('weights')
    ap.add_argument('out')
    ap.add_argument('--config', default='dice/model/model.json', help='model.json whose thresholds to use')
    ap.add_argument('--det-only', action='store_true', help="write detector.onnx only, keep out's face.onnx")
    a = ap.parse_args()
    w = torch.load(a.weights)
    det, face = nets.Detector(), nets.Face()
    det.load_state_dict(w['det'])
    if a.det_only:
        train.export(det.eval(), None, a.out)
    else:
        face.load_state_dict(w['face'])
        train.export(det.eval(), face.eval(), a.out)
    if os.path.abspath(a.config) != os.path.abspath(os.path.join(a.out, 'model.json')):
        shutil.copyfile(a.config, os.path.join(a.out, 'model.json'))
    with open(os.path.join(a.out, 'model.json')) as f:
        print(a.out, json.load(f)['thresholds'])


if __name__ == '__main__':
    main()
