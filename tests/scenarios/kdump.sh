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
crash_workload kdump
tar -cf before.tar before.log
[ "$(stat -c %s before.tar)" -lt $((16 << 20)) ] || { echo "FAIL: before.log over 16 MiB"; exit 1; }
dd if=before.tar of=/dev/vdb conv=fsync 2>/dev/null || { echo "FAIL: cannot keep before.log on /dev/vdb"; exit 1; }
provoke_crash "lkst-kdump: provoking a panic" PANIC
