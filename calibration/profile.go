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
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/cantstop/cantstop/camera"
	"github.com/cantstop/cantstop/dice"
)

// Version is the profile format this code writes and the newest it reads.
// Raise it when a field changes meaning; Parse upgrades older profiles.
//
// 4: examples, the dice of the calibration rolls as the person confirmed them (dice.Example),
// which the reader adapts to. Versions 1-3 have none.
// 3: the reader is the learned one (package dice): its options are the dice count and the
// tray (dice.Opts), and the dice are measured from its boxes, with no pips. Versions 1 and 2
// held the pip reader's settings (reader.die_side_px, background_lab, min_contrast, ...) and
// the pips' size and colours (dice.pip_px, pip_lab, ...): Parse drops them (obsoleteFields).
// 2: reader.die_side_px was in the pip reader's own measure; version 1 held the top face's
// side there.
const Version = 4

// Profile is what calibration learned about one rig: camera, tray, dice. Validate lists the
// range of every field; Parse (and so Load) and Save refuse a profile with any field outside it.
type Profile struct {
	Version  int             `json:"version"`
	Created  time.Time       `json:"created"`
	Camera   string          `json:"camera,omitempty"` // source it was made with, e.g. "v4l2:/dev/video0"
	Controls camera.Controls `json:"controls"`
	Tray     Tray            `json:"tray"`
	Dice     Dice            `json:"dice"`
	Reader   dice.Opts       `json:"reader"` // the reader options the values above give
	// Examples are the dice of the calibration rolls, as confirmed: the reader adapts to them
	// (dice.Reader.Adapt), with those learnt in play (Learnt).
	Examples []dice.Example `json:"examples,omitempty"`
	// Background is the empty tray as the camera saw it at calibration, the rolls' dice masked:
	// the reader drops detector peaks on spots of the rig itself (dice.Background). Profiles
	// made before it have none.
	Background *dice.Background `json:"background,omitempty"`
	// Upgraded says what Parse changed in a profile of an older version, and which fields it
	// ignored as unknown (not saved).
	Upgraded []string `json:"-"`
}

// Dice is what the calibration roll showed about the game's dice.
type Dice struct {
	Count  int     `json:"count"`   // dice in play (4 in Can't Stop)
	Values []int   `json:"values"`  // the calibration roll, as confirmed by the user
	SidePx float64 `json:"side_px"` // a die's side, pixels: the median side of the reader's boxes
}

// Limits of a profile's values (see Validate for every field's range).
const (
	// MaxDice is the most dice a profile may hold (dice.count).
	MaxDice = 12
	// MaxSidePx is the largest die side, in pixels, a profile may hold (dice.side_px): a die
	// that large fills a 2048-px working frame.
	MaxSidePx = 2000
	// MaxOutlinePoints bounds tray.outline (calibration's outline has a few dozen points).
	MaxOutlinePoints = 1000
	// MaxCameraLen bounds the camera source recorded in the profile, in bytes.
	MaxCameraLen = 1024
	// MaxProfileBytes bounds the file Load reads (a profile is about 1 kB, and 6.4 kB an example).
	MaxProfileBytes = 2 << 20

	// Upper bounds of the camera controls, beyond camera.Controls.Validate's lower ones: the
	// largest values a rig for a dice tray has any use for.
	maxExposure = 100_000    // V4L2 exposure, typically 100 µs units: 10 s
	maxFocus    = 65_535     // V4L2 focus_absolute (cameras use 0-255 or 0-1023)
	maxShutter  = 10_000_000 // rpicam-vid shutter, µs: 10 s
	maxGain     = 64         // rpicam-vid analogue gain (sensors reach 16-22, digital gain beyond)
	maxAWBGain  = 32         // rpicam-vid red and blue gains (libcamera's ColourGains range)
	maxLabValue = 255        // OpenCV 8-bit Lab channels
	maxLabDist  = 442        // the largest distance of two 8-bit Lab colours: 255·√3
)

