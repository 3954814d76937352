package main

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io/fs"
	"log/slog"
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

// openCalibrated opens the camera with the profile's fixed controls and a
// reader set up from the profile, scaled to the frames the camera gives.
// Without a profile, or with a broken one (logged: cantstop doctor and
// cantstop calibrate show say more), the camera runs on automatic controls
// and the reader uncalibrated.
func openCalibrated(ctx context.Context, c config.Config, configPath string, log *slog.Logger) (camera.Source, *dice.Reader, error) {
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
	}
	src, err := camera.Open(ctx, c.Camera.Source, controls, log)
	if err != nil {
		return nil, nil, err
	}
	if ok {
		size, err := frameSize(ctx, src)
		if err != nil {
			src.Close()
			return nil, nil, fmt.Errorf("first frame from %s: %w", c.Camera.Source, err)
		}
		ro = p.ReaderOpts(size)
		log.Info("calibration profile loaded", "path", c.CalibrationPath(configPath), "created", p.Created, "frame", size)
	}
	ro.Expect = 4
	r, err := dice.NewReader(ro)
	if err != nil {
		src.Close()
		return nil, nil, err
	}
	return src, r, nil
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
