#!/bin/bash
# Assemble the DKMS / out-of-tree source tree of lkst.ko and the handlers
# from the one source in kernel/ and handlers/ (copied at package time,
# never kept in git).  Prints the package version.
# usage: mk-src.sh DEST [VERSION]
set -euo pipefail
here=$(dirname "$(realpath "$0")")
repo=$(realpath "$here/../..")
dest=${1:?usage: mk-src.sh DEST [VERSION]}
ver=${2:-$(git -C "$repo" describe --always 2>/dev/null || echo 0)}

rm -rf "$dest"
mkdir -p "$dest/lkst" "$dest/include/linux" "$dest/include/uapi/linux"
cp "$repo"/kernel/kernel/lkst/*.[ch] "$dest/lkst/"
rm -f "$dest"/lkst/lkst_kunit*.[ch]
cp "$repo"/kernel/include/linux/lkst.h "$dest/include/linux/"
cp "$repo"/kernel/include/uapi/linux/lkst_*.h "$dest/include/uapi/linux/"
cp "$repo"/handlers/*.[ch] "$dest/"
cp "$here/Makefile" "$dest/"
cat "$here/Kbuild" "$repo/handlers/Kbuild" >"$dest/Kbuild"

# dkms.conf names every module: lkst and those handlers/Kbuild builds.
mods="lkst $(sed -n 's/^obj-m *+= *\(.*\)\.o$/\1/p' "$repo/handlers/Kbuild")"
i=0
for m in $mods; do
	echo "BUILT_MODULE_NAME[$i]=\"$m\""
	echo "DEST_MODULE_LOCATION[$i]=\"/updates/dkms\""
	i=$((i + 1))
done >"$dest/modules.tmp"
sed -e "s/@VERSION@/$ver/" -e "/@MODULES@/{r $dest/modules.tmp
d}" "$here/dkms.conf" >"$dest/dkms.conf"
rm "$dest/modules.tmp"
echo "$ver"
