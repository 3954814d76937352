//go:build linux

package camera

import "syscall"

// procAttr puts rpicam-vid in its own process group (so that stopping it
// stops any children too) and has the kernel stop it if this program dies.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}
