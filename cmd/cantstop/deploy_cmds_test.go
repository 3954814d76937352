package main

import (
	"bytes"
	"github.com/cantstop/cantstop/calibration"
	"github.com/cantstop/cantstop/dice"
	"gocv.io/x/gocv"
	"image"
	"image/color"
	_ "image/jpeg"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cantstop/cantstop/config"
	"github.com/cantstop/cantstop/display"
	"github.com/cantstop/cantstop/hw"
)

func runCLI(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	root := newRootCmd()
	var out, errb bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), errb.String(), err
}

func TestConfigCheck(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.conf")
	bad := filepath.Join(dir, "bad.conf")
	os.WriteFile(good, []byte("[display]\naddress = 0x3D\n[camera]\nsource = rpicam:1280x960\n"), 0o644)
	os.WriteFile(bad, []byte("[display]\naddress = 0x3G\n[camera]\nsource = webcam:0\n[buttonz]\n"), 0o644)

	out, _, err := runCLI(t, "config", "check", good)
	if err != nil || !strings.Contains(out, good+": OK") {
		t.Fatalf("good file: %v %q", err, out)
	}
	_, stderr, err := runCLI(t, "config", "check", bad)
	if err == nil || !strings.Contains(err.Error(), "3 problems") {
		t.Fatalf("bad file: %v", err)
	}
	for _, want := range []string{
		bad + ":2: [display] address = 0x3G: i2c address is not a number: write it like 0x3C",
		bad + `:4: [camera] source = webcam:0: unknown camera source scheme "webcam"`, // camera.ParseSpec, at its line
		bad + ":5: unknown section [buttonz]: did you mean [buttons]?",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("config check output lacks %q:\n%s", want, stderr)
		}
	}
	if _, _, err := runCLI(t, "config", "check", filepath.Join(dir, "missing.conf")); err == nil {
		t.Error("a named file that does not exist passed")
	}
}

func TestConfigShow(t *testing.T) {
	f := filepath.Join(t.TempDir(), "c.conf")
	os.WriteFile(f, []byte("[game]\nlanguage = fr\n"), 0o644)
	out, _, err := runCLI(t, "config", "show", "--config", f)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"read from " + f, `language = "fr"`, "prev = 5", "address = 0x3C"} {
		if !strings.Contains(out, want) {
			t.Errorf("config show lacks %q:\n%s", want, out)
		}
	}
}

func TestVersion(t *testing.T) {
	out, _, err := runCLI(t, "version")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"cantstop ", "commit ", "go       go1.", "opencv   4."} {
		if !strings.Contains(out, want) {
			t.Errorf("version lacks %q:\n%s", want, out)
		}
	}
}

// TestDefaultsMatchHW keeps the config's defaults and the hw package's in step.
func TestDefaultsMatchHW(t *testing.T) {
	b := config.Default().Buttons
	if got, want := hwPins(b), hw.DefaultPins(); got != want {
		t.Errorf("config default pins %+v, hw.DefaultPins %+v", got, want)
	}
	o, d := hwOpts(b, nil), hw.DefaultOpts()
	if o.Debounce != d.Debounce || o.LongPress != d.LongPress || o.Poll != d.Poll {
		t.Errorf("config default timing %v/%v, hw.DefaultOpts %v/%v", o.Debounce, o.LongPress, d.Debounce, d.LongPress)
	}
	if config.Default().Display.Address != display.DefaultAddr {
		t.Errorf("config default address 0x%X, display.DefaultAddr 0x%X", config.Default().Display.Address, display.DefaultAddr)
	}
	for _, l := range config.Languages() {
		if _, err := display.ParseLang(l); err != nil {
			t.Errorf("config accepts language %q that the display lacks: %v", l, err)
		}
	}
	if len(config.Languages()) != len(display.Languages()) {
		t.Errorf("config languages %v, display languages %v", config.Languages(), display.Languages())
	}
}

