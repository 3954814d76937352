package main

import (
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

func TestDiceReadFile(t *testing.T) {
	photo := filepath.Join("..", "..", "dice", "testdata", "photos", "matteop65", "five_12.jpg")
	out, err := calibrateCLI(t, "", "dice", "read", photo, "--json")
	if err != nil {
		t.Fatalf("dice read %s: %v\n%s", photo, err, out)
	}
	var rd struct {
		Status string
		Dice   []struct{ Value int }
	}
	if err := json.Unmarshal([]byte(out), &rd); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if rd.Status != "read" || len(rd.Dice) != 2 || rd.Dice[0].Value != 5 || rd.Dice[1].Value != 5 {
		t.Errorf("five_12.jpg (two 5s) read as %+v", rd)
	}
	// Scripts tell the outcomes apart by the exit code.
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{photo}, 0},
		{[]string{photo, "--expect", "2"}, 0},
		{[]string{photo, "--expect", "4"}, exitWrongCount},
		{[]string{photo, "--expct", "4"}, exitUsage},
		{[]string{photo, photo}, exitUsage},
		{[]string{photo + ".missing"}, exitError},
	} {
		out, err := calibrateCLI(t, "", append([]string{"dice", "read"}, c.args...)...)
		if got := exitCode(err); got != c.code {
			t.Errorf("dice read %v: exit code %d (%v), want %d\n%s", c.args, got, err, c.code, out)
		}
	}
}

// A picture of the bare table says so, and where to look, rather than a bare "[]".
func TestDiceReadNoDice(t *testing.T) {
	photo := gocv.IMRead(filepath.Join("..", "..", "dice", "testdata", "photos", "matteop65", "four_12.jpg"), gocv.IMReadColor)
	defer photo.Close()
	if photo.Empty() {
		t.Fatal("cannot decode four_12.jpg")
	}
	table := photo.Region(image.Rect(0, 0, photo.Cols(), photo.Rows()/4)) // the wood above the dice
	defer table.Close()
	file := filepath.Join(t.TempDir(), "table.png")
	if !gocv.IMWrite(file, table) {
		t.Fatal("cannot write the table picture")
	}
	out, err := calibrateCLI(t, "", "dice", "read", file)
	if code := exitCode(err); code != exitUnreadable {
		t.Fatalf("dice read of a bare table: exit code %d (%v), want %d (unreadable)\n%s", code, err, exitUnreadable, out)
	}
	if first, _, _ := strings.Cut(out, "\n"); !strings.HasSuffix(first, " []") || !strings.Contains(out, "no dice found: if dice are in view") {
		t.Errorf("bare table: output %q, want a reading with no dice that says so", out)
	}
}

func TestDiceReadBadFile(t *testing.T) {
	dir := t.TempDir()
	notPicture := filepath.Join("..", "..", "dice", "testdata", "photos", "matteop65", "labels.csv")
	// A 45-byte PNG whose header claims 100000x100000: once an abort inside OpenCV.
	huge := filepath.Join(dir, "huge.png")
	ihdr := binary.BigEndian.AppendUint32([]byte("IHDR"), 100000)
	ihdr = binary.BigEndian.AppendUint32(ihdr, 100000)
	ihdr = append(ihdr, 8, 2, 0, 0, 0)
	png := append([]byte("\x89PNG\r\n\x1a\n"), 0, 0, 0, 13)
	png = binary.BigEndian.AppendUint32(append(png, ihdr...), crc32.ChecksumIEEE(ihdr))
	if err := os.WriteFile(huge, png, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		arg, want string
	}{
		{filepath.Join(dir, "missing.jpg"), "no such file or directory"},
		{"file:" + filepath.Join(dir, "roll.jpg"), "use --camera file:"},
		{dir, "a folder, not a picture"},
		{notPicture, "not an image OpenCV can decode"},
		{huge, "png of 100000x100000 px (10000.0 MP) is larger than"},
	} {
		_, err := calibrateCLI(t, "", "dice", "read", tc.arg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("dice read %s: error %v, want one saying %q", tc.arg, err, tc.want)
		}
	}
}

