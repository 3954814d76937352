package camera

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadByNet: dice whose pips the reader finds but can fit to no layout (small marbled
// and dark dice with coloured pips, glare) are read by the face network, marked Net, or
// with the glare streaks taken out and a network's backing, marked Glare (unglare); read
// from pip layouts alone the same photos are refused. The photos are of the benchmark's
// held-out part (nell-byler with at most six dice), never seen in training.
func TestReadByNet(t *testing.T) {
	pipsOnly, r := readers()
	byNet := 0 // photos with a die marked Net
	defer func() {
		if byNet < 2 {
			t.Errorf("%d photos read with a die marked Net: the networks' own reading is no longer tested", byNet)
		}
	}()
	for _, c := range netCases {
		t.Run(c.file, func(t *testing.T) {
			if rd := readPhoto(t, pipsOnly, c.file); rd.Status == StatusRead {
				t.Fatalf("read from pips alone as %v: the photo no longer needs the network", rd.Values())
			}
			rd := readPhoto(t, r, c.file)
			if got := fmt.Sprint(rd.Values()); rd.Status != StatusRead || got != c.want {
				t.Fatalf("%s %s (%s), want read %s", rd.Status, got, rd.Why, c.want)
			}
			net, glare := 0, 0
			for _, d := range rd.Dice {
				if d.Net {
					net++
					if len(d.Pips) != 0 || d.Confidence < netSure || d.Why != "" {
						t.Errorf("die %v read by the network with pips %v, confidence %.2f, why %q", d.Box, d.Pips, d.Confidence, d.Why)
					}
				}
				if d.Glare {
					glare++
					if len(d.Pips) != d.Value {
						t.Errorf("die %v read as %d with its glare taken out, from pips %v", d.Box, d.Value, d.Pips)
					}
				}
			}
			if net > 0 {
				byNet++
			}
			if net+glare == 0 {
				t.Error("no die marked as read by the network or with its glare taken out")
			}
		})
	}
}

// readers returns a reader without the network and one with it.
func readers() (pipsOnly, r *Reader) {
	o := DefaultReaderOpts()
	o.PipsOnly = true
	return NewReader(o), NewReader(DefaultReaderOpts())
}

// netCases are held-out photos that only the network (alone, or backing a reading with the
// glare taken out) reads exactly: a white 1 ringed in
// black on a navy die, small marbled dice whose coloured pips merge (in 100510 a 5 read
// from its pips must be confirmed beside its neighbour), a smoky 6 with dark red pips
// beside a navy 1, a black 2 whose glare hides a pip in one turn (netDissent).
var netCases = []readCase{
	{"nell-byler/IMG_20191209_100358.jpg", "[1 3 6]"},
	{"nell-byler/IMG_20191209_100510.jpg", "[1 3 5 5]"},
	{"nell-byler/IMG_20191209_100625.jpg", "[1 2 3 3]"},
	{"nell-byler/IMG_20191208_112905.jpg", "[1 2 6]"},
	{"nell-byler/IMG_20191209_100054.jpg", "[1 1 2 4 5 5]"},
}

// TestNetUnmasks: a photo the network completes no longer hides a wrong pip reading behind
// the refusal it overturned. In IMG_20191208_112419 the networks read a blue marbled 3 the
// pip reader refuses (under gamma0.7 the directed hue map reads it, which unmasks as much:
// see netConfirm); changed as other rigs would, the photo's smoky 1, two glare streaks
// beside a red pip, is read from its pips as a 2, and both networks lean to that 2 in its own
// square (a mean probability of 0.75 to 0.93). In the narrower square some turns read it
// otherwise, so netConfirm refuses it; and the networks must not overturn the pip reader's
// refusal of it either (under noise8, with two turns of eight allowed to dissent, they did).
func TestNetUnmasks(t *testing.T) {
	r := NewReader(DefaultReaderOpts())
	for _, v := range []string{"scale0.6", "scale1.5", "gamma0.7", "noise8", "blur"} {
		rd := readVaried(t, r, v, "nell-byler/IMG_20191208_112419.jpg")
		if rd.Status == StatusRead && !subOf(rd.Values(), "[1 3 3 5 5]") {
			t.Errorf("%s: read as %v, want [1 3 3 5 5] or a refusal", v, rd.Values())
		}
	}
}

// TestNetConfirm: once the network completes a photo, a die read from its pips that the
// networks do not both read the same is refused, for the refusal the network overturned
// also hid it: changed as other rigs would, a translucent red 4 whose back pip shows
// through is read as a 5 from its pips, a marbled 5 and a 2 as 1s, a side face beside ivory
// 3s as a 2. Without the check each of these photos is read with the wrong value.
func TestNetConfirm(t *testing.T) {
	r := NewReader(DefaultReaderOpts())
	for _, c := range []variedCase{
		{"bright1.4", "nell-byler/IMG_20191209_100602.jpg", "[4 5 6]"},
		{"jpeg40", "nell-byler/IMG_20191209_095910.jpg", "[2 2 3 3 5 5]"},
		{"gamma0.7", "matteop65/three_36.jpg", "[3 3 3 3]"},
	} {
		rd := readVaried(t, r, c.vary, c.file)
		if rd.Status == StatusRead && !subOf(rd.Values(), c.labels) {
			t.Errorf("%s %s: read as %v, want %s or a refusal", c.vary, c.file, rd.Values(), c.labels)
		}
	}
}

// TestNetOnlyPipFitterRefusals: the network may overturn only the pip fitter's own refusal
// ("N pips in no canonical layout"), and only while the die still carries it: a die that a
// later check refused for another reason (a side face, a split read two ways, one body with
// its neighbour) stays refused, however sure the network is.
func TestNetOnlyPipFitterRefusals(t *testing.T) {
	pipsOnly, r := readers()
	for _, c := range netCases {
		img := testPhoto(t, c.file)
		rd := pipsOnly.Read(img)
		tested := 0 // dice the network reads as handed over, on which the refusals are tried
		for i, d := range rd.Dice {
			if d.Value != 0 || d.unlaid == "" {
				continue
			}
			alone := append([]Die(nil), rd.Dice...)
			r.netRead(img, image.Point{}, alone)
			if alone[i].Value == 0 {
				continue
			}
			tested++
			later := append([]Die(nil), rd.Dice...)
			later[i].Why = "a face and the side face beside it, with no seam between them: one die seen obliquely"
			r.netRead(img, image.Point{}, later)
			if later[i].Value != 0 || later[i].Net {
				t.Errorf("%s: die %v refused by a later check was read as %d", c.file, d.Box, later[i].Value)
			}
			clutter := append([]Die(nil), rd.Dice...)
			clutter[i].clutter = true // left out as no die: never read
			r.netRead(img, image.Point{}, clutter)
			if clutter[i].Value != 0 {
				t.Errorf("%s: clutter %v read as %d", c.file, d.Box, clutter[i].Value)
			}
		}
		if tested == 0 {
			t.Errorf("%s: the network reads none of the dice the pip fitter refused", c.file)
		}
		img.Close()
	}
}

// TestNetReadNotTwice: blurred, the right-hand 6 of this photo is found as two blobs; one
// reads the 6 from its pips, the other (three pips in no layout) would be read as a 6 again
// by the networks, which look at a die's square around it. A die refused beside another
// die's pip is part of that die (holdsPip): it stays refused, and the photo is unreadable
// rather than read with a 6 too many and the 4 missing.
func TestNetReadNotTwice(t *testing.T) {
	testVaried(t, []variedCase{{"blur", "nell-byler/IMG_20191208_112219.jpg", "[2 2 4 5 5 6 6]"}})
	img := testPhoto(t, "nell-byler/IMG_20191208_112219.jpg")
	defer img.Close()
	if rd := NewReader(DefaultReaderOpts()).Read(img); rd.Status != StatusRead || fmt.Sprint(rd.Values()) != "[2 2 4 5 5 6 6]" {
		t.Errorf("unblurred: %s %v (%s), want read [2 2 4 5 5 6 6]", rd.Status, rd.Values(), rd.Why)
	}
}

// TestBenchCrops: --crops writes the square the network would look at for every die found,
// with what was read there, one JSON line each; it refuses a variation, whose squares would
// not be in the photos on disk.
func TestBenchCrops(t *testing.T) {
	var buf bytes.Buffer
	dir := filepath.Join("testdata", "dice", "tai-studio")
	rep, err := Bench(context.Background(), []string{dir}, NewReader(DefaultReaderOpts()), BenchOpts{Crops: &buf})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != rep.Total.Photos { // one die a photo, all found
		t.Fatalf("%d lines for %d photos:\n%s", len(lines), rep.Total.Photos, buf.String())
	}
	for _, l := range lines {
		var c NetCrop
		if err := json.Unmarshal([]byte(l), &c); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		want := int(c.File[5] - '0') // eyes_V_N.jpg
		if c.Set != "tai-studio" || c.Value != want || c.Side < 40 || c.X <= 0 || c.Y <= 0 {
			t.Errorf("%+v: want set tai-studio, value %d and a square on the die", c, want)
		}
	}
	_, err = Bench(context.Background(), []string{dir}, NewReader(DefaultReaderOpts()), BenchOpts{Crops: &buf, Vary: "rot90"})
	if err == nil || !strings.Contains(err.Error(), "leave out --vary") {
		t.Errorf("crops with a variation: got %v, want an error saying to leave out --vary", err)
	}
}

// TestNetPair: a die the pip fitter refused is read only when both networks read it surely,
// the same value. In this held-out photo the first network alone would read the translucent
// red 4 (rightly, as it happens), but the second is not sure of it, so the pair leaves it
// refused: the price of a guard against either network being sure of a wrong value.
func TestNetPair(t *testing.T) {
	pipsOnly, r := readers()
	img := testPhoto(t, "nell-byler/IMG_20191209_100602.jpg")
	defer img.Close()
	rd := pipsOnly.Read(img)
	side := dieSide(rd.Dice)
	alone := func(n *netRunner) *Reader { a := *r; a.nets = [2]*netRunner{n, n}; return &a }
	first, second := alone(r.nets[0]), alone(r.nets[1])
	split := 0
	for _, d := range rd.Dice {
		if d.unlaid == "" {
			continue
		}
		cx, cy, s := netSquare(d, side)
		v1, _ := first.netVote(img, cx, cy, s, netSure, netDissent)
		v2, _ := second.netVote(img, cx, cy, s, netSure, netDissent)
		v, _ := r.netVote(img, cx, cy, s, netSure, netDissent)
		t.Logf("die %v: first %d, second %d, pair %d", d.Box, v1, v2, v)
		want := 0
		if v1 == v2 {
			want = v1
		}
		if v != want {
			t.Errorf("die %v: first network %d, second %d, the pair %d, want %d", d.Box, v1, v2, v, want)
		}
		if v1 != v2 {
			split++
		}
	}
	if split == 0 {
		t.Error("no die on which the two networks differ: the photo no longer shows the pair at work")
	}
}

// TestNetDissent: glare on a glossy face does not turn with the die. In this held-out photo a
// black 2's upper pip is a white glare disc; the pip fitter finds only the other pip, near the
// edge, and refuses it. Both networks read a 2 surely, but in one turn of one crop each of
// them sees a 1: without the one dissenting turn netDissent allows, the die stays refused.
func TestNetDissent(t *testing.T) {
	pipsOnly, r := readers()
	img := testPhoto(t, "nell-byler/IMG_20191209_100054.jpg")
	defer img.Close()
	rd := pipsOnly.Read(img)
	side := dieSide(rd.Dice)
	dissented := 0
	for _, d := range rd.Dice {
		if d.unlaid == "" {
			continue
		}
		cx, cy, s := netSquare(d, side)
		if v, _ := r.netVote(img, cx, cy, s, netSure, netDissent); v != 2 {
			t.Errorf("die %v (%s): the networks read %d, want 2", d.Box, d.Why, v)
		}
		for _, k := range []float64{1, stableGrow, stableShrink} {
			x, ok := netInput(img, cx, cy, k*s)
			if !ok {
				t.Fatalf("die %v: no square %.2f times as wide", d.Box, k)
			}
			for i, n := range r.nets {
				strict, _ := n.vote(x, netSure, 0)
				loose, p := n.vote(x, netSure, netDissent)
				t.Logf("die %v, square ×%.2f, network %d: %d with every turn, %d (%.2f) with %d dissenting", d.Box, k, i, strict, loose, p, netDissent)
				if loose != 2 {
					t.Errorf("die %v, square ×%.2f, network %d: %d, want 2", d.Box, k, i, loose)
				}
				if strict == 0 {
					dissented++
				}
			}
		}
	}
	if dissented == 0 {
		t.Error("no crop with a dissenting turn: the photo no longer shows netDissent at work")
	}
}

// TestNetLoneOne: a lone pip that reads as a 1 at some pip thresholds only is refused by the
// pip reader (glare may hide its partner), and the networks may overturn that refusal as they
// do pips in no layout. In a dimmer room (bright0.6) IMG_20191209_100127's navy 1, a white
// pip ringed in black, is refused so; the networks read it, and with it the photo.
func TestNetLoneOne(t *testing.T) {
	pipsOnly, r := readers()
	const file, want = "nell-byler/IMG_20191209_100127.jpg", "[1 2 2 4 6]"
	before := readVaried(t, pipsOnly, "bright0.6", file)
	if before.Status == StatusRead || !strings.Contains(before.Why, "at some pip thresholds only") {
		t.Fatalf("pips alone: %s %v (%s), want refused for a 1 read at some thresholds only", before.Status, before.Values(), before.Why)
	}
	rd := readVaried(t, r, "bright0.6", file)
	if got := fmt.Sprint(rd.Values()); rd.Status != StatusRead || got != want {
		t.Fatalf("%s %s (%s), want read %s", rd.Status, got, rd.Why, want)
	}
	ones := 0
	for _, d := range rd.Dice {
		if d.Net && d.Value != 1 {
			t.Errorf("die %v read by the networks as %d, want only the lone 1", d.Box, d.Value)
		}
		if d.Net && d.Value == 1 {
			ones++
		}
	}
	if ones != 1 {
		t.Errorf("%d dice read by the networks as a 1, want the lone 1", ones)
	}
}

// TestNetReadMeasured: a die the networks cannot read in its blob's square, guessed from
// blobs with their shadows half as big again as the dice, is read in a square of the size
// the dice read from their pips show (IMG_20191209_100127's navy 1, whose pip's ring makes a
// free place contrast); and once a die is read so, the dice the networks read in such a big
// square must be read alike at that size: changed as another camera would,
// IMG_20191208_112419's smoky 1, small in its blob's square, reads as a 2 there from its
// glare streak, and the blue 3 read at the dice's size would else complete the photo with
// that 2.
func TestNetReadMeasured(t *testing.T) {
	r := NewReader(DefaultReaderOpts())
	defer r.Close()
	rd := readPhoto(t, r, "nell-byler/IMG_20191209_100127.jpg")
	if got := fmt.Sprint(rd.Values()); rd.Status != StatusRead || got != "[1 2 2 4 6]" {
		t.Errorf("IMG_20191209_100127: %s %s (%s), want read [1 2 2 4 6]", rd.Status, got, rd.Why)
	}
	for _, d := range rd.Dice {
		if d.Value == 1 && (!d.Net || d.Box.Dx() > 40) {
			t.Errorf("IMG_20191209_100127: its 1 at %v, net %v: want it read by the networks in a square of the dice's size (about 30 px)", d.Box, d.Net)
		}
	}
	rd = readVaried(t, r, "gamma1.5", "nell-byler/IMG_20191208_112419.jpg")
	if rd.Status == StatusRead && !subOf(rd.Values(), "[1 3 3 5 5]") {
		t.Errorf("IMG_20191208_112419 under gamma1.5: read as %v, want [1 3 3 5 5] or a refusal", rd.Values())
	}
}

// TestNetConfirmMeasured: a die read from its pips in a photo the networks complete, which
// they do not confirm in the square of the picture's guessed die size (its blobs, with their
// shadows, half as big again as the dice), is confirmed in a square of the size of the dice
// read from their pips: changed as other rigs would, IMG_20191208_112447's and
// IMG_20191209_100525's small 3s are refused without that second look.
func TestNetConfirmMeasured(t *testing.T) {
	r := NewReader(DefaultReaderOpts())
	defer r.Close()
	for _, c := range []variedCase{
		{"scale0.6", "nell-byler/IMG_20191208_112447.jpg", "[2 3 5 6 6]"},
		{"bright1.4", "nell-byler/IMG_20191208_112447.jpg", "[2 3 5 6 6]"},
		{"blue0.8", "nell-byler/IMG_20191208_112447.jpg", "[2 3 5 6 6]"},
		{"scale0.6", "nell-byler/IMG_20191209_100525.jpg", "[1 1 3 5]"},
	} {
		rd := readVaried(t, r, c.vary, c.file)
		if got := fmt.Sprint(rd.Values()); rd.Status != StatusRead || got != c.labels {
			t.Errorf("%s %s: %s %s (%s), want read %s", c.vary, c.file, rd.Status, got, rd.Why, c.labels)
		}
	}
}

// TestNetAmbiguous: a die whose pips fit two faces is read when both face networks read one
// of them surely in every turn (IMG_20191209_095958's dark green 2, re-encoded at JPEG
// quality 40, reads 2 or 1 depending on how its turn is measured); and only once the pips
// alone have failed to settle it: matteop65/two_34.jpg, so re-encoded, is read from its pips
// alone, while the networks' reading of its ambiguous 2 would have netConfirm refuse another
// 2, read right.
func TestNetAmbiguous(t *testing.T) {
	r := NewReader(DefaultReaderOpts())
	defer r.Close()
	for _, c := range []struct {
		file, want string
		net        int
	}{
		{"nell-byler/IMG_20191209_095958.jpg", "[2 3 3 3 5]", 1},
		{"matteop65/two_34.jpg", "[2 2 2 2]", 0},
	} {
		rd := readVaried(t, r, "jpeg40", c.file)
		net := 0
		for _, d := range rd.Dice {
			if d.Net {
				net++
			}
		}
		if got := fmt.Sprint(rd.Values()); rd.Status != StatusRead || got != c.want || net != c.net {
			t.Errorf("%s: %s %s (%s), %d by the networks; want read %s, %d by the networks", c.file, rd.Status, got, rd.Why, net, c.want, c.net)
		}
	}
}

// TestNetAmbiguousPlaced: a die whose pips read one value from other pips in each turn is
// not read by the networks. matteop65/four_3.jpg's 4, seen obliquely, shows a 2 on a side
// face; in the mean of its second to fourth noisy frames (as Settle reads a still tray) its
// pips read 2 from other pips depending on how its turn is measured, and both networks,
// looking at the whole die, read that side face's 2.
func TestNetAmbiguousPlaced(t *testing.T) {
	r := NewReader(DefaultReaderOpts())
	defer r.Close()
	img := testPhoto(t, "matteop65/four_3.jpg")
	defer img.Close()
	o := DefaultSettleOpts().withDefaults()
	var still stillFrames
	defer still.reset()
	var rd Reading
	for seed := uint64(1); seed <= 4; seed++ {
		f := noiseSeeded(8, seed)(img)
		thumb := thumbnail(f)
		if seed == 1 {
			f.Close() // the frame in which Settle sees the dice stop
			continue
		}
		rd = r.Read(still.add(f, thumb, o))
	}
	if rd.Status == StatusRead && fmt.Sprint(rd.Values()) != "[4]" {
		t.Errorf("four_3's mean of frames 2-4: read %v, want [4] or a refusal", rd.Values())
	}
	if len(rd.Dice) != 1 || rd.Dice[0].Value == 0 && !strings.Contains(rd.Dice[0].Why, "from other pips") {
		t.Errorf("four_3's mean of frames 2-4: %s %v (%s), want its 4 refused as read from other pips", rd.Status, rd.Values(), rd.Why)
	}
}
