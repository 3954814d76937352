"""The two networks of package dice, in PyTorch: a die-centre detector and a face reader."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def cbr(i, o, s=1):
    return nn.Sequential(nn.Conv2d(i, o, 3, s, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))


class Detector(nn.Module):
    """CenterNet-style: 320x320 BGR in [0,1] -> 4 x 80 x 80: die-centre probability, log of the
    die's side in input pixels, and the centre's offset within its cell (x, y)."""

    def __init__(self, w=(16, 24, 32, 48, 64)):
        super().__init__()
        self.s1 = cbr(3, w[0], 2)                                          # 160
        self.s2 = nn.Sequential(cbr(w[0], w[1], 2), cbr(w[1], w[1]))       # 80
        self.s3 = nn.Sequential(cbr(w[1], w[2], 2), cbr(w[2], w[2]))       # 40
        self.s4 = nn.Sequential(cbr(w[2], w[3], 2), cbr(w[3], w[3]))       # 20
        self.s5 = nn.Sequential(cbr(w[3], w[4], 2), cbr(w[4], w[4]))       # 10
        self.l4 = nn.Conv2d(w[4], w[3], 1)
        self.l3 = nn.Conv2d(w[3], w[2], 1)
        self.l2 = nn.Conv2d(w[2], w[1], 1)
        self.u4, self.u3, self.u2 = cbr(w[3], w[3]), cbr(w[2], w[2]), cbr(w[1], w[1])
        self.head = nn.Conv2d(w[1], 4, 1)
        self.head.bias.data[0] = -4.0

    def forward(self, x):
        c2 = self.s2(self.s1(x))
        c3 = self.s3(c2)
        c4 = self.s4(c3)
        c5 = self.s5(c4)
        p4 = self.u4(c4 + F.interpolate(self.l4(c5), scale_factor=2.0, mode='nearest'))
        p3 = self.u3(c3 + F.interpolate(self.l3(p4), scale_factor=2.0, mode='nearest'))
        p2 = self.u2(c2 + F.interpolate(self.l2(p3), scale_factor=2.0, mode='nearest'))
        h = self.head(p2)
        return torch.cat([torch.sigmoid(h[:, :1]), h[:, 1:2], torch.sigmoid(h[:, 2:4])], 1)


class Face(nn.Module):
    """40x40 normalised square -> 7 logits: 0 "no die's top face here", 1-6 the face."""

    def __init__(self, w=(24, 48, 64, 96)):
        super().__init__()
        self.f = nn.Sequential(
            cbr(3, w[0]), nn.MaxPool2d(2),               # 20
            cbr(w[0], w[1]), cbr(w[1], w[1]), nn.MaxPool2d(2),   # 10
            cbr(w[1], w[2]), cbr(w[2], w[2]), nn.MaxPool2d(2),   # 5
            cbr(w[2], w[3]),
        )
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(w[3] * 25, 7)

    def forward(self, x):
        return self.fc(self.drop(self.f(x).flatten(1)))


def flops(model, shape):
    """Multiply-adds x 2 of the convolutions and dense layers for one input of shape."""
    total = 0

    def hook(m, i, o):
        nonlocal total
        if isinstance(m, nn.Conv2d):
            total += 2 * o.numel() * m.in_channels // m.groups * m.kernel_size[0] * m.kernel_size[1]
        elif isinstance(m, nn.Linear):
            total += 2 * m.in_features * m.out_features
    hs = [m.register_forward_hook(hook) for m in model.modules() if isinstance(m, (nn.Conv2d, nn.Linear))]
    model.eval()
    with torch.no_grad():
        model(torch.zeros(1, *shape))
    for h in hs:
        h.remove()
    return total
