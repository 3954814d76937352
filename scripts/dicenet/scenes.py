"""Rendered photo scenes for the detector: Blender's Cycles on the CPU
draws 1-8 bevelled dice with drilled pips (a bump map) on a random floor, with things that are
not dice beside them, under a random sun, seen by a perspective camera from straight above to
55 degrees off, near or far (dice from about 8 to 150 px in a 320 px frame). Bodies of any
colour, glossy, marbled or translucent; pips of a contrasting colour; floors plain, mottled,
speckled, grained or chequered. Writes a photo set as scripts/simframes does: JPEGs,
labels.csv (file,values) and boxes.csv (file,value,x0,y0,x1,y1: the box round the whole die as
the camera sees it), which train.py takes with --extra-det.

    blender -b -P scripts/dicenet/scenes.py -- OUT COUNT SEED [close]

close: scenes for the face network (train.py --extra-face): 2-8 dice of 24-110 px seen from at
most 45 degrees off, and more of the dice held-out photos read least surely: glossy bodies with
glare, translucent and smoky marbled ones, dark bodies with coloured pips.

Debian's blender package (3.4) runs it on one core, about 2 s a scene here: two seeds into two
folders use both cores (make scenes), and train.py takes each with its own --extra-det.
"""
import math
import os
import random
import sys

import bpy
from bpy_extras.object_utils import world_to_camera_view
from mathutils import Euler, Vector

LAYOUT = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}
# The turn that brings each value on top, and the value whose face has each normal.
FACES = {1: (0, 0, 0), 6: (math.pi, 0, 0), 2: (0, -math.pi / 2, 0), 5: (0, math.pi / 2, 0),
         3: (math.pi / 2, 0, 0), 4: (-math.pi / 2, 0, 0)}
NORMALS = {(0, 0, 1): 1, (0, 0, -1): 6, (1, 0, 0): 2, (-1, 0, 0): 5, (0, 1, 0): 3, (0, -1, 0): 4}
MASK = 96
SIDE = 320
# Pip sizes and spacings (radius, gap) of real dice, as fractions of a face.
PIPS = [(0.08, 0.26), (0.1, 0.27), (0.07, 0.24), (0.11, 0.29)]


def pip_mask(v, radius, gap):
    """A MASK x MASK image of face v: 1 on the pips, 0 elsewhere."""
    img = bpy.data.images.new(f'pips{v}_{radius}_{gap}', MASK, MASK, alpha=False, float_buffer=True)
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
    """Any colour (HSV drawn uniformly), in linear RGBA; dark: a near-black one."""
    h, s = rng.random(), rng.random()
    v = rng.uniform(0.02, 0.25) if dark else rng.uniform(0.05, 1.0)
    i = int(h * 6) % 6
    f = h * 6 - int(h * 6)
    p, q, t = v * (1 - s), v * (1 - f * s), v * (1 - (1 - f) * s)
    c = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)][i]
    return (*[x ** 2.2 for x in c], 1.0)


def style(rng, close=False):
    """A set of dice: body, pip and vein colours, marbled or not, roughness, translucency (close:
    the close scenes' mix, more often dark, glossy, translucent or marbled)."""
    dark = rng.random() < (0.4 if close else 0.3)
    white = not dark and rng.random() < 0.35
    body = (*[rng.uniform(0.75, 0.95) ** 2.2] * 3, 1.0) if white else colour(rng, dark)
    lum = sum(body[:3]) / 3
    if dark or lum < 0.1:
        pip = (0.85, 0.85, 0.85, 1.0) if rng.random() < (0.4 if close else 0.6) else colour(rng)
        pip = (*[max(x, 0.3) for x in pip[:3]], 1.0)
    else:
        pip = (0.01, 0.01, 0.01, 1.0) if rng.random() < 0.6 else colour(rng, dark=True)
        if lum < 0.35 and rng.random() < 0.5:
            pip = (0.85, 0.85, 0.85, 1.0)
    if close:
        return dict(body=body, pip=pip, vein=colour(rng, dark=rng.random() < 0.5), marble=rng.random() < 0.35,
                    rough=rng.uniform(0.02, 0.25) if rng.random() < 0.6 else rng.uniform(0.25, 0.6),
                    trans=rng.uniform(0.3, 0.9) if rng.random() < 0.35 else 0.0,
                    pips=rng.choice(PIPS), bevel=rng.uniform(0.08, 0.3))
    return dict(body=body, pip=pip, vein=colour(rng), marble=rng.random() < 0.2,
                rough=rng.uniform(0.05, 0.6), trans=rng.uniform(0.3, 0.9) if rng.random() < 0.15 else 0.0,
                pips=rng.choice(PIPS), bevel=rng.uniform(0.08, 0.3))


