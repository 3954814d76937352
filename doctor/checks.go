package doctor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"syscall"
)

// Frames is an open camera: Grab reads one frame and reports what the doctor checks of it.
type Frames interface {
	Grab(ctx context.Context) (Frame, error)
	Close() error
}

// Frame is what the doctor checks of one camera frame.
type Frame struct {
	Width, Height int
	// Overexposed is the share of the frame clipped white when that makes it overexposed
	// (camera.Overexposed), else 0.
	Overexposed float64
}

// Camera checks that the source opens and gives frames of a usable size.
func Camera(spec string, open func(ctx context.Context) (Frames, error)) Check {
	return Check{Name: "camera", Run: func(ctx context.Context) (string, error) {
		if spec == "none" {
			return "", Warning("camera source is none: the dice are entered with the buttons",
				"set [camera] source in the config (v4l2:/dev/video0 or rpicam) to read the dice")
		}
		src, err := open(ctx)
		if err != nil {
			return "", Failed(err, cameraFix(spec, err))
		}
		defer src.Close()
		var f Frame
		for i := 0; i < 3; i++ { // the first frames after opening may be dark or empty
			if f, err = src.Grab(ctx); err == nil && f.Width > 0 && f.Height > 0 {
				break
			}
		}
		w, h := f.Width, f.Height
		if err != nil {
			return "", Failed(fmt.Errorf("%s opens but gives no frame: %w", spec, err), cameraFix(spec, err))
		}
		if w == 0 || h == 0 {
			return "", Failed(fmt.Errorf("%s gives empty frames", spec), cameraFix(spec, nil))
		}
		if w < 320 || h < 240 {
			return "", Warning(fmt.Sprintf("%s gives %dx%d frames: too small to read the dice reliably", spec, w, h),
				"use at least 640x480 (e.g. rpicam:1280x960)")
		}
		if f.Overexposed > 0 {
			return "", Warning(fmt.Sprintf("%s gives overexposed frames (%.0f%% clipped white): white dice vanish into a pale tray", spec, 100*f.Overexposed),
				"lower the exposure: cantstop calibrate --exposure (USB camera) or --shutter and --gain (Pi camera)")
		}
		return fmt.Sprintf("%s gives %dx%d frames", spec, w, h), nil
	}}
}

func cameraFix(spec string, err error) string {
	switch {
	case errors.Is(err, fs.ErrPermission) || contains(err, "permission denied"):
		return "add the user to group video (sudo usermod -aG video $USER, then log in again); the cantstop service user already is"
	case errors.Is(err, exec.ErrNotFound) || contains(err, "rpicam-vid") && contains(err, "not found"):
		return "install the Pi camera tools: sudo apt install rpicam-apps"
	case strings.HasPrefix(spec, "rpicam"):
		return "check the ribbon cable (contacts facing the right way, latch closed) and run rpicam-hello --list-cameras"
	case strings.HasPrefix(spec, "v4l2") || strings.HasPrefix(spec, "/dev/video"):
		return "plug the USB camera in and check ls /dev/video* and v4l2-ctl --list-devices; set [camera] source to the right device"
	}
	return "check [camera] source in the config (cantstop config show)"
}

// Buttons checks that the four GPIO lines can be opened as inputs.
func Buttons(pins string, open func() (io.Closer, error)) Check {
	return Check{Name: "buttons", Run: func(ctx context.Context) (string, error) {
		b, err := open()
		if err != nil {
			return "", Failed(err, gpioFix(err))
		}
		if err := b.Close(); err != nil {
			return "", Failed(fmt.Errorf("close GPIO lines: %w", err), "")
		}
		return "GPIO lines " + pins + " open with pull-ups", nil
	}}
}

func gpioFix(err error) string {
	switch {
	case errors.Is(err, fs.ErrPermission) || contains(err, "permission denied"):
		return "add the user to group gpio (sudo usermod -aG gpio $USER, then log in again)"
	case contains(err, "busy"):
		return "another program holds the line: stop it (sudo systemctl stop cantstop, or check gpioinfo)"
	}
	return "check [buttons] pins against your wiring (BCM numbers) and that this is a Raspberry Pi (ls /dev/gpiochip*)"
}

// Display checks that the OLED answers at its I2C address.
func Display(dev string, addr uint16, open func() (io.Closer, error)) Check {
	return Check{Name: "display", Run: func(ctx context.Context) (string, error) {
		d, err := open()
		if err != nil {
			return "", Failed(err, displayFix(dev, addr, err))
		}
		if err := d.Close(); err != nil {
			return "", Failed(fmt.Errorf("close display: %w", err), "")
		}
		return fmt.Sprintf("SSD1306 answers on %s at 0x%02X", dev, addr), nil
	}}
}

