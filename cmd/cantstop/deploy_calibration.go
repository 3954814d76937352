package main

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io/fs"
	"log/slog"
	"slices"
	"strings"

	"github.com/cantstop/cantstop/calibration"
	"github.com/cantstop/cantstop/camera"
	"github.com/cantstop/cantstop/config"
	"github.com/cantstop/cantstop/dice"
	"github.com/cantstop/cantstop/doctor"
)

// loadProfile reads the config's calibration profile; ok is false when
// there is none (the reader then runs uncalibrated).
func loadProfile(c config.Config, configPath string) (p calibration.Profile, ok bool, err error) {
	p, err = calibration.Load(c.CalibrationPath(configPath))
	if errors.Is(err, fs.ErrNotExist) {
		return p, false, nil
	}
	return p, err == nil, err
}

// rigExamples are the dice of the rig the reader was adapted to: the profile's, from the
// calibration rolls, and those learnt in play, kept in the file learnt.
type rigExamples struct {
	base   []dice.Example
	learnt calibration.Learnt
	bad    error // the learnt file could not be used (run sets it aside)
}

// openCalibrated opens the camera with the profile's fixed controls and a
// reader set up from the profile, scaled to the frames the camera gives, and
// adapted to the rig's dice: the profile's and those learnt in play (the file
// learnt, when not ""). Without a profile, or with a broken one (logged:
// cantstop doctor and cantstop calibrate show say more), the camera runs on
// automatic controls and the reader uncalibrated; a broken learnt file is
// logged and not used.
func openCalibrated(ctx context.Context, c config.Config, configPath, learnt string, log *slog.Logger) (camera.Source, *dice.Reader, rigExamples, error) {
	rx := rigExamples{learnt: calibration.Learnt{Version: calibration.LearntVersion}}
	var ro dice.Opts
	var controls camera.Controls
	p, ok, err := loadProfile(c, configPath)
	switch {
	case err != nil:
		log.Error("calibration profile not used: the dice reader runs uncalibrated; run cantstop calibrate again",
			"path", c.CalibrationPath(configPath), "err", err)
	case !ok:
		log.Info("no calibration profile: the dice reader runs uncalibrated", "path", c.CalibrationPath(configPath))
	default:
		controls = p.Controls
		for _, u := range p.Upgraded {
			log.Info("calibration profile upgraded: "+u, "path", c.CalibrationPath(configPath))
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
	if learnt != "" {
		l, err := calibration.LoadLearnt(learnt)
		if err != nil {
			rx.bad = err
			log.Error("dice learnt in play not used", "err", err)
		} else {
			rx.learnt = l
		}
	}
	src, err := camera.Open(ctx, c.Camera.Source, controls, log)
	if err != nil {
		return nil, nil, rx, err
	}
	if ok {
		size, err := frameSize(ctx, src)
		if err != nil {
			src.Close()
			return nil, nil, rx, fmt.Errorf("first frame from %s: %w", c.Camera.Source, err)
		}
		ro = p.ReaderOpts(size)
		log.Info("calibration profile loaded", "path", c.CalibrationPath(configPath), "created", p.Created, "frame", size)
	}
	ro.Expect = 4
	r, err := dice.NewReader(ro)
	if err != nil {
		src.Close()
		return nil, nil, rx, err
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

// frameSize reads one frame to learn the size the camera gives.
func frameSize(ctx context.Context, src camera.Source) (image.Point, error) {
	m, err := src.Frame(ctx)
	if err != nil {
		return image.Point{}, err
	}
	defer m.Close()
	return image.Pt(m.Cols(), m.Rows()), nil
}

// checkCalibration loads the calibration profile and describes it (doctor).
func checkCalibration(path string) (string, error) {
	p, err := calibration.Load(path)
	if err != nil {
		return "", err
	}
	d := fmt.Sprintf("%s: version %d, made %s with %s at %dx%d", path, p.Version,
		p.Created.Format("2006-01-02"), p.Camera, p.Tray.Frame.X, p.Tray.Frame.Y)
	if problem, fix := p.Dice.Small(); problem != "" {
		return d, doctor.Warning(path+": "+problem, fix)
	}
	if len(p.Upgraded) > 0 {
		d += "; upgraded: " + strings.Join(p.Upgraded, "; ")
	}
	return d, nil
}

// checkLearnt describes the rig's dice the reader learnt (doctor): the profile's and those
// learnt in play, and how the reader adapted to them.
func checkLearnt(profile, learnt string) (string, error) {
	var base []dice.Example
	if p, err := calibration.Load(profile); err == nil {
		base = p.Examples
	}
	var l calibration.Learnt
	if learnt != "" {
		var err error
		if l, err = calibration.LoadLearnt(learnt); err != nil {
			return "", err
		}
	}
	all := append(slices.Clone(base), l.Examples...)
	if len(all) == 0 {
		return "", doctor.Warning("no dice learnt yet: the reader reads with its general network",
			"run cantstop calibrate (it learns your dice from 6 rolls); every roll confirmed in play teaches it more")
	}
	r, err := dice.NewReader(dice.Opts{})
	if err != nil {
		return "", err
	}
	defer r.Close()
	a, err := r.Adapt(all)
	if err != nil {
		return "", err
	}
	d := fmt.Sprintf("calibration %s; play %s; %s", calibration.DescribeExamples(base), calibration.DescribeExamples(l.Examples), a.Why)
	if !a.Used {
		return "", doctor.Warning(d, "play on: every roll the players confirm teaches the reader (or calibrate again with more --rolls)")
	}
	return d, nil
}
