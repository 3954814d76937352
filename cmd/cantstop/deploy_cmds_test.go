package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	if err == nil || !strings.Contains(err.Error(), "3 problem(s)") {
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