// TestDoctorWithPhoto runs the doctor on a desktop setup (keyboard, terminal)
// whose camera is a real photo: the camera check goes through camera.Open.
func TestDoctorWithPhoto(t *testing.T) {
	photos, _ := filepath.Glob(filepath.Join("..", "..", "dice", "testdata", "photos", "*", "*.jpg"))
	if len(photos) == 0 {
		t.Fatal("no photo under dice/testdata/photos")
	}
	dir := t.TempDir()
	conf := filepath.Join(dir, "cantstop.conf")
	os.WriteFile(conf, []byte("[buttons]\ninput = keyboard\n[display]\noutput = terminal\n[camera]\nsource = \"file:"+photos[0]+"\"\n"), 0o644)
	out, _, _ := runCLI(t, "doctor", "--config", conf, "--state-dir", dir)
	for _, want := range []string{
		"PASS  config       " + conf + " is valid",
		"PASS  state dir    " + dir + " is writable",
		"WARN  calibration  no calibration profile at " + filepath.Join(dir, "calibration.json"),
		"PASS  camera       file:" + photos[0] + " gives ",
		"WARN  dice learnt  no dice learnt yet",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, out)
		}
	}
	// The dice learnt in play are counted, and why the reader does not use them yet said.
	learnt := filepath.Join(dir, calibration.LearntFile)
	var l calibration.Learnt
	for i := 0; i < 8; i++ {
		l.Examples = append(l.Examples, dice.Example{Value: 1 + i%2, Weight: 1, Square: make([]byte, dice.SquareBytes)})
	}
	if err := l.Save(learnt); err != nil {
		t.Fatal(err)
	}
	out, _, _ = runCLI(t, "doctor", "--config", conf, "--state-dir", dir)
	if want := "WARN  dice learnt  calibration none; play 8 dice (1: 4, 2: 4, 3: 0, 4: 0, 5: 0, 6: 0); too few examples of 3, 4, 5, 6"; !strings.Contains(out, want) {
		t.Errorf("doctor output lacks %q:\n%s", want, out)
	}
	// A background learnt in play is said too (a photo of the board as the empty tray).
	var bm dice.BackgroundMaker
	img := gocv.IMRead(filepath.Join("..", "..", "calibration", "testdata", "IMG_20191209_100620.jpg"), gocv.IMReadColor)
	err := bm.Add(img, nil)
	img.Close()
	if err != nil {
		t.Fatal(err)
	}
	if l.Background, err = bm.Make(); err != nil {
		t.Fatal(err)
	}
	if err := l.Save(learnt); err != nil {
		t.Fatal(err)
	}
	out, _, _ = runCLI(t, "doctor", "--config", conf, "--state-dir", dir)
	if want := "the general network reads; a background learnt in play, 100% of the view"; !strings.Contains(out, want) {
		t.Errorf("doctor output lacks %q:\n%s", want, out)
	}
	os.WriteFile(learnt, []byte(`{"version": 9}`), 0o644)
	out, _, _ = runCLI(t, "doctor", "--config", conf, "--state-dir", dir)
	if !strings.Contains(out, "WARN  dice learnt  learnt examples "+learnt+": version 9") || !strings.Contains(out, "the service sets it aside as rig-examples.json.bad") {
		t.Errorf("doctor on a damaged learnt file:\n%s", out)
	}
	os.Remove(learnt)
	if strings.Contains(out, "buttons") || strings.Contains(out, "display") {
		t.Errorf("doctor checked GPIO or I2C for a keyboard/terminal setup:\n%s", out)
	}
	// Ivory dice on pale wood 1.4 times as bright, as an overexposed camera takes them, warn.
	bright := filepath.Join(dir, "bright.png")
	brighten(t, filepath.Join("..", "..", "dice", "testdata", "photos", "matteop65", "dice_1.jpg"), bright, 1.4)
	os.WriteFile(conf, []byte("[buttons]\ninput = keyboard\n[display]\noutput = terminal\n[camera]\nsource = \"file:"+bright+"\"\n"), 0o644)
	out, _, _ = runCLI(t, "doctor", "--config", conf, "--state-dir", dir)
	if !strings.Contains(out, "WARN  camera       file:"+bright+" gives overexposed frames") || !strings.Contains(out, "--exposure") {
		t.Errorf("doctor on an overexposed picture:\n%s", out)
	}
	// A missing camera file fails, with a fix, and the command fails.
	os.WriteFile(conf, []byte("[camera]\nsource = \"file:"+filepath.Join(dir, "none.jpg")+"\"\n[buttons]\ninput = keyboard\n[display]\noutput = terminal\n"), 0o644)
	out, _, err = runCLI(t, "doctor", "--config", conf, "--state-dir", dir)
	if err == nil || !strings.Contains(out, "FAIL  camera") || !strings.Contains(out, "fix: ") {
		t.Errorf("missing camera file: err %v\n%s", err, out)
	}
}

