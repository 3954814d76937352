package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/cantstop/cantstop/camera"
)

// Set at build time: go build -ldflags "-X main.version=v1.2.0 -X main.commit=abc1234".
var (
	version = ""
	commit  = ""
)

// buildVersion fills what -ldflags left empty from the module's build info
// (the version of a go install, the VCS revision of a build in a checkout).
func buildVersion() (v, c string) {
	v, c = version, commit
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return orDefault(v, "dev"), orDefault(c, "unknown")
	}
	if v == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v = bi.Main.Version
	}
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			if c == "" {
				c = s.Value
				if len(c) > 12 {
					c = c[:12]
				}
			}
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if modified && c != "" && commit == "" {
		c += "-dirty"
	}
	return orDefault(v, "dev"), orDefault(c, "unknown")
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the version, commit, Go and OpenCV versions",
		Example: `  cantstop version`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v, c := buildVersion()
			fmt.Fprintf(cmd.OutOrStdout(), "cantstop %s\ncommit   %s\ngo       %s %s/%s\nopencv   %s\n",
				v, c, runtime.Version(), runtime.GOOS, runtime.GOARCH, camera.OpenCVVersion())
			return nil
		},
	}
}
