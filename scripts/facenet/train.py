#!/usr/bin/python3
"""Trains the face network and writes camera/facenet.bin.

  cantstop dice bench --pips-only --crops /tmp/crops.jsonl ../shared/dice-photos/*/
  /usr/bin/python3 scripts/facenet/train.py /tmp/crops.jsonl camera/facenet.bin \\
      --train '../shared/dice-photos/nell-byler:>6' --train '../shared/dice-photos/matteop65:all' \\
      --synthetic 30000 --val '../shared/dice-photos/nell-byler:<=6'

Needs Debian's python3-torch, python3-opencv and python3-numpy (not needed to build or test
cantstop: the weights are committed). --train and --val take FOLDER:SELECT, SELECT one of
all, >N, <=N (photos by their number of dice). The photos are augmented as another rig would
change them: any colour (channels shuffled, grey, inverted), light (gamma, contrast), soft
focus and noise, any turn.
"""
import argparse, os, sys, time

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(__file__))
from data import build  # noqa: E402
import synth  # noqa: E402
from export import export  # noqa: E402
from net import Net, normalise, prepare  # noqa: E402


def selector(spec):
    folder, _, sel = spec.partition(':')
    if sel in ('', 'all'):
        return folder, lambda n: True
    if sel.startswith('<='):
        k = int(sel[2:])
        return folder, lambda n: n <= k
    if sel.startswith('>'):
        k = int(sel[1:])
        return folder, lambda n: n > k
    raise SystemExit(f'{spec}: SELECT must be all, >N or <=N')


def dataset(crops, specs, variants, hard_times=1):
    Xs, Ys = [], []
    for spec in specs:
        folder, sel = selector(spec)
        X, Y = build(crops, [folder], sel, variants, hard_times=hard_times)
        print(f'{spec}: {len(X)} crops, per label {np.bincount(Y, minlength=7).tolist()}', flush=True)
        Xs.append(X)
        Ys.append(Y)
    return np.concatenate(Xs), np.concatenate(Ys)


def augment(batch, rng):
    x = torch.from_numpy(batch).float().permute(0, 3, 1, 2) / 255.0
    B = x.shape[0]
    for i in range(B):
        if rng.random() < 0.6:
            x[i] = x[i][torch.from_numpy(rng.permutation(3))]
    g = torch.from_numpy(rng.random(B) < 0.15)
    x[g] = x[g].mean(1, keepdim=True).expand(-1, 3, -1, -1)
    inv = torch.from_numpy(rng.random(B) < 0.3)
    x[inv] = 1 - x[inv]
    x = x.clamp(1e-4, 1) ** torch.exp(torch.randn(B, 1, 1, 1) * 0.3)
    x = x * (0.6 + 0.8 * torch.rand(B, 1, 1, 1)) + (torch.rand(B, 1, 1, 1) - 0.5) * 0.3
    bl = torch.from_numpy(rng.random(B) < 0.3)
    if bl.any():
        k = torch.tensor([1.0, 2.0, 1.0])
        k = (k[:, None] * k[None, :] / 16).expand(3, 1, 3, 3)
        x[bl] = F.conv2d(F.pad(x[bl], (1, 1, 1, 1), mode='replicate'), k, groups=3)
    x = x + torch.randn_like(x) * (torch.rand(B, 1, 1, 1) * 0.04)
    x = torch.rot90(x, int(rng.integers(4)), dims=(2, 3))
    return normalise(x)


def report(net, X, Y):
    net.eval()
    with torch.no_grad():
        P = torch.cat([F.softmax(net(prepare(X[i:i + 512])), 1) for i in range(0, len(X), 512)]).numpy()
    net.train()
    pred, conf = P.argmax(1), P.max(1)
    dice = Y > 0
    line = f'acc {(pred == Y).mean():.3f}, on dice {(pred[dice] == Y[dice]).mean():.3f}'
    for th in (0.9, 0.97):
        take = (pred > 0) & (conf >= th)
        line += f'; at {th}: {take.sum()} taken, {(take & (pred != Y)).sum()} wrong'
    return line


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('crops')
    ap.add_argument('out')
    ap.add_argument('--train', action='append', required=True)
    ap.add_argument('--val', action='append', default=[])
    ap.add_argument('--variants', type=int, default=12)
    ap.add_argument('--epochs', type=int, default=16)
    ap.add_argument('--synthetic', type=int, default=0,
                    help='add this many drawn squares (synth.py) to the training set')
    ap.add_argument('--hard', type=int, default=1,
                    help='cut the squares of dice the pip fitter refused (no layout) this many times as often')
    ap.add_argument('--seed', type=int, default=0,
                    help='seeds the initial weights and the batches (the second network: 1)')
    a = ap.parse_args()
    torch.set_num_threads(os.cpu_count() or 1)
    torch.manual_seed(a.seed)
    rng = np.random.default_rng(a.seed)
    X, Y = dataset(a.crops, a.train, a.variants, a.hard)
    if a.synthetic:
        Xs, Ys = synth.build(a.synthetic, procs=os.cpu_count() or 1)
        print(f'drawn: {len(Xs)} squares', flush=True)
        X, Y = np.concatenate([X, Xs]), np.concatenate([Y, Ys])
    Xv, Yv = dataset(a.crops, a.val, 2) if a.val else (None, None)
    net = Net()
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    batches = len(X) // 128
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=a.epochs * batches)
    t0 = time.time()
    for ep in range(a.epochs):
        perm = rng.permutation(len(X))
        for b in range(batches):
            idx = perm[b * 128:(b + 1) * 128]
            loss = F.cross_entropy(net(augment(X[idx], rng)), torch.from_numpy(Y[idx]), label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        msg = f'epoch {ep}: {time.time() - t0:.0f} s'
        if Xv is not None:
            msg += '; held out: ' + report(net, Xv, Yv)
        print(msg, flush=True)
    export(net, a.out)


if __name__ == '__main__':
    main()