// Validate reports every missing or out-of-range value at once, naming each field, its value
// and the range it must be in. The ranges:
//
//	version                  1 to Version
//	created                  any time (informational: when calibration ran)
//	camera                   at most MaxCameraLen bytes (informational: the source it was made with)
//	controls                 camera.Controls.Validate, and width and height 0 to camera.MaxImageSide,
//	                         exposure 0 to 100000, focus 0 to 65535, shutter_us 0 to 10000000,
//	                         gain 0 to 64, awb_gains 0 to 32 each
//	tray.frame               1 to camera.MaxImageSide pixels each way
//	tray.outline             3 to MaxOutlinePoints points, each inside tray.frame (edges included)
//	tray.box                 not empty, inside tray.frame
//	tray.lab                 0 to 255 each (OpenCV 8-bit Lab)
//	tray.spread              0 to 442 (a Lab distance)
//	tray.share               0 to 1
//	dice.count               1 to MaxDice
//	dice.values              as many as dice.count, each 1 to 6; or none
//	dice.side_px             above 0, at most MaxSidePx
//	reader.expect            0 (any count) or dice.count
//	reader.tray              empty (the whole frame) or inside tray.frame
//	reader.model             "" (the built-in networks): a profile does not point the reader at
//	                         other files; `dice read --model` and `dice bench --model` do that
//	examples                 at most MaxExamples, each with value 0 to 6, weight above 0 and at
//	                         most 100, a square of dice.SquareBytes bytes and side 0 to MaxSidePx
//	background               none, or dice.Background.Check's sizes for frames of tray.frame
//
// Fields a profile holds that are none of these (an old reader's settings, a hand edit) are
// not read at all (Parse says which, in Upgraded).
func (p Profile) Validate() error {
	var errs []error
	bad := func(field, format string, a ...any) {
		errs = append(errs, fmt.Errorf("field %s: %s", field, fmt.Sprintf(format, a...)))
	}
	if p.Version < 1 || p.Version > Version {
		bad("version", "%d: want 1 to %d", p.Version, Version)
	}
	if len(p.Camera) > MaxCameraLen {
		bad("camera", "%d bytes long: want at most %d", len(p.Camera), MaxCameraLen)
	}
	if err := p.Controls.Validate(); err != nil {
		bad("controls", "%v", err)
	}
	c := p.Controls
	if c.Width > camera.MaxImageSide || c.Height > camera.MaxImageSide {
		bad("controls.width/height", "%dx%d: want 0 to %d each (camera.MaxImageSide)", c.Width, c.Height, camera.MaxImageSide)
	}
	if c.Exposure > maxExposure {
		bad("controls.exposure", "%g: want 0 to %d", c.Exposure, maxExposure)
	}
	if c.Focus != nil && *c.Focus > maxFocus {
		bad("controls.focus", "%g: want 0 to %d", *c.Focus, maxFocus)
	}
	if c.ShutterUS > maxShutter {
		bad("controls.shutter_us", "%d: want 0 to %d", c.ShutterUS, maxShutter)
	}
	if c.Gain > maxGain {
		bad("controls.gain", "%g: want 0 to %d", c.Gain, maxGain)
	}
	if c.AWBGains[0] > maxAWBGain || c.AWBGains[1] > maxAWBGain {
		bad("controls.awb_gains", "%g,%g: want 0 to %d each", c.AWBGains[0], c.AWBGains[1], maxAWBGain)
	}

	t := p.Tray
	frame := image.Rectangle{Max: t.Frame}
	frameOK := t.Frame.X >= 1 && t.Frame.Y >= 1 && t.Frame.X <= camera.MaxImageSide && t.Frame.Y <= camera.MaxImageSide
	switch {
	case t.Frame.X == 0 && t.Frame.Y == 0:
		bad("tray.frame", "missing: the frame size the profile was made at")
	case !frameOK:
		bad("tray.frame", "%dx%d: want 1 to %d pixels each way (camera.MaxImageSide)", t.Frame.X, t.Frame.Y, camera.MaxImageSide)
	}
	switch n := len(t.Outline); {
	case n < 3:
		bad("tray.outline", "missing: want at least 3 points, got %d", n)
	case n > MaxOutlinePoints:
		bad("tray.outline", "%d points: want 3 to %d", n, MaxOutlinePoints)
	case frameOK:
		out := 0
		var first image.Point
		for _, q := range t.Outline {
			if q.X < 0 || q.Y < 0 || q.X > t.Frame.X || q.Y > t.Frame.Y {
				if out == 0 {
					first = q
				}
				out++
			}
		}
		if out > 0 {
			bad("tray.outline", "%d points outside the %dx%d frame, as %v: want 0 to %d, 0 to %d", out, t.Frame.X, t.Frame.Y, first, t.Frame.X, t.Frame.Y)
		}
	}
	if t.Box.Empty() || !t.Box.In(frame) {
		bad("tray.box", "%v is empty or outside the %dx%d frame", t.Box, t.Frame.X, t.Frame.Y)
	}
	if !t.Found.Empty() && !t.Found.In(frame) {
		bad("tray.found", "%v is outside the %dx%d frame", t.Found, t.Frame.X, t.Frame.Y)
	}
	for _, v := range t.Lab {
		if v < 0 || v > maxLabValue {
			bad("tray.lab", "%v: want 0 to %d each (OpenCV 8-bit Lab)", t.Lab, maxLabValue)
			break
		}
	}
	if t.Spread < 0 || t.Spread > maxLabDist {
		bad("tray.spread", "%g: want 0 to %d", t.Spread, maxLabDist)
	}
	if t.Share < 0 || t.Share > 1 {
		bad("tray.share", "%g: want 0 to 1", t.Share)
	}

	d := p.Dice
	if d.Count < 1 || d.Count > MaxDice {
		bad("dice.count", "%d: want 1 to %d", d.Count, MaxDice)
	}
	if len(d.Values) > 0 && len(d.Values) != d.Count {
		bad("dice.values", "%v holds %d values: want as many as dice.count (%d), or none", d.Values, len(d.Values), d.Count)
	}
	for _, v := range d.Values {
		if v < 1 || v > 6 {
			bad("dice.values", "%v: want values 1 to 6", d.Values)
			break
		}
	}
	if !(d.SidePx > 0) {
		bad("dice.side_px", "missing or not positive (%g): want above 0, at most %d", d.SidePx, MaxSidePx)
	} else if d.SidePx > MaxSidePx {
		bad("dice.side_px", "%g: want above 0, at most %d", d.SidePx, MaxSidePx)
	}

	r := p.Reader
	if r.Expect != 0 && r.Expect != d.Count {
		bad("reader.expect", "%d: want 0 (any count) or dice.count (%d)", r.Expect, d.Count)
	}
	if r.Tray != (image.Rectangle{}) && (r.Tray.Empty() || !r.Tray.In(frame)) {
		bad("reader.tray", "%v: want empty (the whole frame) or a rectangle inside the %dx%d frame", r.Tray, t.Frame.X, t.Frame.Y)
	}
	errs = append(errs, checkExamples("examples", p.Examples)...)
	if b := p.Background; b != nil {
		if err := b.Check(); err != nil {
			bad("background", "%v", err)
		} else if b.Frame != t.Frame {
			bad("background", "made for %dx%d frames: want tray.frame's %dx%d", b.Frame.X, b.Frame.Y, t.Frame.X, t.Frame.Y)
		}
	}
	if r.Model != "" {
		bad("reader.model", "%q: want \"\" (the built-in networks): a profile may not point the reader at other files (give --model to dice read or dice bench instead)", r.Model)
	}
	return errors.Join(errs...)
}

