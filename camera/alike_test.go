package camera

import (
	"image"
	"math"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

// TestReadOddUnderLamp: matteop65/six_51.jpg under a lamp at the top left. The laptop's key in
// the corner, a dark cap with two light specks, was read as a 2 among five ivory 6s: lit
// unevenly, the 6s differ in lightness by up to 34 and no longer looked alike, so odd did not
// run. Lit alike (relit) they do, and the key is refused.
func TestReadOddUnderLamp(t *testing.T) {
	rd := readVaried(t, NewReader(DefaultReaderOpts()), "lamp", "matteop65/six_51.jpg")
	if rd.Status != StatusUnreadable || !strings.Contains(rd.Why, "unlike the other dice") || !subOf(rd.Values(), "[6 6 6 6 6]") {
		t.Errorf("%s %v (%s), want the laptop's key refused as unlike the dice", rd.Status, rd.Values(), rd.Why)
	}
}

// TestRelit: three pale faces on a grey tray lit from one side, each a fifth lighter than the
// tray round it. As seen they differ by far more than the reader's contrast; lit alike
// (relit) by less, and a dark cap among them stays unlike them.
func TestRelit(t *testing.T) {
	px := make([]byte, 120*400*3)
	light := func(x int) float64 { return 1 - 0.5*float64(x)/400 }
	for y := 0; y < 120; y++ {
		for x := 0; x < 400; x++ {
			v := 170 * light(x)
			for _, cx := range []int{60, 160, 260, 350} {
				if abs(x-cx) <= 12 && abs(y-60) <= 12 {
					v = 205 * light(x)
					if cx == 350 {
						v = 30
					}
				}
			}
			b := uint8(math.Round(v))
			px[3*(y*400+x)], px[3*(y*400+x)+1], px[3*(y*400+x)+2] = b, b, b
		}
	}
	img, err := gocv.NewMatFromBytes(120, 400, gocv.MatTypeCV8UC3, px)
	if err != nil {
		t.Fatal(err)
	}
	defer img.Close()
	var dice []Die
	for _, cx := range []int{60, 160, 260, 350} {
		box := image.Rect(cx-12, 48, cx+13, 73)
		lab := labOf(img, image.Rect(cx, 60, cx+1, 61))
		dice = append(dice, Die{Value: 3, Box: box, col: [3]float64{float64(lab[0]), float64(lab[1]), float64(lab[2])}})
	}
	const t0 = 14.0
	if d := labDist(dice[0].col, dice[2].col); d < 2*t0 {
		t.Fatalf("as seen, the outer faces differ by %.1f: the light should part them by more than %v", d, 2*t0)
	}
	rel := relit(img, image.Point{}, dice)
	for i := 0; i < 3; i++ {
		for j := 0; j < i; j++ {
			if d := labDist(rel[i], rel[j]); d >= t0 {
				t.Errorf("lit alike, faces %d and %d differ by %.1f, want under %v", i, j, d, t0)
			}
		}
		if d := labDist(rel[3], rel[i]); d <= 5*t0 {
			t.Errorf("lit alike, the dark cap differs from face %d by %.1f, want over %v", i, d, 5*t0)
		}
	}
}

func abs(x int) int { return max(x, -x) }

// TestLightness: lightness agrees with OpenCV's 8-bit Lab conversion within one level, over
// greys and colours.
func TestLightness(t *testing.T) {
	var px []byte
	for _, c := range [][3]byte{{0, 0, 0}, {255, 255, 255}, {1, 2, 3}, {10, 10, 10}, {128, 128, 128}, {200, 180, 150}, {30, 60, 200}, {0, 255, 0}, {255, 0, 0}, {0, 0, 255}, {90, 140, 70}} {
		px = append(px, c[:]...)
	}
	img, err := gocv.NewMatFromBytes(1, len(px)/3, gocv.MatTypeCV8UC3, px)
	if err != nil {
		t.Fatal(err)
	}
	defer img.Close()
	lab := labOf(img, image.Rect(0, 0, len(px)/3, 1))
	lin := srgbLinear()
	for i := 0; i < len(px); i += 3 {
		if got, want := lightness(px[i], px[i+1], px[i+2], lin), float64(lab[i]); math.Abs(got-want) > 1 {
			t.Errorf("BGR %v: lightness %.2f, OpenCV %v", px[i:i+3], got, want)
		}
	}
}