def face_material(name, mask, rng, st):
    m = bpy.data.materials.new(name)
    m.use_nodes = True
    nt = m.node_tree
    bsdf = nt.nodes['Principled BSDF']
    tex = nt.nodes.new('ShaderNodeTexImage')
    tex.image = mask
    mix = nt.nodes.new('ShaderNodeMixRGB')
    nt.links.new(tex.outputs['Color'], mix.inputs['Fac'])
    if st['marble']:
        noise = nt.nodes.new('ShaderNodeTexNoise')
        noise.inputs['Scale'].default_value = rng.uniform(1.5, 6)
        noise.inputs['Detail'].default_value = 4
        noise.inputs['Distortion'].default_value = rng.uniform(0, 4)
        ramp = nt.nodes.new('ShaderNodeValToRGB')
        ramp.color_ramp.elements[0].color = st['body']
        ramp.color_ramp.elements[1].color = st['vein']
        ramp.color_ramp.elements[0].position = rng.uniform(0.35, 0.5)
        ramp.color_ramp.elements[1].position = rng.uniform(0.5, 0.7)
        nt.links.new(noise.outputs['Fac'], ramp.inputs['Fac'])
        nt.links.new(ramp.outputs['Color'], mix.inputs['Color1'])
    else:
        mix.inputs['Color1'].default_value = st['body']
    mix.inputs['Color2'].default_value = st['pip']
    nt.links.new(mix.outputs['Color'], bsdf.inputs['Base Color'])
    bump = nt.nodes.new('ShaderNodeBump')
    bump.invert = True
    bump.inputs['Strength'].default_value = rng.uniform(0.3, 1.0)
    bump.inputs['Distance'].default_value = 0.05
    nt.links.new(tex.outputs['Color'], bump.inputs['Height'])
    nt.links.new(bump.outputs['Normal'], bsdf.inputs['Normal'])
    bsdf.inputs['Roughness'].default_value = st['rough']
    bsdf.inputs['Transmission'].default_value = st['trans']
    return m


def plain_material(rng, col=None):
    m = bpy.data.materials.new('plain')
    m.use_nodes = True
    bsdf = m.node_tree.nodes['Principled BSDF']
    bsdf.inputs['Base Color'].default_value = col or colour(rng)
    bsdf.inputs['Roughness'].default_value = rng.uniform(0.1, 0.9)
    return m


