package main

import "github.com/spf13/cobra"

// calibrateCmds returns the commands owned by this area (placeholder until wired).
func calibrateCmds() []*cobra.Command { return nil }
