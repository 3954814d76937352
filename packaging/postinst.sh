#!/bin/sh
# cantstop postinst: make the service user, enable and (re)start the service.
set -e
unit=cantstop.service

make_user() {
	if command -v systemd-sysusers >/dev/null 2>&1; then
		# /usr/lib/sysusers.d/cantstop.conf: user cantstop in gpio, video, i2c.
		systemd-sysusers cantstop.conf
	else
		getent passwd cantstop >/dev/null || adduser --system --group --home /var/lib/cantstop --no-create-home cantstop
		for g in gpio video i2c; do
			getent group "$g" >/dev/null || addgroup --system "$g"
			adduser cantstop "$g" >/dev/null
		done
	fi
}

case "$1" in
configure)
	make_user
	# The service's StateDirectory=; made now so that cantstop doctor, run as
	# user cantstop before the first start, finds it.
	install -d -o cantstop -g cantstop -m 0750 /var/lib/cantstop
	if [ -d /run/systemd/system ]; then
		systemctl daemon-reload || true
	fi
	if [ -z "$2" ]; then
		# First install: start at every boot.
		systemctl enable "$unit" >/dev/null 2>&1 || true
	fi
	if [ -d /run/systemd/system ] && systemctl -q is-enabled "$unit" 2>/dev/null; then
		# --no-block: a device not wired yet must not fail the install; the
		# service retries and `cantstop doctor` says what is missing.
		systemctl --no-block restart "$unit" || true
	fi
	if [ ! -e /dev/i2c-1 ]; then
		echo "cantstop: I2C is off, so the display cannot work: sudo raspi-config nonint do_i2c 0, then reboot" >&2
	fi
	echo "cantstop: installed. Check the device with: sudo systemctl stop cantstop; sudo -u cantstop cantstop doctor; sudo systemctl start cantstop"
	;;
esac
exit 0