func displayFix(dev string, addr uint16, err error) string {
	bus := strings.TrimPrefix(dev, "/dev/i2c-")
	switch {
	case errors.Is(err, fs.ErrPermission) || contains(err, "permission denied"):
		return "add the user to group i2c (sudo usermod -aG i2c $USER, then log in again)"
	case errors.Is(err, fs.ErrNotExist) || contains(err, "no such file"):
		return "enable I2C: sudo raspi-config nonint do_i2c 0 (or dtparam=i2c_arm=on in /boot/firmware/config.txt), then reboot"
	case errors.Is(err, syscall.EREMOTEIO) || errors.Is(err, syscall.ENXIO) || contains(err, "remote I/O") || contains(err, "no such device"):
		return fmt.Sprintf("nothing answers at 0x%02X: run i2cdetect -y %s and set [display] address to the number shown (0x3C or 0x3D); check VCC 3.3V, GND, SDA GPIO2 and SCL GPIO3", addr, bus)
	}
	return fmt.Sprintf("check the wiring (VCC 3.3V, GND, SDA GPIO2, SCL GPIO3) and i2cdetect -y %s", bus)
}

// Config reports the configuration file that was loaded. loadErr is what
// loading it gave; found says whether the file exists.
func Config(path string, found bool, loadErr error) Check {
	return Check{Name: "config", Run: func(ctx context.Context) (string, error) {
		if loadErr != nil {
			return "", Failed(loadErr, "fix the lines named above in "+path+" and check with: cantstop config check "+path)
		}
		if !found {
			return "", Warning(path+" does not exist: using the defaults",
				"that is fine if the wiring matches the guide; cantstop config show prints them")
		}
		return path + " is valid", nil
	}}
}

// Calibration checks the camera's calibration profile; load parses it, and may return a
// Problem of its own about a profile it could read (a Warning).
func Calibration(path string, load func(path string) (string, error)) Check {
	return Check{Name: "calibration", Run: func(ctx context.Context) (string, error) {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return "", Warning("no calibration profile at "+path+": the dice reader runs uncalibrated",
				"on the device hold a button → Calibrate camera, or run cantstop calibrate, with the empty tray and then the four dice under the camera")
		}
		d, err := load(path)
		if p := (*Problem)(nil); errors.As(err, &p) {
			return d, err // load's own finding, with its fix (dice too small to read well)
		}
		if err != nil {
			return "", Failed(err, "run cantstop calibrate again to write a new profile (or fix [camera] calibration)")
		}
		return d, nil
	}}
}

// StateDir checks that saved games can be written durably in dir.
func StateDir(dir string) Check {
	return Check{Name: "state dir", Run: func(ctx context.Context) (string, error) {
		if dir == "" {
			return "", Failed(errors.New("no state directory"), "pass --state-dir DIR (the service gets /var/lib/cantstop from systemd)")
		}
		fix := fmt.Sprintf("make %s writable by the user running cantstop (the service's StateDirectory= does this for user cantstop)", dir)
		fi, err := os.Stat(dir)
		if errors.Is(err, fs.ErrNotExist) {
			// cantstop run makes it too: making it here checks that it can.
			if err := os.MkdirAll(dir, 0o750); err != nil {
				return "", Failed(err, fix)
			}
			fi, err = os.Stat(dir)
		}
		if err != nil {
			return "", Failed(err, fix)
		}
		if !fi.IsDir() {
			return "", Failed(fmt.Errorf("%s is not a directory", dir), "remove it or choose another --state-dir")
		}
		f, err := os.CreateTemp(dir, ".doctor-*")
		if err != nil {
			return "", Failed(err, fix)
		}
		name := f.Name()
		defer os.Remove(name)
		_, werr := f.Write([]byte("cantstop doctor\n"))
		serr := f.Sync()
		cerr := f.Close()
		if err := errors.Join(werr, serr, cerr); err != nil {
			return "", Failed(fmt.Errorf("write %s: %w", name, err), "check the disk (df -h "+dir+") and the SD card")
		}
		return dir + " is writable", nil
	}}
}

// Groups warns when the user running the check is missing a device group.
// have lists the process's group names; it is not called for root.
func Groups(uid int, have func() ([]string, error), need ...string) Check {
	return Check{Name: "groups", Run: func(ctx context.Context) (string, error) {
		if uid == 0 {
			return "running as root: group membership not needed", nil
		}
		gs, err := have()
		if err != nil {
			return "", Warning("cannot list groups: "+err.Error(), "")
		}
		var missing []string
		for _, n := range need {
			found := false
			for _, g := range gs {
				found = found || g == n
			}
			if !found {
				missing = append(missing, n)
			}
		}
		if len(missing) > 0 {
			return "", Failed(fmt.Errorf("not in group %s", strings.Join(missing, ", ")),
				fmt.Sprintf("sudo usermod -aG %s $USER, then log in again", strings.Join(missing, ",")))
		}
		return "in groups " + strings.Join(need, ", "), nil
	}}
}

func contains(err error, s string) bool {
	return err != nil && strings.Contains(strings.ToLower(err.Error()), strings.ToLower(s))
}

// RigDice reports the dice the reader has learnt of this rig (calibration's rolls and the
// rolls confirmed in play) and how surely it reads them; describe returns that, or a Problem.
func RigDice(describe func(ctx context.Context) (string, error)) Check {
	return Check{Name: "dice learnt", Run: describe}
}

// Tray compares the tray the camera sees now with the calibrated one (moved camera, another
// rig, other light); view returns that, or a Problem.
func Tray(view func(ctx context.Context) (string, error)) Check {
	return Check{Name: "tray", Run: view}
}
