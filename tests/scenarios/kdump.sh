# A trace taken out of a kdump vmcore.  Run by tests/run-all.sh in a boot of
# its own with the kdump initramfs (tools/build/mk-kdump-initramfs.sh) and
# crashkernel=80M crash_kexec_post_notifiers lkst.panic_dump=N: loads the
# capture kernel, records a known workload, reads it once (before.log, kept
# on the scratch disk as a tar at offset 0) and panics.  lkst's panic
# notifier prints the newest records and stops recording, then the capture
# kernel saves /proc/vmcore behind the tar (tests/qemu/capture-init) and
# tests/check/kdump.py extracts the trace from it with lkbuf extract.
. /scenarios/common.inc

step lkst_kexec_crash /boot/bzImage /boot/capture.cpio.gz \
	"console=ttyS0 nr_cpus=1 reset_devices irqpoll panic=-1 lkst_capture"
lkm read -m 0 | lkm write -m 7 -n kdump || { echo "FAIL: write"; exit 1; }
step lkm config -m 7 oops default USER_MARK default SYSCALL_ENTRY default SYSCALL_EXIT default
step lkm set -m 7
i=0
while [ $i -lt 300 ]; do
	lkbuf mark "kdump-$i" || { echo "FAIL: mark $i"; exit 1; }
	i=$((i + 1))
done
step lkbuf read -f before.log
step lkbuf mark after-the-read
tar -cf before.tar before.log
[ "$(stat -c %s before.tar)" -lt $((16 << 20)) ] || { echo "FAIL: before.log over 16 MiB"; exit 1; }
dd if=before.tar of=/dev/vdb conv=fsync 2>/dev/null || { echo "FAIL: cannot keep before.log on /dev/vdb"; exit 1; }
crash=/sys/kernel/debug/provoke-crash/DIRECT
[ -w $crash ] || { echo "FAIL: $crash missing (CONFIG_LKDTM)"; exit 1; }
echo "lkst-kdump: provoking a panic" >/dev/kmsg
echo PANIC >$crash
echo "FAIL: still running after the panic"
exit 1
