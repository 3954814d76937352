package main

import (
	"encoding/json"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

func TestDiceReadFile(t *testing.T) {
	photo := filepath.Join("..", "..", "camera", "testdata", "dice", "matteop65", "four_12.jpg")
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
	if rd.Status != "read" || len(rd.Dice) != 2 || rd.Dice[0].Value != 4 || rd.Dice[1].Value != 4 {
		t.Errorf("four_12.jpg (two 4s) read as %+v", rd)
	}
}

// A picture of the bare table says so rather than a bare "read []".
func TestDiceReadNoDice(t *testing.T) {
	photo := gocv.IMRead(filepath.Join("..", "..", "camera", "testdata", "dice", "matteop65", "four_12.jpg"), gocv.IMReadColor)
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
	if err != nil {
		t.Fatalf("dice read: %v\n%s", err, out)
	}
	if !strings.HasPrefix(out, "read []") || !strings.Contains(out, "no dice found") {
		t.Errorf("bare table: output %q, want a reading with no dice that says so", out)
	}
}

func TestDiceReadBadFile(t *testing.T) {
	dir := t.TempDir()
	notPicture := filepath.Join("..", "..", "camera", "testdata", "dice", "matteop65", "labels.csv")
	for _, tc := range []struct {
		arg, want string
	}{
		{filepath.Join(dir, "missing.jpg"), "no such file or directory"},
		{"file:" + filepath.Join(dir, "roll.jpg"), "use --camera file:"},
		{dir, "a folder, not a picture"},
		{notPicture, "not a picture OpenCV can decode"},
	} {
		_, err := calibrateCLI(t, "", "dice", "read", tc.arg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("dice read %s: error %v, want one saying %q", tc.arg, err, tc.want)
		}
	}
}

// A value read by the face network, or with a glare streak taken out, says so, in the text
// and in the JSON: 100510's 1 only the networks read; 100358's navy 1, ringed in black, is
// refused from its pips as they are and read once its glare is taken out.
func TestDiceReadByNet(t *testing.T) {
	for _, c := range []struct {
		photo, want, text string
		net, glare        int
	}{
		{"IMG_20191209_100510.jpg", "read [1 3 5 5]", "read by the face network", 1, 0},
		{"IMG_20191209_100358.jpg", "read [1 3 6]", "read with a glare streak taken out", 0, 1},
	} {
		photo := filepath.Join("..", "..", "camera", "testdata", "dice", "nell-byler", c.photo)
		out, err := calibrateCLI(t, "", "dice", "read", photo)
		if err != nil {
			t.Fatalf("dice read: %v\n%s", err, out)
		}
		if !strings.HasPrefix(out, c.want) || strings.Count(out, c.text) != c.net+c.glare {
			t.Errorf("%s: output %q, want %s with %d dice %s", c.photo, out, c.want, c.net+c.glare, c.text)
		}
		out, err = calibrateCLI(t, "", "dice", "read", photo, "--json")
		if err != nil {
			t.Fatalf("dice read --json: %v\n%s", err, out)
		}
		var rd struct{ Dice []struct{ Net, Glare bool } }
		if err := json.Unmarshal([]byte(out), &rd); err != nil {
			t.Fatalf("output is not JSON: %v\n%s", err, out)
		}
		net, glare := 0, 0
		for _, d := range rd.Dice {
			net += btoi(d.Net)
			glare += btoi(d.Glare)
		}
		if net != c.net || glare != c.glare {
			t.Errorf("%s: %d dice marked \"net\" and %d \"glare\" in %s, want %d and %d", c.photo, net, glare, out, c.net, c.glare)
		}
	}
}

// btoi is 1 for true.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// dice bench --cut cuts a photo through each of its two 4s (the row of one, cut by the right
// edge, was read as a 2 before faces proposed from pips had to clear the edge); --json reports
// the counts, and what --cut cannot do says so.
func TestDiceBenchCut(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join("..", "..", "camera", "testdata", "dice", "matteop65", "four_19.jpg")
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
// frames) and says so in its report; a bad frame count, or settling with --crops, is refused.
func TestDiceBenchSettle(t *testing.T) {
	dir := filepath.Join("..", "..", "camera", "testdata", "dice", "tai-studio")
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
	for _, args := range [][]string{{"--settle", "-1"}, {"--settle", "3", "--crops", filepath.Join(t.TempDir(), "crops.jsonl")}} {
		if _, err := calibrateCLI(t, "", append([]string{"dice", "bench", dir}, args...)...); err == nil || !strings.Contains(err.Error(), "--settle") {
			t.Errorf("%v: %v, want an error naming --settle", args, err)
		}
	}
}
