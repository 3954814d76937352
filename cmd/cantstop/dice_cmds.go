package main

import "github.com/spf13/cobra"

// diceCmds returns the commands owned by this area (placeholder until wired).
func diceCmds() []*cobra.Command { return nil }
