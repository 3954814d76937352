"""The face network of camera/facenet.go, for training (PyTorch)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from data import SIDE

# 3x3 convolutions: output channels, and whether a 2x2 max pool follows (32 -> 16 -> 8 -> 4).
CONVS = [(16, False), (16, True), (32, False), (32, True), (64, True)]
HIDDEN = 64


class Net(nn.Module):
    """3x3 convolutions 16,16 | pool | 32,32 | pool | 64 | pool, dense 64, 7 outputs (CONVS, HIDDEN)."""

    def __init__(self):
        super().__init__()
        chans = [3] + [c for c, _ in CONVS]
        self.side = SIDE
        self.convs = nn.ModuleList(nn.Conv2d(chans[i], chans[i + 1], 3, padding=1) for i in range(len(CONVS)))
        self.norms = nn.ModuleList(nn.BatchNorm2d(c) for c, _ in CONVS)
        self.pool = [p for _, p in CONVS]
        grid = SIDE >> sum(self.pool)
        self.f1 = nn.Linear(chans[-1] * grid * grid, HIDDEN)
        self.f2 = nn.Linear(HIDDEN, 7)
        self.drop = nn.Dropout(0.3)

    def forward(self, x):
        for c, n, p in zip(self.convs, self.norms, self.pool):
            x = F.relu(n(c(x)))
            if p:
                x = F.max_pool2d(x, 2)
        return self.f2(self.drop(F.relu(self.f1(x.flatten(1)))))


def normalise(x):
    """camera.netInput's normalisation: each channel less its mean, over one spread + 0.02."""
    return (x - x.mean(dim=(2, 3), keepdim=True)) / (x.std(dim=(1, 2, 3), keepdim=True) + 0.02)


def prepare(batch):
    """uint8 B x SIDE x SIDE x 3 (BGR) -> normalised float B x 3 x SIDE x SIDE."""
    return normalise(torch.from_numpy(batch).float().permute(0, 3, 1, 2) / 255.0)