// Each die's line gives its box, its value (or "?" and why) and the face network's
// confidence; the JSON carries the same, and nothing of the old pip reader (pips, net,
// glare). --model reads with the networks of a folder: the built-in ones' own folder reads
// alike, a folder without networks is an error naming it.
func TestDiceReadConfidence(t *testing.T) {
	photo := filepath.Join("..", "..", "dice", "testdata", "photos", "nell-byler", "IMG_20191209_100510.jpg")
	out, err := calibrateCLI(t, "", "dice", "read", photo)
	if err != nil {
		t.Fatalf("dice read: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	dice := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "  die at ") {
			dice++
			if !strings.Contains(l, ", confidence 0.") && !strings.Contains(l, ", confidence 1.00") {
				t.Errorf("die line %q gives no confidence in [0,1]", l)
			}
		}
	}
	if dice == 0 {
		t.Errorf("no die listed for a photo of four dice:\n%s", out)
	}
	js, err := calibrateCLI(t, "", "dice", "read", photo, "--json")
	if err != nil {
		t.Fatalf("dice read --json: %v\n%s", err, js)
	}
	var rd struct {
		Status string
		Dice   []map[string]any
	}
	if err := json.Unmarshal([]byte(js), &rd); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, js)
	}
	if len(rd.Dice) != dice {
		t.Errorf("%d dice in the JSON, %d in the text", len(rd.Dice), dice)
	}
	for _, d := range rd.Dice {
		c, ok := d["confidence"].(float64)
		if !ok || c < 0 || c > 1 {
			t.Errorf("die %v: confidence %v, want a number in [0,1]", d, d["confidence"])
		}
		for _, k := range []string{"pips", "net", "glare"} {
			if _, ok := d[k]; ok {
				t.Errorf("die %v has the old reader's field %q", d, k)
			}
		}
	}
	own, err := calibrateCLI(t, "", "dice", "read", photo, "--model", filepath.Join("..", "..", "dice", "model"))
	if err != nil || own != out {
		t.Errorf("--model with the built-in networks' folder: %v\n%s\nwant as built in:\n%s", err, own, out)
	}
	empty := t.TempDir()
	if _, err := calibrateCLI(t, "", "dice", "read", photo, "--model", empty); err == nil || !strings.Contains(err.Error(), empty) {
		t.Errorf("--model with no networks: %v, want an error naming %s", err, empty)
	}
	if _, err := calibrateCLI(t, "", "dice", "bench", filepath.Dir(photo), "--model", empty); err == nil || !strings.Contains(err.Error(), empty) {
		t.Errorf("dice bench --model with no networks: %v, want an error naming %s", err, empty)
	}
}

