#!/bin/sh
# cantstop postrm: forget the service on remove; on purge also delete the
# saved games in /var/lib/cantstop. The user cantstop stays (Debian never
# removes system users: files may still belong to it).
set -e
case "$1" in
remove)
	systemctl disable cantstop.service >/dev/null 2>&1 || true
	if [ -d /run/systemd/system ]; then
		systemctl daemon-reload || true
	fi
	;;
purge)
	systemctl disable cantstop.service >/dev/null 2>&1 || true
	rm -rf /var/lib/cantstop /var/lib/private/cantstop
	;;
esac
exit 0
