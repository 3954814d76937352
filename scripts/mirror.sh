# Sourced by the build scripts.
# mirror prints the Debian mirror this machine's apt uses (first non-security
# bookworm source), falling back to deb.debian.org.
mirror() {
  local m=""
  if [ -r /etc/apt/sources.list.d/debian.sources ]; then
    m=$(awk '/^URIs:/ && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources)
  fi
  if [ -z "$m" ] && [ -r /etc/apt/sources.list ]; then
    m=$(awk '$1=="deb" && $0 !~ /security/ {for(i=2;i<=NF;i++) if($i ~ /^https?:/){print $i; exit}}' /etc/apt/sources.list)
  fi
  echo "${m:-http://deb.debian.org/debian}"
}
