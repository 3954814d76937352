package main

import "github.com/spf13/cobra"

// engineCmds returns the commands owned by this area (placeholder until wired).
func engineCmds() []*cobra.Command { return nil }
