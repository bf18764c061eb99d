#!/bin/bash
# Configure KSRC from allnoconfig plus Kconfig fragments, then check that
# every value the fragments ask for survived olddefconfig: a silently
# dropped option (missing dependency, unknown symbol) would otherwise give
# a kernel that builds fine but does not test what we think it does.
# Reconfigures only when a fragment or the applied patches changed.
set -euo pipefail

here=$(dirname "$(realpath "$0")")
ksrc=$(realpath "${1:?usage: configure-kernel.sh KSRC FRAGMENT...}")
shift
[ $# -gt 0 ] || { echo "configure-kernel: no config fragments given" >&2; exit 1; }
frags=()
for f in "$@"; do
	[ -f "$f" ] || { echo "configure-kernel: fragment $f not found" >&2; exit 1; }
	frags+=("$(realpath "$f")")
done

stamp="$ksrc/.lkst-config.stamp"
want=$( { printf '%s\n' "${frags[@]}"; cat "${frags[@]}"; cat "$ksrc/.lkst-patches.stamp" 2>/dev/null || true; } | sha256sum | cut -d' ' -f1)

if [ ! -f "$ksrc/.config" ] || [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
	rm -f "$stamp"
	log="$ksrc/.lkst-config.log"
	echo "  CONFIG  allnoconfig + $(printf '%s ' "${frags[@]##*/}")"
	if ! { "$here/kmake.sh" "$ksrc" allnoconfig &&
	       (cd "$ksrc" && ARCH=${ARCH:-x86_64} scripts/kconfig/merge_config.sh -m -O . .config "${frags[@]}") &&
	       "$here/kmake.sh" "$ksrc" olddefconfig; } >"$log" 2>&1; then
		tail -n 40 "$log" >&2
		echo "configure-kernel: configuring failed (full log: $log)" >&2
		exit 1
	fi
fi

# Verify: CONFIG_X=val must appear verbatim, "# CONFIG_X is not set" must not be set.
# A later fragment overrides an earlier one (as merge_config.sh does): only
# the last request for a symbol is checked (configs/peers.config turns on
# what configs/ftrace.config turns off).
bad=0
for i in "${!frags[@]}"; do
	f=${frags[$i]}
	while IFS= read -r line; do
		if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
			sym=${BASH_REMATCH[1]}
			grep -qxF "$line" "$ksrc/.config" && continue
		elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
			sym=${BASH_REMATCH[1]}
			grep -qE "^$sym=" "$ksrc/.config" || continue
		else
			continue
		fi
		later=("${frags[@]:$((i + 1))}")
		[ ${#later[@]} -gt 0 ] && grep -qE "^$sym=|^# $sym is not set" "${later[@]}" && continue
		got=$(grep -E "^$sym=|^# $sym is not set" "$ksrc/.config" || true)
		if [ -z "$got" ] && ! grep -rqsE --include='Kconfig*' "^[[:space:]]*(menu)?config[[:space:]]+${sym#CONFIG_}\$" "$ksrc"; then
			got="no such symbol in Kconfig (is the patch that adds it in the series?)"
		fi
		echo "configure-kernel: ${f##*/}: requested '$line', got: ${got:-not set (unmet dependency?)}" >&2
		bad=1
	done < "$f"
done
if [ $bad -ne 0 ]; then
	rm -f "$stamp"
	echo "configure-kernel: the options above did not survive olddefconfig; fix the fragments or add the missing dependencies" >&2
	exit 1
fi
echo "$want" > "$stamp"
