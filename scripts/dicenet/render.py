"""Rendered dice for the face network: Blender's Cycles on the CPU draws a bevelled die with
drilled pips (a bump map), of random body and pip colour, glossy, marbled or translucent, on a
random floor, under a random sun, seen from above at a random tilt. Writes one PNG a square,
named SEED_INDEX_VALUE.png by the value on top, at 64 px. Not used by train.py: the experiment of
BENCHMARKS-dice.md shrank them to 40 px (cv2.INTER_AREA) and trained on them in place of as many
drawn squares (synth.py).

    blender -b -P scripts/dicenet/render.py -- OUT COUNT SEED

Debian's blender package (3.4) runs it; a square takes about 0.15 s on one core here.
"""
import math
import os
import random
import sys

import bpy
from mathutils import Euler

LAYOUT = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}
# The value on the cube's face whose normal is each axis, and the turn that brings it on top.
FACES = {1: (0, 0, 0), 6: (math.pi, 0, 0), 2: (0, -math.pi / 2, 0), 5: (0, math.pi / 2, 0),
         3: (math.pi / 2, 0, 0), 4: (-math.pi / 2, 0, 0)}
NORMALS = {(0, 0, 1): 1, (0, 0, -1): 6, (1, 0, 0): 2, (-1, 0, 0): 5, (0, 1, 0): 3, (0, -1, 0): 4}
MASK = 128


def pip_mask(v, radius, gap):
    """A MASK x MASK image of face v: 1 on the pips, 0 elsewhere."""
    img = bpy.data.images.new(f'pips{v}', MASK, MASK, alpha=False, float_buffer=True)
    px = [0.0] * (MASK * MASK * 4)
    for y in range(MASK):
        for x in range(MASK):
            u, w = (x + 0.5) / MASK - 0.5, (y + 0.5) / MASK - 0.5
            d = min(math.hypot(u - gx * gap, w - gy * gap) for gx, gy in LAYOUT[v])
            a = min(1.0, max(0.0, (radius - d) * MASK / 1.5 + 0.5))
            i = 4 * (y * MASK + x)
            px[i:i + 4] = [a, a, a, 1.0]
    img.pixels.foreach_set(px)
    img.pack()
    return img


def colour(rng, dark=False):
    h, s = rng.random(), rng.random()
    v = rng.uniform(0.02, 0.25) if dark else rng.uniform(0.05, 1.0)
    i = int(h * 6) % 6
    f = h * 6 - int(h * 6)
    p, q, t = v * (1 - s), v * (1 - f * s), v * (1 - (1 - f) * s)
    c = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)][i]
    return (*[x ** 2.2 for x in c], 1.0)  # sRGB-ish to linear


def material(name, mask, rng, style):
    m = bpy.data.materials.new(name)
    m.use_nodes = True
    nt = m.node_tree
    bsdf = nt.nodes['Principled BSDF']
    tex = nt.nodes.new('ShaderNodeTexImage')
    tex.image = mask
    tex.interpolation = 'Linear'
    mix = nt.nodes.new('ShaderNodeMixRGB')
    nt.links.new(tex.outputs['Color'], mix.inputs['Fac'])
    body = style['body']
    if style['marble']:
        noise = nt.nodes.new('ShaderNodeTexNoise')
        noise.inputs['Scale'].default_value = rng.uniform(1.5, 6)
        noise.inputs['Detail'].default_value = 4
        noise.inputs['Distortion'].default_value = rng.uniform(0, 4)
        ramp = nt.nodes.new('ShaderNodeValToRGB')
        ramp.color_ramp.elements[0].color = body
        ramp.color_ramp.elements[1].color = style['vein']
        ramp.color_ramp.elements[0].position = rng.uniform(0.35, 0.5)
        ramp.color_ramp.elements[1].position = rng.uniform(0.5, 0.7)
        nt.links.new(noise.outputs['Fac'], ramp.inputs['Fac'])
        nt.links.new(ramp.outputs['Color'], mix.inputs['Color1'])
    else:
        mix.inputs['Color1'].default_value = body
    mix.inputs['Color2'].default_value = style['pip']
    nt.links.new(mix.outputs['Color'], bsdf.inputs['Base Color'])
    bump = nt.nodes.new('ShaderNodeBump')
    bump.invert = True
    bump.inputs['Strength'].default_value = rng.uniform(0.3, 1.0)
    bump.inputs['Distance'].default_value = 0.05
    nt.links.new(tex.outputs['Color'], bump.inputs['Height'])
    nt.links.new(bump.outputs['Normal'], bsdf.inputs['Normal'])
    bsdf.inputs['Roughness'].default_value = style['rough']
    bsdf.inputs['Transmission'].default_value = style['trans']
    bsdf.inputs['IOR'].default_value = 1.5
    return m


def floor_material(rng):
    m = bpy.data.materials.new('floor')
    m.use_nodes = True
    nt = m.node_tree
    bsdf = nt.nodes['Principled BSDF']
    noise = nt.nodes.new('ShaderNodeTexNoise')
    noise.inputs['Scale'].default_value = rng.uniform(2, 40)
    ramp = nt.nodes.new('ShaderNodeValToRGB')
    base = colour(rng) if rng.random() < 0.5 else (*[rng.uniform(0.3, 0.9) ** 2.2] * 3, 1.0)
    k = rng.uniform(0.7, 1.0)
    ramp.color_ramp.elements[0].color = (*[c * k for c in base[:3]], 1.0)
    ramp.color_ramp.elements[1].color = base
    nt.links.new(noise.outputs['Fac'], ramp.inputs['Fac'])
    nt.links.new(ramp.outputs['Color'], bsdf.inputs['Base Color'])
    bsdf.inputs['Roughness'].default_value = rng.uniform(0.5, 1.0)
    return m