def floor_material(rng):
    """Plain, mottled (noise), speckled (Voronoi dots), grained (waves) or chequered."""
    m = bpy.data.materials.new('floor')
    m.use_nodes = True
    nt = m.node_tree
    bsdf = nt.nodes['Principled BSDF']
    base = colour(rng) if rng.random() < 0.5 else (*[rng.uniform(0.05, 0.9) ** 2.2] * 3, 1.0)
    k = rng.uniform(0.3, 0.95)
    other = (*[c * k for c in base[:3]], 1.0) if rng.random() < 0.7 else colour(rng)
    kind = rng.choice(['plain', 'noise', 'noise', 'dots', 'wood', 'checker'])
    ramp = nt.nodes.new('ShaderNodeValToRGB')
    ramp.color_ramp.elements[0].color = other
    ramp.color_ramp.elements[1].color = base
    if kind == 'plain':
        bsdf.inputs['Base Color'].default_value = base
    else:
        if kind == 'noise':
            t = nt.nodes.new('ShaderNodeTexNoise')
            t.inputs['Scale'].default_value = rng.uniform(0.05, 3)
            t.inputs['Detail'].default_value = rng.uniform(0, 8)
            out = t.outputs['Fac']
        elif kind == 'dots':
            t = nt.nodes.new('ShaderNodeTexVoronoi')
            t.feature = 'DISTANCE_TO_EDGE' if rng.random() < 0.3 else 'F1'
            t.inputs['Scale'].default_value = rng.uniform(1, 12)
            t.inputs['Randomness'].default_value = rng.uniform(0.5, 1)
            out = t.outputs['Distance']
            ramp.color_ramp.elements[0].position = 0.0
            ramp.color_ramp.elements[1].position = rng.uniform(0.02, 0.2)
        elif kind == 'wood':
            t = nt.nodes.new('ShaderNodeTexWave')
            t.inputs['Scale'].default_value = rng.uniform(0.05, 0.6)
            t.inputs['Distortion'].default_value = rng.uniform(2, 12)
            t.inputs['Detail'].default_value = 3
            out = t.outputs['Fac']
        else:
            t = nt.nodes.new('ShaderNodeTexChecker')
            t.inputs['Scale'].default_value = rng.uniform(0.05, 0.4)
            out = t.outputs['Fac']
        nt.links.new(out, ramp.inputs['Fac'])
        nt.links.new(ramp.outputs['Color'], bsdf.inputs['Base Color'])
    bsdf.inputs['Roughness'].default_value = rng.uniform(0.3, 1.0)
    return m


def die(value, loc, turn, st, masks, rng):
    """A die of side 2 resting on the floor at loc, value on top, turned by turn about the vertical."""
    bpy.ops.mesh.primitive_cube_add(size=2, location=(loc[0], loc[1], 1))
    ob = bpy.context.object
    for v in range(1, 7):
        ob.data.materials.append(face_material(f'f{v}', masks[st['pips']][v], rng, st))
    uv = ob.data.uv_layers[0]
    for poly in ob.data.polygons:
        n = tuple(int(round(c)) for c in poly.normal)
        poly.material_index = NORMALS[n] - 1
        for li in poly.loop_indices:
            co = ob.data.vertices[ob.data.loops[li].vertex_index].co
            a = [c for c, nc in zip(co, n) if nc == 0]
            uv.data[li].uv = ((a[0] + 1) / 2, (a[1] + 1) / 2)
    bev = ob.modifiers.new('bevel', 'BEVEL')
    bev.width = st['bevel']
    bev.segments = 2
    ob.rotation_euler = Euler(FACES[value], 'XYZ')
    ob.rotation_euler.rotate(Euler((0, 0, turn)))
    return ob


def distractor(loc, rng):
    """Something on the table that is not a die: a ball, a counter, a peg, a ring, a box."""
    kind = rng.choice(['sphere', 'cylinder', 'cone', 'torus', 'box'])
    s = rng.uniform(0.4, 2.5)
    if kind == 'sphere':
        bpy.ops.mesh.primitive_uv_sphere_add(radius=s / 2, location=(loc[0], loc[1], s / 2))
    elif kind == 'cylinder':
        h = rng.uniform(0.1, 2.5)
        bpy.ops.mesh.primitive_cylinder_add(radius=s / 2, depth=h, location=(loc[0], loc[1], h / 2))
    elif kind == 'cone':
        bpy.ops.mesh.primitive_cone_add(radius1=s / 2, depth=s, location=(loc[0], loc[1], s / 2))
    elif kind == 'torus':
        bpy.ops.mesh.primitive_torus_add(major_radius=s / 2, minor_radius=s / 8, location=(loc[0], loc[1], s / 8))
    else:
        w, d, h = rng.uniform(1, 8), rng.uniform(1, 8), rng.uniform(0.1, 1.5)
        bpy.ops.mesh.primitive_cube_add(size=1, location=(loc[0], loc[1], h / 2))
        bpy.context.object.scale = (w, d, h)
    ob = bpy.context.object
    ob.rotation_euler.rotate(Euler((0, 0, rng.uniform(0, 2 * math.pi))))
    ob.data.materials.append(plain_material(rng))