// ReaderOpts returns the reader options for frames of the given size,
// scaling the tray if the camera now gives another resolution.
func (p Profile) ReaderOpts(frame image.Point) dice.Opts {
	o := p.Reader
	o.Tray = scaleRect(o.Tray, p.Tray.Frame, frame)
	return o
}

// scaleRect scales r, in a frame of size from, to a frame of size to.
func scaleRect(r image.Rectangle, from, to image.Point) image.Rectangle {
	if from == to || from.X <= 0 || from.Y <= 0 || to.X <= 0 || to.Y <= 0 {
		return r
	}
	sx, sy := float64(to.X)/float64(from.X), float64(to.Y)/float64(from.Y)
	sc := func(v int, s float64) int { return int(math.Round(float64(v) * s)) }
	return image.Rect(sc(r.Min.X, sx), sc(r.Min.Y, sy), sc(r.Max.X, sx), sc(r.Max.Y, sy))
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
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Profile{}, fmt.Errorf("no calibration profile at %s: run `cantstop calibrate` (the reader works without one, less surely): %w", path, err)
	}
	if err != nil {
		return Profile{}, fmt.Errorf("read calibration profile: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxProfileBytes+1))
	if err != nil {
		return Profile{}, fmt.Errorf("read calibration profile %s: %w", path, err)
	}
	if len(data) > MaxProfileBytes {
		return Profile{}, fmt.Errorf("calibration profile %s: larger than %d bytes, so not a profile (one is about 1 kB, 2 MB at most with its examples); %s", path, MaxProfileBytes, recalibrate)
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
	var old []string
	if p.Version < 3 {
		if old = obsoleteFields(data); len(old) > 0 {
			p.Upgraded = append(p.Upgraded, fmt.Sprintf("version %d held settings of the old pip reader (%s): they are dropped, the dice count and the tray are kept (`cantstop calibrate` writes a version %d profile)", p.Version, strings.Join(old, ", "), Version))
		}
	}
	if unknown := unknownFields(data, old); len(unknown) > 0 {
		p.Upgraded = append(p.Upgraded, fmt.Sprintf("fields this cantstop does not know are ignored (%s): edited by hand, or from another version? `cantstop calibrate` writes a clean profile", strings.Join(unknown, ", ")))
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

// unknownFields lists the fields of a profile that Profile does not hold, as "reader.face_side",
// leaving out those in skip (the obsolete ones, reported apart). encoding/json ignores them,
// so they cannot change what the profile does; Parse names them so that a hand edit that
// meant something is not lost silently. Field names match as encoding/json matches them,
// without regard to case.
func unknownFields(data []byte, skip []string) []string {
	var out []string
	var walk func(raw json.RawMessage, t reflect.Type, prefix string)
	walk = func(raw json.RawMessage, t reflect.Type, prefix string) {
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil {
			return // not an object: Unmarshal into Profile said so already, or it is null
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			f, ok := jsonField(t, k)
			switch {
			case !ok:
				if name := prefix + k; !slices.Contains(skip, name) {
					out = append(out, name)
				}
			case f.Type.Kind() == reflect.Struct && f.Type != reflect.TypeFor[time.Time]() &&
				f.Type != reflect.TypeFor[image.Rectangle]() && f.Type != reflect.TypeFor[image.Point]():
				walk(m[k], f.Type, prefix+k+".")
			}
		}
	}
	walk(data, reflect.TypeFor[Profile](), "")
	return out
}

// jsonField finds the field of struct type t that the JSON key k decodes into.
func jsonField(t reflect.Type, k string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if strings.EqualFold(name, k) {
			return f, true
		}
	}
	return reflect.StructField{}, false
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
	var bg *dice.BackgroundError
	switch {
	case errors.As(err, &bg):
		return fmt.Errorf("field background: %v; %s", bg.Err, recalibrate)
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
