package calibration

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cantstop/cantstop/camera"
	"github.com/cantstop/cantstop/dice"
)

// Version is the profile format this code writes and the newest it reads.
// Raise it when a field changes meaning; Parse upgrades older profiles.
//
// 3: the reader is the learned one (package dice): its options are the dice count and the
// tray (dice.Opts), and the dice are measured from its boxes, with no pips. Versions 1 and 2
// held the pip reader's settings (reader.die_side_px, background_lab, min_contrast, ...) and
// the pips' size and colours (dice.pip_px, pip_lab, ...): Parse drops them (obsoleteFields).
// 2: reader.die_side_px was in the pip reader's own measure; version 1 held the top face's
// side there.
const Version = 3

// Profile is what calibration learned about one rig: camera, tray, dice.
type Profile struct {
	Version  int             `json:"version"`
	Created  time.Time       `json:"created"`
	Camera   string          `json:"camera,omitempty"` // source it was made with, e.g. "v4l2:/dev/video0"
	Controls camera.Controls `json:"controls"`
	Tray     Tray            `json:"tray"`
	Dice     Dice            `json:"dice"`
	Reader   dice.Opts       `json:"reader"` // the reader options the values above give
	// Upgraded says what Parse changed in a profile of an older version (not saved).
	Upgraded []string `json:"-"`
}

// Dice is what the calibration roll showed about the game's dice.
type Dice struct {
	Count  int     `json:"count"`   // dice in play (4 in Can't Stop)
	Values []int   `json:"values"`  // the calibration roll, as confirmed by the user
	SidePx float64 `json:"side_px"` // a die's side, pixels: the median side of the reader's boxes
}

// Validate reports missing or impossible values, naming each field.
func (p Profile) Validate() error {
	var errs []error
	bad := func(field, format string, a ...any) {
		errs = append(errs, fmt.Errorf("field %s: %s", field, fmt.Sprintf(format, a...)))
	}
	if p.Version < 1 {
		bad("version", "missing or below 1")
	}
	if p.Tray.Frame.X <= 0 || p.Tray.Frame.Y <= 0 {
		bad("tray.frame", "missing: the frame size the profile was made at")
	}
	if len(p.Tray.Outline) < 3 {
		bad("tray.outline", "missing: want at least 3 points")
	}
	if p.Tray.Box.Empty() || !p.Tray.Box.In(image.Rectangle{Max: p.Tray.Frame}) {
		bad("tray.box", "%v is empty or outside the %dx%d frame", p.Tray.Box, p.Tray.Frame.X, p.Tray.Frame.Y)
	}
	if p.Dice.Count < 1 || p.Dice.Count > 12 {
		bad("dice.count", "%d: want 1 to 12", p.Dice.Count)
	}
	if !(p.Dice.SidePx > 0) {
		bad("dice.side_px", "missing or not positive")
	}
	if err := p.Controls.Validate(); err != nil {
		bad("controls", "%v", err)
	}
	return errors.Join(errs...)
}

// ReaderOpts returns the reader options for frames of the given size,
// scaling the tray if the camera now gives another resolution.
func (p Profile) ReaderOpts(frame image.Point) dice.Opts {
	o := p.Reader
	if frame == p.Tray.Frame || p.Tray.Frame.X <= 0 || frame.X <= 0 {
		return o
	}
	sx := float64(frame.X) / float64(p.Tray.Frame.X)
	sy := float64(frame.Y) / float64(p.Tray.Frame.Y)
	sc := func(v int, s float64) int { return int(math.Round(float64(v) * s)) }
	o.Tray = image.Rect(sc(o.Tray.Min.X, sx), sc(o.Tray.Min.Y, sy), sc(o.Tray.Max.X, sx), sc(o.Tray.Max.Y, sy))
	return o
}

// SystemDir is the configuration directory of a packaged install.
const SystemDir = "/etc/cantstop"

// Dir returns the directory holding the configuration and calibration:
// $CANTSTOP_CONFIG_DIR, else systemd's $CONFIGURATION_DIRECTORY (set by
// ConfigurationDirectory=), else SystemDir when it exists, else
// os.UserConfigDir()/cantstop.
func Dir() (string, error) {
	if d := os.Getenv("CANTSTOP_CONFIG_DIR"); d != "" {
		return d, nil
	}
	if d := os.Getenv("CONFIGURATION_DIRECTORY"); d != "" {
		first, _, _ := strings.Cut(d, ":") // systemd lists several as a:b
		return first, nil
	}
	// A packaged install keeps config and profile together in /etc/cantstop,
	// where the service looks (its ConfigurationDirectory).
	if fi, err := os.Stat(SystemDir); err == nil && fi.IsDir() {
		return SystemDir, nil
	}
	d, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("find the configuration directory: %w (set CANTSTOP_CONFIG_DIR or give --profile)", err)
	}
	return filepath.Join(d, "cantstop"), nil
}

// DefaultPath returns Dir()/calibration.json.
func DefaultPath() (string, error) {
	d, err := Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "calibration.json"), nil
}

