"""Writes a trained Net in the format camera/facenet.go reads: "CSFN", version 2, the
architecture (crop side, number of convolutions, each one's channels and pool flag, dense
width) as uint32s, then each array as a uint32 length and that many little-endian float32s,
batch norm folded into the convolutions (weights, then biases, per layer)."""
import struct

import numpy as np
import torch

from net import CONVS, HIDDEN


def export(net, path):
    net.eval()
    with open(path, 'wb') as out:
        out.write(b'CSFN' + struct.pack('<I', 2))
        head = [net.side, len(CONVS)] + [v for c, p in CONVS for v in (c, int(p))] + [HIDDEN]
        out.write(struct.pack(f'<{len(head)}I', *head))

        def arr(a):
            a = np.ascontiguousarray(a.detach().numpy(), dtype='<f4')
            out.write(struct.pack('<I', a.size) + a.tobytes())

        for c, n in zip(net.convs, net.norms):
            s = n.weight / torch.sqrt(n.running_var + n.eps)
            arr(c.weight * s[:, None, None, None])
            arr((c.bias - n.running_mean) * s + n.bias)
        for f in (net.f1, net.f2):
            arr(f.weight)
            arr(f.bias)
