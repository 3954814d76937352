package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

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
	root.AddCommand(cameraCmds()...)
	root.AddCommand(companionCmds()...)
	root.AddCommand(deployCmds()...)
	v, c := buildVersion()
	root.Version = fmt.Sprintf("%s (commit %s)", v, c) // --version; `cantstop version` says more
	root.InitDefaultCompletionCmd()
	for _, sub := range root.Commands() {
		if sub.Name() == "completion" {
			sub.Example = `  cantstop completion bash | sudo tee /etc/bash_completion.d/cantstop   # then open a new shell
  cantstop completion zsh > "${fpath[1]}/_cantstop"
  cantstop completion fish > ~/.config/fish/completions/cantstop.fish`
		}
	}
	withUsage(root)
	return root
}
