#!/bin/sh
# cantstop prerm: stop the service before its files go (not on upgrade:
# postinst restarts it with the new binary).
set -e
case "$1" in
remove | deconfigure)
	if [ -d /run/systemd/system ]; then
		systemctl stop cantstop.service || true
	fi
	;;
esac
exit 0