// brighten writes the photo in as a PNG at out with every channel multiplied by k, clipped.
func brighten(t *testing.T, in, out string, k float64) {
	t.Helper()
	f, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		t.Fatalf("decode %s: %v", in, err)
	}
	b := img.Bounds()
	dst := image.NewNRGBA(b)
	up := func(v uint32) uint8 { return uint8(min(255, math.Round(float64(v>>8)*k))) }
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			dst.SetNRGBA(x, y, color.NRGBA{up(r), up(g), up(bl), 255})
		}
	}
	g, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if err := png.Encode(g, dst); err != nil {
		t.Fatal(err)
	}
}

// TestDoctorInteractiveReadsARoll: doctor --interactive asks for a roll, reads
// the dice in one frame and saves the picture it read them in; a roll it
// cannot read is a warning that says why.
func TestDoctorInteractiveReadsARoll(t *testing.T) {
	photo := filepath.Join("..", "..", "camera", "testdata", "frames", "IMG_20191208_112833.jpg")
	dir := t.TempDir()
	conf := filepath.Join(dir, "cantstop.conf")
	os.WriteFile(conf, []byte("[buttons]\ninput = keyboard\n[display]\noutput = terminal\n[camera]\nsource = \"file:"+photo+"\"\n"), 0o644)
	t.Setenv("TMPDIR", dir)
	out, err := calibrateCLI(t, "\n", "doctor", "--interactive", "--config", conf, "--state-dir", dir)
	if err != nil {
		t.Fatalf("doctor --interactive: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`PASS  camera reading  frame 640x640: read \[2 4 5 6\] \(picture: (\S+\.png)\)`).FindStringSubmatch(out)
	if !strings.Contains(out, "Roll four dice into the tray, then press Enter.") || m == nil {
		t.Fatalf("output lacks the question or the reading:\n%s", out)
	}
	if fi, err := os.Stat(m[1]); err != nil || fi.Size() < 1000 || filepath.Dir(m[1]) != dir {
		t.Errorf("picture %s not saved in the temporary folder %s: %v", m[1], dir, err)
	}
	two := filepath.Join("..", "..", "dice", "testdata", "photos", "matteop65", "five_12.jpg")
	os.WriteFile(conf, []byte("[buttons]\ninput = keyboard\n[display]\noutput = terminal\n[camera]\nsource = \"file:"+two+"\"\n"), 0o644)
	out, _ = calibrateCLI(t, "\n", "doctor", "--interactive", "--config", conf, "--state-dir", dir)
	if !strings.Contains(out, "WARN  camera reading  frame 640x480: wrong count [5 5]") || !strings.Contains(out, "found 2 dice, expected 4") ||
		!strings.Contains(out, "fix: look at the picture") {
		t.Errorf("a roll of two dice is not a warning that says so:\n%s", out)
	}
	// No answer (the input ended): a failure that says to answer, not a camera fix.
	out, _ = calibrateCLI(t, "", "doctor", "--interactive", "--config", conf, "--state-dir", dir)
	if !strings.Contains(out, "FAIL  camera reading  no answer: the input ended") || !strings.Contains(out, "answer its questions") {
		t.Errorf("no answer:\n%s", out)
	}
}
