package main

import "github.com/spf13/cobra"

// deployCmds returns the commands owned by this area (placeholder until wired).
func deployCmds() []*cobra.Command { return nil }
