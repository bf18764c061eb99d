#!/bin/bash
# Make PATCH the first entry of a quilt series file, creating the file if
# needed and keeping every other entry (others add their patches there).
set -euo pipefail
series=${1:?usage: series-add.sh SERIES PATCH}
patch=${2:?usage: series-add.sh SERIES PATCH}

touch "$series"
first=$(sed -e 's/#.*//' "$series" | awk 'NF { print $1; exit }')
[ "$first" = "$patch" ] && exit 0
tmp=$(mktemp)
{ echo "$patch"; awk -v p="$patch" '$1 != p' "$series"; } >"$tmp"
cat "$tmp" >"$series"
rm -f "$tmp"
echo "  SERIES  $patch first in $series"
