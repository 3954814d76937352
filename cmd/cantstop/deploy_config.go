package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/cantstop/cantstop/config"
)

func configCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Check or show the device configuration (cantstop.conf)",
		Example: `  cantstop config check                       # the file cantstop run would read
  cantstop config check /etc/cantstop/cantstop.conf
  cantstop config show > my.conf              # every key with its effective value`,
	}
	cmd.AddCommand(configCheckCmd(), configShowCmd())
	return cmd
}

func configCheckCmd() *cobra.Command {
	var f deviceFlags
	cmd := &cobra.Command{
		Use:   "check [FILE]",
		Short: "Validate a configuration file: every unknown key or bad value, with its line and the fix",
		Example: `  cantstop config check
  cantstop config check ./cantstop.conf`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			loc := f.location()
			if len(args) == 1 {
				loc = config.Location{Path: args[0], Explicit: true}
			}
			_, found, err := loc.Load(configChecks())
			if err != nil {
				var es config.Errors
				if errors.As(err, &es) {
					fmt.Fprintln(cmd.ErrOrStderr(), err)
					return fmt.Errorf("%s: %s: fix them and check again", loc.Path, plural(len(es), "problem"))
				}
				return err
			}
			if !found {
				fmt.Fprintf(cmd.OutOrStdout(), "%s does not exist: cantstop uses the defaults (cantstop config show prints them)\n", loc.Path)
				return nil
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: OK\n", loc.Path)
			return nil
		},
	}
	f.add(cmd, false)
	return cmd
}

func configShowCmd() *cobra.Command {
	var f deviceFlags
	cmd := &cobra.Command{
		Use:   "show",
		Short: "Print the effective configuration: the file's values and the defaults for the rest",
		Example: `  cantstop config show
  cantstop config show --config ./cantstop.conf`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			loc := f.location()
			c, found, err := loc.Load(configChecks())
			if err != nil {
				return err
			}
			from := "read from " + loc.Path
			if !found {
				from = loc.Path + " does not exist: all defaults"
			}
			fmt.Fprintf(cmd.OutOrStdout(), "# Effective configuration, %s.\n%s", from, config.Format(c))
			return nil
		},
	}
	f.add(cmd, false)
	return cmd
}
