package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"strings"

	"github.com/cantstop/cantstop/calibration"
	"github.com/cantstop/cantstop/camera"
	"github.com/cantstop/cantstop/companion"
	"github.com/cantstop/cantstop/config"
	"github.com/cantstop/cantstop/panel"
)

// diceRig is the dice reader the companion uses and what closes it (the camera, the Learner);
// calibrating from the menu replaces both.
type diceRig struct {
	dr companion.DiceReader
	c  io.Closer
}

// Close closes the rig in use.
func (r *diceRig) Close() error {
	if r.c == nil {
		return nil
	}
	return r.c.Close()
}

// menuCalibrator is `cantstop run`'s companion.Calibrator: calibration on the players' buttons
// and the display, with the camera the dice reader holds, saved to the state directory
// (menuProfile), then the dice reader opened again from it, as the service opens it at start
// (the dice learnt with the old calibration set aside, learning again). A camera that does not
// open again leaves the players entering the dice until it does, as at a start without one.
type menuCalibrator struct {
	cfg               config.Config
	configPath, state string
	screen            panel.Renderer
	rig               *diceRig
	log               *slog.Logger
}

func (m *menuCalibrator) calibrate(ctx context.Context, b companion.Buttons) (companion.DiceReader, error) {
	var controls camera.Controls // the last calibration's, as cantstop calibrate keeps them
	if p, ok, err := loadProfile(profilePath(m.cfg, m.configPath, m.state)); ok && err == nil {
		controls = p.Controls
	}
	src, own, err := m.source(ctx, controls)
	if err != nil {
		return nil, err
	}
	res, err := calibration.Run(ctx, src, panel.New(b, m.screen, io.Discard), calibration.Options{
		Dice: 4, Camera: m.cfg.Camera.Source, Controls: controls, Frames: 3, Rolls: calibration.DefaultRolls,
	})
	if own {
		src.Close()
	}
	if err != nil {
		return nil, err
	}
	defer res.Close()
	for _, n := range res.Notes {
		m.log.Info("calibration: " + n)
	}
	path := menuProfile(m.state)
	if err := res.Profile.Save(path); err != nil {
		return nil, err
	}
	picture := picturePath(path)
	if err := res.WritePicture(picture); err != nil {
		m.log.Warn("calibration picture not written", "err", err)
	}
	m.log.Info("calibration saved from the menu", "path", path, "picture", picture)
	if err := m.rig.Close(); err != nil {
		m.log.Warn("closing the dice reader before opening it with the new calibration", "err", err)
	}
	m.rig.dr, m.rig.c = nil, nil
	dr, c, err := openDice(ctx, m.cfg, path, learntPath(m.state), cameraWait, m.log)
	if err != nil { // [camera] required: the old reader is closed, the players enter the dice until a restart
		m.log.Error("calibration saved, but the camera did not open again: the dice are entered with the buttons until the service restarts", "err", err)
		return nil, nil
	}
	m.rig.dr, m.rig.c = dr, c
	return dr, nil
}

// source is the camera the dice reader holds, or one opened for the calibration (own) when
// the service started without it.
func (m *menuCalibrator) source(ctx context.Context, controls camera.Controls) (camera.Source, bool, error) {
	dr := m.rig.dr
	if rr, ok := dr.(*companion.ReopenReader); ok {
		dr = rr.Current()
	}
	if cr, ok := dr.(*companion.CameraReader); ok && cr != nil && cr.Source != nil {
		return cr.Source, false, nil
	}
	if m.cfg.Camera.Source == "none" {
		return nil, false, errors.New("no camera: [camera] source = none")
	}
	src, err := camera.Open(ctx, m.cfg.Camera.Source, controls, m.log)
	return src, err == nil, err
}

// picturePath is where the annotated picture of a calibration goes: beside its profile, .png.
func picturePath(profile string) string {
	return strings.TrimSuffix(profile, filepath.Ext(profile)) + ".png"
}