// recalibrate ends every error about a profile that cannot be used.
const recalibrate = "run `cantstop calibrate` again"

// Load reads and checks a profile. A missing file gives an error that
// wraps fs.ErrNotExist, so callers can fall back to no calibration.
func Load(path string) (Profile, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Profile{}, fmt.Errorf("no calibration profile at %s: run `cantstop calibrate` (the reader works without one, less surely): %w", path, err)
	}
	if err != nil {
		return Profile{}, fmt.Errorf("read calibration profile: %w", err)
	}
	p, err := Parse(data)
	if err != nil {
		return Profile{}, fmt.Errorf("calibration profile %s: %w", path, err)
	}
	return p, nil
}

// Parse decodes a profile, refusing one from a newer cantstop, broken JSON
// (with the line and column) and missing fields.
func Parse(data []byte) (Profile, error) {
	var head struct {
		Version *int `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return Profile{}, jsonError(data, err)
	}
	switch {
	case head.Version == nil:
		return Profile{}, fmt.Errorf("no \"version\" field: this is not a calibration profile; %s", recalibrate)
	case *head.Version > Version:
		return Profile{}, fmt.Errorf("calibration profile version %d is newer than this cantstop understands (%d): upgrade cantstop or %s", *head.Version, Version, recalibrate)
	case *head.Version < 1:
		return Profile{}, fmt.Errorf("calibration profile version %d is not valid; %s", *head.Version, recalibrate)
	}
	var p Profile
	if err := json.Unmarshal(data, &p); err != nil {
		return Profile{}, jsonError(data, err)
	}
	if p.Version < 3 {
		if old := obsoleteFields(data); len(old) > 0 {
			p.Upgraded = append(p.Upgraded, fmt.Sprintf("version %d held settings of the old pip reader (%s): they are dropped, the dice count and the tray are kept (`cantstop calibrate` writes a version %d profile)", p.Version, strings.Join(old, ", "), Version))
		}
	}
	if err := p.Validate(); err != nil {
		return Profile{}, fmt.Errorf("%w; %s", err, recalibrate)
	}
	return p, nil
}

// obsoleteFields lists the fields of a profile of version 1 or 2 that version 3 dropped, as
// "reader.min_contrast", in the order listed: what the old pip reader was tuned with
// and what calibration measured of the pips.
func obsoleteFields(data []byte) []string {
	var old struct {
		Reader map[string]json.RawMessage `json:"reader"`
		Dice   map[string]json.RawMessage `json:"dice"`
	}
	if json.Unmarshal(data, &old) != nil {
		return nil
	}
	var out []string
	for _, f := range []struct {
		in     map[string]json.RawMessage
		prefix string
		names  []string
	}{
		{old.Reader, "reader.", []string{"die_side_px", "background_lab", "detect_max_dim", "face_side", "min_contrast", "max_layout_error", "min_confidence", "pips_only"}},
		{old.Dice, "dice.", []string{"pip_px", "face_lab", "pip_lab", "face_contrast", "pip_contrast"}},
	} {
		for _, n := range f.names {
			if _, ok := f.in[n]; ok {
				out = append(out, f.prefix+n)
			}
		}
	}
	return out
}

// jsonError turns a decoding error's byte offset into a line and column.
func jsonError(data []byte, err error) error {
	at := func(off int64) string {
		before := data[:max(0, min(int(off), len(data)))]
		line := bytes.Count(before, []byte("\n")) + 1
		col := len(before) - bytes.LastIndexByte(before, '\n')
		return fmt.Sprintf("line %d, column %d", line, col)
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Errorf("not valid JSON at %s: %w; fix the file or %s", at(syn.Offset), err, recalibrate)
	case errors.As(err, &typ) && typ.Field == "":
		return fmt.Errorf("the file holds a JSON %s, not a calibration profile (a JSON object); %s", typ.Value, recalibrate)
	case errors.As(err, &typ):
		return fmt.Errorf("%s: field %s holds a %s, want a %v; fix the file or %s", at(typ.Offset), typ.Field, typ.Value, typ.Type, recalibrate)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("not valid JSON: the file ends early; fix the file or %s", recalibrate)
	}
	return fmt.Errorf("not valid JSON: %w; fix the file or %s", err, recalibrate)
}

// Save writes the profile as indented JSON, atomically (a temporary file
// renamed over the old one after fsync), creating the directory.
func (p Profile) Save(path string) error {
	if p.Version == 0 {
		p.Version = Version
	}
	if err := p.Validate(); err != nil {
		return fmt.Errorf("save calibration profile: %w", err)
	}
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return fmt.Errorf("save calibration profile: %w", err)
	}
	return writeAtomic(path, append(data, '\n'))
}

func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	f, err := os.CreateTemp(dir, ".calibration-*.tmp")
	if err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	defer os.Remove(f.Name()) // after a successful rename this finds nothing
	if _, err := f.Write(data); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}
