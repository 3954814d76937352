package dice

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// defaultConfig is the built-in model.json.
func defaultConfig(t testing.TB) config {
	t.Helper()
	b, err := builtIn.ReadFile("model/" + cfgFile)
	if err != nil {
		t.Fatal(err)
	}
	c, err := parseConfig(b)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestBuiltInModel: the embedded networks load, with the sizes scripts/dicenet/common.py
// trains with.
func TestBuiltInModel(t *testing.T) {
	m, err := loadModel("")
	if err != nil {
		t.Fatal(err)
	}
	defer m.close()
	c := m.cfg
	if c.DetSide != 320 || c.Stride != 4 || c.FaceSide != 40 || c.Crop != 1.25 || c.Pad != 114 {
		t.Errorf("built-in model.json: %+v, want common.py's DET=320 STRIDE=4 FACE=40 CROP=1.25 PAD=114", c)
	}
	if m.th.MinPeak != c.MinPeak || m.th.Peak != c.Thresholds.Peak {
		t.Errorf("thresholds %+v do not carry model.json's %+v, min_peak %v", m.th, c.Thresholds, c.MinPeak)
	}
}

// modelDir copies the built-in model into a temporary folder, with model.json's text edited
// by edit and the files in drop left out.
func modelDir(t *testing.T, edit func(string) string, drop ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range []string{detFile, faceFile, cfgFile} {
		b, err := builtIn.ReadFile("model/" + n)
		if err != nil {
			t.Fatal(err)
		}
		if n == cfgFile {
			b = []byte(edit(string(b)))
		}
		skip := false
		for _, d := range drop {
			skip = skip || d == n
		}
		if !skip {
			if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

// setField replaces the value of a model.json field ("key": value) by v.
func setField(key, v string) func(string) string {
	return func(s string) string {
		i := strings.Index(s, `"`+key+`":`)
		if i < 0 {
			panic("no " + key + " in model.json")
		}
		j := i + len(key) + 3
		k := strings.IndexAny(s[j:], ",\n}")
		return s[:j] + " " + v + s[j+k:]
	}
}

func TestLoadModelErrors(t *testing.T) {
	same := func(s string) string { return s }
	for _, tc := range []struct {
		name string
		edit func(string) string
		drop []string
		want []string // all in the error
	}{
		{"folder as built in", same, nil, nil},
		{"crop zero", setField("crop", "0"), nil, []string{"model.json", "crop = 0", "out of range"}},
		{"face threshold above 1", setField("face", "1.5"), nil, []string{"thresholds.face = 1.5"}},
		{"negative peak threshold", setField("peak", "-0.1"), nil, []string{"thresholds.peak = -0.1"}},
		{"pad past 255", setField("pad", "300"), nil, []string{"pad = 300"}},
		{"min_peak missing", setField("min_peak", `"x"`), nil, []string{"model.json", "parse"}},
		{"stride not dividing", setField("stride", "7"), nil, []string{"det_side = 320", "stride = 7"}},
		{"broken JSON", func(s string) string { return s[:len(s)/2] }, nil, []string{"model.json", "parse"}},
		{"no face network", same, []string{faceFile}, []string{"face.onnx", "no such file"}},
		{"no model.json", same, []string{cfgFile}, []string{"model.json", "no such file"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := modelDir(t, tc.edit, tc.drop...)
			m, err := loadModel(dir)
			if tc.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				m.close()
				return
			}
			if err == nil {
				m.close()
				t.Fatalf("loaded; want an error with %q", tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
	// OpenCV aborts the program on a file it cannot parse: these must be refused before.
	good, err := builtIn.ReadFile("model/" + detFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"text", []byte("not a network at all")},
		{"truncated", good[:len(good)/2]},
		{"JSON", []byte(`{"graph": 1}`)},
	} {
		t.Run("damaged network "+tc.name, func(t *testing.T) {
			dir := modelDir(t, same)
			if err := os.WriteFile(filepath.Join(dir, detFile), tc.b, 0o644); err != nil {
				t.Fatal(err)
			}
			m, err := loadModel(dir)
			if err == nil {
				m.close()
				t.Fatal("loaded a damaged detector.onnx")
			}
			if !strings.Contains(err.Error(), detFile) {
				t.Errorf("error %q does not name %s", err, detFile)
			}
		})
	}
	t.Run("reader", func(t *testing.T) {
		_, err := NewReader(Opts{Model: filepath.Join(t.TempDir(), "none")})
		if err == nil || !strings.Contains(err.Error(), "load dice model") {
			t.Errorf("NewReader on a missing folder: %v", err)
		}
	})
}
