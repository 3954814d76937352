package main

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"io/fs"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cantstop/cantstop/calibration"
	"github.com/cantstop/cantstop/camera"
	"github.com/cantstop/cantstop/config"
	"github.com/cantstop/cantstop/dice"
	"github.com/cantstop/cantstop/doctor"
	"gocv.io/x/gocv"
)

// loadProfile reads the calibration profile at path; ok is false when there is none (the
// reader then runs uncalibrated).
func loadProfile(path string) (p calibration.Profile, ok bool, err error) {
	p, err = calibration.Load(path)
	if errors.Is(err, fs.ErrNotExist) {
		return p, false, nil
	}
	return p, err == nil, err
}

// menuProfile is where the service's menu saves a calibration: in its state directory, as
// systemd keeps the service from writing its configuration directory (ProtectSystem=strict).
func menuProfile(stateDir string) string {
	if stateDir == "" {
		return ""
	}
	return filepath.Join(stateDir, "calibration.json")
}

// profilePath is the calibration profile the service uses: the configuration's, or the one
// calibrated from the menu when that was made later (or the configuration's does not load).
// Calibrating with cantstop calibrate after the menu makes the configuration's the newer again.
func profilePath(c config.Config, configPath, stateDir string) string {
	conf, menu := c.CalibrationPath(configPath), menuProfile(stateDir)
	if menu == "" || menu == conf {
		return conf
	}
	m, err := calibration.Load(menu)
	if err != nil {
		return conf
	}
	if p, err := calibration.Load(conf); err == nil && !m.Created.After(p.Created) {
		return conf
	}
	return menu
}

// rigExamples are the dice of the rig the reader was adapted to: the profile's, from the
// calibration rolls, and those learnt in play, kept in the file learnt.
type rigExamples struct {
	base   []dice.Example
	learnt calibration.Learnt
	bad    error // the learnt file could not be used (run sets a damaged one aside)
	stale  bool  // the learnt file is of another calibration (run sets it aside)
	moved  bool  // the tray is not where it was calibrated: nothing is used, nothing learnt
}

// loadLearnt reads the dice learnt in play for the profile made at created (zero: none): a
// store learnt with another calibration is stale, and one that says the profile's dice no
// longer fit drops them (rx.base).
func (rx *rigExamples) loadLearnt(path string, created time.Time, log *slog.Logger) {
	rx.learnt = calibration.Learnt{Version: calibration.LearntVersion, Profile: created}
	if path == "" {
		return
	}
	l, err := calibration.LoadLearnt(path)
	switch {
	case err != nil:
		rx.bad = err
		log.Error("dice learnt in play not used", "err", err)
	case !l.Profile.Equal(created):
		rx.stale = true
		log.Info("dice learnt with another calibration not used: learning starts again", "learnt_with", l.Profile, "profile", created)
	default:
		rx.learnt = l
		if l.DropBase && len(rx.base) > 0 {
			rx.base = nil
			log.Warn("the calibration's dice no longer fit (corrected in play): not used until the next calibration")
		}
	}
}

