package main

import "github.com/spf13/cobra"

// companionCmds returns the commands owned by this area (placeholder until wired).
func companionCmds() []*cobra.Command { return nil }