// dice bench --cut cuts a photo through each of its two 4s; --json reports the counts, and
// what --cut cannot do says so.
func TestDiceBenchCut(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join("..", "..", "dice", "testdata", "photos", "matteop65", "four_19.jpg")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"four_19.jpg": string(b),
		"labels.csv":  "file,values\nfour_19.jpg,4 4\n",
		"boxes.csv":   "file,value,x0,y0,x1,y1\nfour_19.jpg,4,188,186,238,229\nfour_19.jpg,4,342,265,381,305\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := calibrateCLI(t, "", "dice", "bench", dir, "--cut", "--json")
	if err != nil {
		t.Fatalf("dice bench --cut: %v\n%s", err, out)
	}
	var rep struct {
		Total struct{ Cuts, Refused, Read, Misread int }
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if s := rep.Total; s.Cuts != 24 || s.Refused+s.Read+s.Misread != 24 || s.Misread != 0 || s.Refused == 0 {
		t.Errorf("two dice cut 12 ways each: %+v, want 24 cuts, some refused, none misread", s)
	}
	if _, err := calibrateCLI(t, "", "dice", "bench", dir, "--cut", "--vary", "blur"); err == nil || !strings.Contains(err.Error(), "leave out --vary") {
		t.Errorf("--cut with --vary: %v, want an error saying to leave out --vary", err)
	}
	if err := os.Remove(filepath.Join(dir, "boxes.csv")); err != nil {
		t.Fatal(err)
	}
	if _, err := calibrateCLI(t, "", "dice", "bench", dir, "--cut"); err == nil || !strings.Contains(err.Error(), "needs a boxes.csv") {
		t.Errorf("--cut without boxes.csv: %v, want an error saying it needs one", err)
	}
}

// dice bench --settle reads each photo as the companion reads a still tray (Settle over noisy
// frames) and says so in its report; a bad frame count is refused, and so are the flags of the
// old reader's training (--crops, --pips-only).
func TestDiceBenchSettle(t *testing.T) {
	// Single dice the reader reads from the photos as they are (tai-studio's it does not).
	dir := t.TempDir()
	labels := "file,values\n"
	for _, f := range []struct{ file, values string }{{"three_6.jpg", "3"}, {"six_6.jpg", "6"}, {"five_4.jpg", "5"}} {
		b, err := os.ReadFile(filepath.Join("..", "..", "dice", "testdata", "photos", "matteop65", f.file))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f.file), b, 0o644); err != nil {
			t.Fatal(err)
		}
		labels += f.file + "," + f.values + "\n"
	}
	if err := os.WriteFile(filepath.Join(dir, "labels.csv"), []byte(labels), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := calibrateCLI(t, "", "dice", "bench", dir, "--settle", "8", "--json")
	if err != nil {
		t.Fatalf("dice bench --settle: %v\n%s", err, out)
	}
	var rep struct {
		Settle int
		Total  struct{ Photos, Exact, Misread int }
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if rep.Settle != 8 || rep.Total.Photos == 0 || rep.Total.Exact != rep.Total.Photos || rep.Total.Misread != 0 {
		t.Errorf("settled over 8 frames: %+v, want settle 8 and every single die read", rep)
	}
	if _, err := calibrateCLI(t, "", "dice", "bench", dir, "--settle", "-1"); err == nil || !strings.Contains(err.Error(), "--settle") {
		t.Errorf("--settle -1: %v, want an error naming --settle", err)
	}
	if _, err := calibrateCLI(t, "", "dice", "bench", dir, "--adapt", "-1"); err == nil || !strings.Contains(err.Error(), "--adapt -1: give the number of photos") {
		t.Errorf("--adapt -1: %v, want an error naming --adapt", err)
	}
	nell := filepath.Join("..", "..", "dice", "testdata", "photos", "nell-byler")
	out, err = calibrateCLI(t, "", "dice", "bench", nell, "--max-dice", "6", "--adapt", "10")
	if err != nil || !strings.Contains(out, "nell-byler<=6: learnt ") || !strings.Contains(out, "from its first 10 photos") || !strings.Contains(out, "background from 10 photos") ||
		!strings.Contains(out, "nell-byler<=6: untaught, the same ") {
		t.Errorf("dice bench --adapt 10: %v\n%s", err, out)
	}
	out, err = calibrateCLI(t, "", "dice", "bench", nell, "--max-dice", "6", "--adapt", "10", "--no-background")
	if err != nil || !strings.Contains(out, "background from 0 photos") {
		t.Errorf("dice bench --adapt 10 --no-background: %v\n%s", err, out)
	}
	if _, err := calibrateCLI(t, "", "dice", "bench", nell, "--no-background"); err == nil || !strings.Contains(err.Error(), "--no-background goes with --adapt") {
		t.Errorf("--no-background alone: %v", err)
	}
	for _, flag := range []string{"--crops=" + filepath.Join(t.TempDir(), "crops.jsonl"), "--pips-only"} {
		if _, err := calibrateCLI(t, "", "dice", "bench", dir, flag); err == nil || !strings.Contains(err.Error(), "unknown flag") {
			t.Errorf("%s: %v, want an unknown flag", flag, err)
		}
	}
}