// openCalibrated opens the camera with the profile's (at path profile) fixed controls and a
// reader set up from the profile, scaled to the frames the camera gives, and
// adapted to the rig's dice: the profile's and those learnt in play (the file
// learnt, when not ""). Without a profile, or with a broken one (logged:
// cantstop doctor and cantstop calibrate show say more), the camera runs on
// automatic controls and the reader uncalibrated; a broken learnt file is
// logged and not used.
func openCalibrated(ctx context.Context, c config.Config, profile, learnt string, log *slog.Logger) (camera.Source, *dice.Reader, rigExamples, error) {
	var rx rigExamples
	var ro dice.Opts
	var controls camera.Controls
	var bg *dice.Background // the rig's empty tray, when the camera sees it as at calibration
	p, ok, err := loadProfile(profile)
	switch {
	case err != nil:
		log.Error("calibration profile not used: the dice reader runs uncalibrated; run cantstop calibrate again",
			"path", profile, "err", err)
	case !ok:
		log.Info("no calibration profile: the dice reader runs uncalibrated", "path", profile)
	default:
		controls = p.Controls
		for _, u := range p.Upgraded {
			log.Info("calibration profile upgraded: "+u, "path", profile)
		}
		if problem, fix := p.Dice.Small(); problem != "" {
			log.Warn("calibration: "+problem, "fix", fix)
		}
		if p.Camera != "" && p.Camera != c.Camera.Source {
			log.Warn("calibration profile was made with another camera source: calibrate again if dice are misread",
				"profile", p.Camera, "config", c.Camera.Source)
		}
		rx.base = p.Examples
	}
	var created time.Time
	if ok {
		created = p.Created
	}
	rx.loadLearnt(learnt, created, log)
	src, err := camera.Open(ctx, c.Camera.Source, controls, log)
	if err != nil {
		return nil, nil, rx, err
	}
	if ok {
		size, view, err := lookAtTray(ctx, src, p.Tray, log)
		if err != nil {
			src.Close()
			return nil, nil, rx, fmt.Errorf("frame from %s: %w", c.Camera.Source, err)
		}
		switch {
		case view.Moved():
			// Set up for another view, the reader would leave out dice and learn others.
			log.Warn("calibration profile not used: "+view.Problem()+"; the dice reader runs uncalibrated (the camera keeps the profile's controls) and learns nothing until you run cantstop calibrate",
				"path", profile)
			rx = rigExamples{moved: true}
		case view.Recoloured():
			log.Warn("calibration: "+view.Problem(), "fix", "run cantstop calibrate if dice are refused or corrected often")
			fallthrough
		default:
			ro = p.ReaderOpts(size)
			switch b := p.Background; {
			case b == nil:
				log.Info("calibration profile has no background (made before cantstop kept one): calibrate again to have spots of the tray itself never taken for dice")
			case b.Frame != size:
				log.Warn("calibration background not used: it was made from frames of another size", "background", b.Frame, "frame", size, "fix", "run cantstop calibrate")
			default:
				bg = b
			}
			log.Info("calibration profile loaded", "path", profile, "created", p.Created, "frame", size, "background", bg != nil)
		}
	}
	ro.Expect = 4
	r, err := dice.NewReader(ro)
	if err != nil {
		src.Close()
		return nil, nil, rx, err
	}
	if err := r.SetBackground(bg); err != nil { // checked when the profile was read
		log.Error("calibration background not used", "err", err)
	}
	if bg == nil {
		kept := rx.learnt.Background // learnt in play before this start
		if err := r.LearnBackground(dice.BackgroundScenes, kept); err != nil {
			log.Error("background learnt before not used: it is learnt again", "err", err)
			kept = nil
			r.LearnBackground(dice.BackgroundScenes, nil)
		}
		log.Info("no background of the empty tray: the reader learns one from the rolls it sees", "rolls", dice.BackgroundScenes, "kept_from_before", kept != nil)
	}
	if all := rx.all(); len(all) > 0 {
		a, err := r.Adapt(all)
		if err != nil {
			log.Error("reader not adapted to the rig's dice: it reads with its general network", "err", err)
		} else {
			log.Info("reader adapted to the rig's dice", "calibration", len(rx.base), "learnt", len(rx.learnt.Examples), "own head", a.Used, "why", a.Why)
		}
	}
	return src, r, rx, nil
}

// all are the rig's examples, the profile's first.
func (rx rigExamples) all() []dice.Example {
	return append(slices.Clone(rx.base), rx.learnt.Examples...)
}

// trayRecheck is how long lookAtTray waits before it looks again at a tray that seems moved
// or is not found: a hand over the tray, or the dice box, is gone by then.
const trayRecheck = time.Second

// trayFrames is how many frames a look at the tray reads, keeping the last: a live camera's
// first frames may be dark, as calibration knows.
const trayFrames = 3

// lookAtTray reads frames to learn the size the camera gives and compares the tray they show
// with the calibrated one (calibration.Tray.View), looking again after trayRecheck when it
// seems moved or is not found. A tray not found twice cannot be checked: the calibration is
// kept, with a warning.
func lookAtTray(ctx context.Context, src camera.Source, tray calibration.Tray, log *slog.Logger) (image.Point, calibration.TrayView, error) {
	var size image.Point
	var view calibration.TrayView
	var verr error
	for look := 0; look < 2; look++ {
		if look > 0 {
			select {
			case <-ctx.Done():
				return size, view, ctx.Err()
			case <-time.After(trayRecheck):
			}
		}
		m, err := lastFrame(ctx, src, trayFrames)
		if err != nil {
			return size, view, err
		}
		size = image.Pt(m.Cols(), m.Rows())
		view, verr = tray.View(m)
		m.Close()
		if verr == nil && !view.Moved() {
			return size, view, nil
		}
	}
	if verr != nil {
		log.Warn("tray not checked against the calibration: none in view", "err", verr)
		return size, calibration.TrayView{Overlap: 1}, nil
	}
	return size, view, nil
}

// lastFrame reads up to n frames and keeps the last; a source that ends early (a folder of
// photos) gives the last it had.
func lastFrame(ctx context.Context, src camera.Source, n int) (gocv.Mat, error) {
	var last gocv.Mat
	for i := 0; i < n; i++ {
		m, err := src.Frame(ctx)
		if err != nil {
			if i > 0 && ctx.Err() == nil {
				return last, nil
			}
			last.Close()
			return gocv.Mat{}, err
		}
		last.Close()
		last = m
	}
	return last, nil
}