def ground_point(cam, sc, u, v):
    """Where the camera's ray through frame point (u, v) (0-1, y up) meets the floor z=0, or None."""
    fr = [cam.matrix_world @ c for c in cam.data.view_frame(scene=sc)]
    # view_frame: top right, bottom right, bottom left, top left.
    top = fr[3].lerp(fr[0], u)
    bottom = fr[2].lerp(fr[1], u)
    p = bottom.lerp(top, v)
    o = cam.matrix_world.translation
    d = p - o
    if d.z >= -1e-6:
        return None
    t = -o.z / d.z
    return o + d * t


def box(sc, cam, ob):
    """The die's box in frame pixels (x0, y0, x1, y1), y down, round its bounding cube's corners
    as the camera sees them and cut at the frame's edge as a labeller draws it, or None when less
    than a third of it is in the frame."""
    pts = [world_to_camera_view(sc, cam, ob.matrix_world @ Vector(c)) for c in ob.bound_box]
    xs = [p.x * SIDE for p in pts]
    ys = [(1 - p.y) * SIDE for p in pts]
    x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, SIDE), min(y1, SIDE)
    if cx1 <= cx0 or cy1 <= cy0 or (cx1 - cx0) * (cy1 - cy0) < (x1 - x0) * (y1 - y0) / 3:
        return None
    return cx0, cy0, cx1, cy1