def style(rng):
    dark = rng.random() < 0.35
    body = colour(rng, dark)
    lum = sum(body[:3]) / 3
    if dark:
        pip = colour(rng)
        pip = (*[max(x, 0.2) if i == rng.randrange(3) else x for i, x in enumerate(pip[:3])], 1.0)
    else:
        pip = (0.85, 0.85, 0.85, 1.0) if lum < 0.25 else (0.01, 0.01, 0.01, 1.0)
        if rng.random() < 0.4:
            pip = colour(rng)
    return dict(body=body, pip=pip, vein=colour(rng), marble=rng.random() < 0.3,
                rough=rng.uniform(0.05, 0.6), trans=rng.uniform(0.3, 0.9) if rng.random() < 0.25 else 0.0)


def main():
    argv = sys.argv[sys.argv.index('--') + 1:]
    out, count, seed = argv[0], int(argv[1]), int(argv[2])
    os.makedirs(out, exist_ok=True)
    rng = random.Random(seed)
    bpy.ops.wm.read_factory_settings(use_empty=True)
    sc = bpy.context.scene
    sc.render.engine = 'CYCLES'
    sc.cycles.device = 'CPU'
    sc.cycles.samples = 24
    sc.cycles.max_bounces = 4
    sc.cycles.use_denoising = False
    sc.render.resolution_x = sc.render.resolution_y = 64
    sc.render.image_settings.file_format = 'PNG'
    sc.world = bpy.data.worlds.new('w')
    sc.world.use_nodes = True
    masks = {}
    for i in range(count):
        for o in list(bpy.data.objects):
            bpy.data.objects.remove(o, do_unlink=True)
        for m in list(bpy.data.materials):
            bpy.data.materials.remove(m)
        radius, gap = rng.uniform(0.07, 0.11), rng.uniform(0.24, 0.29)
        key = (round(radius, 2), round(gap, 2))
        if key not in masks:
            masks[key] = {v: pip_mask(v, key[0], key[1]) for v in range(1, 7)}
        value = 1 + i % 6
        bpy.ops.mesh.primitive_cube_add(size=2)
        die = bpy.context.object
        st = style(rng)
        mats = {v: material(f'f{v}', masks[key][v], rng, st) for v in range(1, 7)}
        for v in range(1, 7):
            die.data.materials.append(mats[v])
        for poly in die.data.polygons:
            n = tuple(int(round(c)) for c in poly.normal)
            poly.material_index = NORMALS[n] - 1
        uv = die.data.uv_layers.new(name='uv') if not die.data.uv_layers else die.data.uv_layers[0]
        for poly in die.data.polygons:
            n = tuple(int(round(c)) for c in poly.normal)
            for li in poly.loop_indices:
                co = die.data.vertices[die.data.loops[li].vertex_index].co
                a = [c for c, nc in zip(co, n) if nc == 0]
                uv.data[li].uv = ((a[0] + 1) / 2, (a[1] + 1) / 2)
        bev = die.modifiers.new('bevel', 'BEVEL')
        bev.width = rng.uniform(0.08, 0.3)
        bev.segments = 3
        die.rotation_euler = Euler(FACES[value], 'XYZ')
        die.rotation_euler.rotate(Euler((0, 0, rng.uniform(0, 2 * math.pi))))
        bpy.ops.mesh.primitive_plane_add(size=40, location=(0, 0, -1))
        bpy.context.object.data.materials.append(floor_material(rng))
        if rng.random() < 0.3:  # a neighbour die at the square's edge
            a = rng.uniform(0, 2 * math.pi)
            bpy.ops.mesh.primitive_cube_add(size=2, location=(2.4 * math.cos(a), 2.4 * math.sin(a), 0),
                                            rotation=(0, 0, rng.uniform(0, 6.3)))
            bpy.context.object.data.materials.append(material('n', masks[key][rng.randint(1, 6)], rng, style(rng)))
        sun = bpy.data.lights.new('sun', 'SUN')
        sun.energy = rng.uniform(1.5, 6)
        sun.angle = rng.uniform(0.05, 0.6)
        so = bpy.data.objects.new('sun', sun)
        so.rotation_euler = Euler((rng.uniform(0, 0.9), 0, rng.uniform(0, 6.3)))
        sc.collection.objects.link(so)
        bg = sc.world.node_tree.nodes['Background']
        g = rng.uniform(0.2, 1.0)
        bg.inputs['Color'].default_value = (g, g, g * rng.uniform(0.8, 1.1), 1)
        cam = bpy.data.cameras.new('cam')
        cam.type = 'ORTHO'
        cam.ortho_scale = 2 * 1.3 * rng.uniform(0.9, 1.15)
        co = bpy.data.objects.new('cam', cam)
        tilt, az = rng.uniform(0, 0.45), rng.uniform(0, 2 * math.pi)
        dist = 10
        co.location = (dist * math.sin(tilt) * math.cos(az) + rng.uniform(-0.15, 0.15),
                       dist * math.sin(tilt) * math.sin(az) + rng.uniform(-0.15, 0.15), 1 + dist * math.cos(tilt))
        co.rotation_euler = Euler((tilt, 0, az + math.pi / 2))
        sc.collection.objects.link(co)
        sc.camera = co
        sc.render.filepath = os.path.join(out, f'{seed}_{i:05d}_{value}.png')
        bpy.ops.render.render(write_still=True)


main()