// checkCalibration loads the calibration profile in use and describes it (doctor), and warns
// when the one saved from the menu (menu, "" for none) is there but does not load: profilePath
// passes it over for the configured one.
func checkCalibration(path, menu string) (string, error) {
	p, err := calibration.Load(path)
	if err != nil {
		return "", err
	}
	d := fmt.Sprintf("%s: version %d, made %s with %s at %dx%d", path, p.Version,
		p.Created.Format("2006-01-02"), p.Camera, p.Tray.Frame.X, p.Tray.Frame.Y)
	if menu != "" && menu != path {
		if _, err := calibration.Load(menu); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return d, doctor.Warning(fmt.Sprintf("the calibration saved from the menu does not load (%v): %s is used", err, path),
				"calibrate again from the menu (hold a button → Calibrate camera), or remove "+menu)
		}
	}
	if problem, fix := p.Dice.Small(); problem != "" {
		return d, doctor.Warning(path+": "+problem, fix)
	}
	if len(p.Upgraded) > 0 {
		d += "; upgraded: " + strings.Join(p.Upgraded, "; ")
	}
	if p.Background == nil {
		return d, doctor.Warning(path+": no background of the empty tray (a profile made before cantstop kept one)",
			"run cantstop calibrate, so that spots of the tray itself are never taken for dice")
	}
	d += fmt.Sprintf("; background of the empty tray, %.0f%% of the view", 100*p.Background.KnownShare())
	return d, nil
}

// checkLearnt describes the rig's dice the reader learnt (doctor): the profile's and those
// learnt in play, and how the reader adapted to them.
func checkLearnt(profile, learnt string) (string, error) {
	var rx rigExamples
	var created time.Time
	if p, err := calibration.Load(profile); err == nil {
		rx.base, created = p.Examples, p.Created
	}
	rx.loadLearnt(learnt, created, slog.New(slog.NewTextHandler(io.Discard, nil)))
	switch {
	case errors.Is(rx.bad, calibration.ErrDamaged):
		return "", doctor.Warning(rx.bad.Error(), "nothing to do: the service sets it aside as "+filepath.Base(learnt)+".bad when it starts, and learns again")
	case rx.bad != nil:
		return "", doctor.Failed(rx.bad, "let the service's user read and write "+filepath.Dir(learnt))
	}
	note := ""
	if rx.stale {
		note = "; the dice learnt in play are of another calibration: the service starts learning again"
	}
	if b := rx.learnt.Background; b != nil && !rx.stale {
		note += fmt.Sprintf("; a background learnt in play, %.0f%% of the view", 100*b.KnownShare())
	}
	all := rx.all()
	if len(all) == 0 {
		return "", doctor.Warning("no dice learnt yet: the reader reads with its general network"+note,
			"run cantstop calibrate (it learns your dice from 6 rolls); every roll confirmed in play teaches it more")
	}
	r, err := dice.NewReader(dice.Opts{})
	if err != nil {
		return "", doctor.Failed(err, "reinstall cantstop: its dice networks do not load")
	}
	defer r.Close()
	a, err := r.Adapt(all)
	if err != nil {
		return "", doctor.Failed(err, "delete "+learnt+" (the service learns again), or calibrate again")
	}
	d := fmt.Sprintf("calibration %s; play %s; %s%s", calibration.DescribeExamples(rx.base), calibration.DescribeExamples(rx.learnt.Examples), a.Why, note)
	if !a.Used {
		return "", doctor.Warning(d, "play on: every roll the players confirm teaches the reader (or calibrate again with more --rolls)")
	}
	return d, nil
}

// checkTray compares the tray the camera sees with the calibrated one (doctor).
func checkTray(ctx context.Context, c config.Config, profile string, log *slog.Logger) (string, error) {
	p, ok, err := loadProfile(profile)
	switch {
	case err != nil:
		return "not checked: the calibration profile does not load (see the calibration check)", nil
	case !ok:
		return "not checked: no calibration profile to compare with", nil
	}
	src, err := camera.Open(ctx, c.Camera.Source, p.Controls, log)
	if err != nil {
		return "", doctor.Failed(err, "see the camera check")
	}
	defer src.Close()
	m, err := lastFrame(ctx, src, trayFrames)
	if err != nil {
		return "", doctor.Failed(err, "see the camera check")
	}
	defer m.Close()
	v, err := p.Tray.View(m)
	switch {
	case err != nil:
		return "", doctor.Warning("no tray in view: "+err.Error(), "clear the tray and check again; if the camera was moved, put it back or run cantstop calibrate")
	case v.Moved():
		return "", doctor.Warning(v.Problem()+": the dice reader runs uncalibrated", "put the camera back as it was, or run cantstop calibrate")
	case v.Recoloured():
		return "", doctor.Warning(v.Problem(), "run cantstop calibrate if dice are refused or corrected often")
	}
	return fmt.Sprintf("as calibrated: %.0f%% overlap, colour within %.0f", 100*v.Overlap, v.Shift), nil
}
