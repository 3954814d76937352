package main

import "github.com/spf13/cobra"

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "cantstop",
		Short:         "Table companion for Sid Sackson's Can't Stop",
		Long:          "cantstop reads the four dice from a camera, lists the legal moves, keeps the board,\ncalls busts and explains why a move is or is not allowed.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(engineCmds()...)
	root.AddCommand(diceCmds()...)
	root.AddCommand(calibrateCmds()...)
	root.AddCommand(companionCmds()...)
	root.AddCommand(deployCmds()...)
	return root
}