def scene(sc, i, seed, rng, masks, out, close=False):
    """Renders scene i into out: (file name, [(value, x0, y0, x1, y1)] of its labelled dice)."""
    for o in list(bpy.data.objects):
        bpy.data.objects.remove(o, do_unlink=True)
    for m in list(bpy.data.materials):
        bpy.data.materials.remove(m)
    for m in list(bpy.data.meshes):
        bpy.data.meshes.remove(m)
    bpy.ops.mesh.primitive_plane_add(size=2000, location=(0, 0, 0))
    bpy.context.object.data.materials.append(floor_material(rng))
    # The camera: a die (side 2) dist away is about px = 2 f / dist pixels wide. No nearer than 4
    # die sides, as a phone's closest focus: a close-up is then taken with a narrower view.
    cd = bpy.data.cameras.new('cam')
    cd.lens_unit = 'FOV'
    px = math.exp(rng.uniform(math.log(24), math.log(110)) if close else rng.uniform(math.log(8), math.log(150)))
    f = SIDE / 2 / math.tan(math.radians(rng.uniform(35, 70)) / 2)
    dist = max(8.0, f * 2 / px)
    f = px * dist / 2
    cd.angle = 2 * math.atan(SIDE / 2 / f)
    tilt = rng.uniform(0, math.radians(45 if close else 55)) if rng.random() < 0.7 else rng.uniform(0, 0.1)
    az = rng.uniform(0, 2 * math.pi)
    cam = bpy.data.objects.new('cam', cd)
    cam.location = (dist * math.sin(tilt) * math.sin(az), -dist * math.sin(tilt) * math.cos(az), dist * math.cos(tilt))
    cam.rotation_euler = Euler((tilt, 0, az), 'XYZ')
    cam.rotation_euler.rotate_axis('Z', rng.uniform(-0.3, 0.3))
    sc.collection.objects.link(cam)
    sc.camera = cam
    bpy.context.view_layer.update()
    n = rng.choice([2, 3, 4, 4, 5, 6, 7, 8] if close else [1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 6, 7, 8])
    sets = [style(rng, close)] if rng.random() < 0.6 else [style(rng, close) for _ in range(3)]
    placed, dice = [], []
    for _ in range(60):
        if len(dice) == n:
            break
        p = ground_point(cam, sc, rng.uniform(0.06, 0.94), rng.uniform(0.06, 0.94))
        if p is None or any((p - q).length < 3.0 for q in placed):
            continue
        value = rng.randint(1, 6)
        ob = die(value, p, rng.uniform(0, 2 * math.pi), rng.choice(sets), masks, rng)
        placed.append(p)
        dice.append((value, ob))
    for _ in range(rng.choice([0, 0, 1, 2, 3])):
        p = ground_point(cam, sc, rng.uniform(0, 1), rng.uniform(0, 1))
        if p is not None and all((p - q).length > 4.0 for q in placed):
            distractor(p, rng)
    sun = bpy.data.lights.new('sun', 'SUN')
    sun.energy = rng.uniform(1.5, 6)
    sun.angle = rng.uniform(0.05, 0.8)
    so = bpy.data.objects.new('sun', sun)
    so.rotation_euler = Euler((rng.uniform(0, 1.0), 0, rng.uniform(0, 6.3)))
    sc.collection.objects.link(so)
    if rng.random() < (0.6 if close else 0.3):  # a lamp close by: glare and a brighter patch
        lamp = bpy.data.lights.new('lamp', 'POINT')
        lamp.energy = rng.uniform(200, 3000) * (dist / 20) ** 2
        lo = bpy.data.objects.new('lamp', lamp)
        lo.location = (cam.location.x + rng.uniform(-1, 1) * dist / 2, cam.location.y + rng.uniform(-1, 1) * dist / 2,
                       dist * rng.uniform(0.3, 1.0))
        sc.collection.objects.link(lo)
    g = rng.uniform(0.1, 1.0)
    sc.world.node_tree.nodes['Background'].inputs['Color'].default_value = (g, g, g * rng.uniform(0.8, 1.1), 1)
    bpy.context.view_layer.update()
    name = f'scene_{seed}_{i:05d}.jpg'
    sc.render.filepath = os.path.join(out, name)
    bpy.ops.render.render(write_still=True)
    rows = [(value, *b) for value, b in ((v, box(sc, cam, ob)) for v, ob in dice) if b]
    return name, rows


def main():
    argv = sys.argv[sys.argv.index('--') + 1:]
    out, count, seed = argv[0], int(argv[1]), int(argv[2])
    close = argv[3:] == ['close']
    os.makedirs(out, exist_ok=True)
    rng = random.Random(seed)
    bpy.ops.wm.read_factory_settings(use_empty=True)
    sc = bpy.context.scene
    sc.render.engine = 'CYCLES'
    sc.cycles.device = 'CPU'
    sc.cycles.samples = 16
    sc.cycles.max_bounces = 3
    sc.cycles.use_denoising = False
    sc.render.threads_mode = 'FIXED'
    sc.render.threads = 1
    sc.render.resolution_x = sc.render.resolution_y = SIDE
    sc.render.image_settings.file_format = 'JPEG'
    sc.render.image_settings.quality = 92
    sc.world = bpy.data.worlds.new('w')
    sc.world.use_nodes = True
    masks = {k: {v: pip_mask(v, *k) for v in range(1, 7)} for k in PIPS}
    with open(os.path.join(out, 'labels.csv'), 'w') as lf, open(os.path.join(out, 'boxes.csv'), 'w') as bf:
        lf.write('file,values\n')
        bf.write('file,value,x0,y0,x1,y1\n')
        for i in range(count):
            name, rows = scene(sc, i, seed, rng, masks, out, close)
            if not rows:
                os.remove(os.path.join(out, name))
                continue
            lf.write(f'{name},{" ".join(str(v) for v in sorted(r[0] for r in rows))}\n')
            for v, x0, y0, x1, y1 in rows:
                bf.write(f'{name},{v},{x0:.1f},{y0:.1f},{x1:.1f},{y1:.1f}\n')
            lf.flush()
            bf.flush()


main()
