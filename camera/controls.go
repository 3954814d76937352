package camera

import (
	"errors"
	"fmt"
)

// Controls fixes what a camera would otherwise adjust by itself, so that the
// same tray under the same light gives the same picture from roll to roll.
// The zero value leaves everything to the camera (automatic, default size).
//
// Width, Height and FPS apply to V4L2 and rpicam-vid sources. Exposure,
// WBTemperature and Focus are V4L2 (UVC webcam) controls, whose units differ
// between cameras; ShutterUS, Gain, AWBGains and LensPosition are rpicam-vid
// (Raspberry Pi Camera Module) controls. File, folder, video and GStreamer
// sources ignore Controls.
type Controls struct {
	Width  int     `json:"width,omitempty"`  // pixels; 0 = camera default
	Height int     `json:"height,omitempty"` // pixels; 0 = camera default
	FPS    float64 `json:"fps,omitempty"`    // frames per second; 0 = camera default

	// V4L2. Exposure 0 leaves auto exposure on; otherwise auto exposure is
	// switched to manual (V4L2 value 1) and this absolute exposure is set
	// (typically units of 100 µs). WBTemperature 0 leaves auto white balance
	// on; otherwise it is switched off and this temperature (kelvin) is set.
	// Focus nil leaves autofocus on; otherwise autofocus is switched off and
	// this absolute focus is set (0 is often infinity).
	Exposure      float64  `json:"exposure,omitempty"`
	WBTemperature float64  `json:"wb_temperature,omitempty"`
	Focus         *float64 `json:"focus,omitempty"`

	// rpicam-vid. ShutterUS 0 and Gain 0 leave the auto exposure algorithm
	// in charge of that value; AWBGains {0,0} leaves auto white balance on,
	// otherwise they are the red and blue gains; LensPosition nil leaves
	// focus to the camera, otherwise it is dioptres (1/metres, 0 = infinity;
	// Camera Module 3 only).
	ShutterUS    int        `json:"shutter_us,omitempty"`
	Gain         float64    `json:"gain,omitempty"`
	AWBGains     [2]float64 `json:"awb_gains,omitempty"`
	LensPosition *float64   `json:"lens_position,omitempty"`
}

// Validate reports every value that no camera could accept.
func (c Controls) Validate() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if c.Width < 0 || c.Height < 0 {
		bad("frame size %dx%d: width and height must be positive (or 0 for the camera default)", c.Width, c.Height)
	}
	if (c.Width == 0) != (c.Height == 0) {
		bad("frame size %dx%d: give both width and height, or neither", c.Width, c.Height)
	}
	if c.FPS < 0 || c.FPS > 1000 {
		bad("fps %g: must be between 0 (camera default) and 1000", c.FPS)
	}
	if c.Exposure < 0 {
		bad("exposure %g: must be positive (or 0 for auto exposure)", c.Exposure)
	}
	if c.WBTemperature != 0 && (c.WBTemperature < 1000 || c.WBTemperature > 15000) {
		bad("white balance temperature %gK: must be between 1000 and 15000 kelvin (or 0 for auto)", c.WBTemperature)
	}
	if c.Focus != nil && *c.Focus < 0 {
		bad("focus %g: must not be negative", *c.Focus)
	}
	if c.ShutterUS < 0 {
		bad("shutter %d µs: must be positive (or 0 for auto)", c.ShutterUS)
	}
	if c.Gain < 0 {
		bad("gain %g: must be positive (or 0 for auto)", c.Gain)
	}
	if r, b := c.AWBGains[0], c.AWBGains[1]; r < 0 || b < 0 || (r == 0) != (b == 0) {
		bad("white balance gains %g,%g: give both red and blue gains as positive numbers (or neither for auto)", r, b)
	}
	if c.LensPosition != nil && (*c.LensPosition < 0 || *c.LensPosition > 32) {
		bad("lens position %g dioptres: must be between 0 (infinity) and 32", *c.LensPosition)
	}
	if len(errs) > 0 {
		return fmt.Errorf("camera controls: %w", errors.Join(errs...))
	}
	return nil
}

// Fixed reports whether the controls pin exposure and white balance, the two
// settings that most change how dice look between frames.
func (c Controls) Fixed() bool {
	return (c.Exposure > 0 && c.WBTemperature > 0) ||
		(c.ShutterUS > 0 && c.Gain > 0 && c.AWBGains[0] > 0)
}
