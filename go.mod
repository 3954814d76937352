module github.com/cantstop/cantstop

go 1.23

require (
	github.com/jonboulle/clockwork v0.5.0
	golang.org/x/sys v0.29.0
	golang.org/x/term v0.27.0
	periph.io/x/conn/v3 v3.7.2
	periph.io/x/host/v3 v3.8.5
)

require (
	github.com/coreos/go-systemd/v22 v22.7.0 // indirect
	github.com/hajimehoshi/bitmapfont/v3 v3.2.0 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/pierrec/lz4/v4 v4.1.21 // indirect
	github.com/spf13/cobra v1.10.2 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
	gocv.io/x/gocv v0.31.0 // indirect
	golang.org/x/image v0.23.0 // indirect
	golang.org/x/text v0.21.0 // indirect
	periph.io/x/devices/v3 v3.7.4 // indirect
)
