# Interrupts: hardware IRQs of the scratch disk's I/O, the flusher work
# that sync() queues, the VT keyboard tasklet that KDSETLED schedules
# (raising TASKLET_SOFTIRQ), and IPIs between the two CPUs (a pipe
# ping-pong and TLB shootdowns).
. /scenarios/common.inc

[ -e /dev/tty0 ] || mknod /dev/tty0 c 4 0
lkm read -m 0 | lkm write -m 21 -N irq21 || { echo "FAIL: write"; exit 1; }
step lkm config -m 21 interrupt default
step lkm set -m 21
cat /proc/interrupts >interrupts.before
lkst_irqload disk -d /dev/vdb >prog.txt || { echo "FAIL: lkst_irqload disk"; exit 1; }
cat /proc/interrupts >interrupts.after
lkst_irqload led -d /dev/tty0 >>prog.txt || { echo "FAIL: lkst_irqload led"; exit 1; }
# The checker wants 20 IPIs to CPU 1.  arm64 flushes TLBs by broadcast
# instructions, not IPIs, and a wakeup IPIs only an idle CPU: one run
# saw 19 of 20 wakeups; 40 rounds leave a margin.
lkst_irqload ipi -n 40 >>prog.txt || { echo "FAIL: lkst_irqload ipi"; exit 1; }
step lkm set -m 0
grep -wE 'vring_interrupt|vp_interrupt|vp_vring_interrupt|wb_workfn|kbd_bh|keyboard_tasklet|tasklet_action|generic_smp_call_function_single_interrupt' \
	/proc/kallsyms >kallsyms.txt
step lkbuf list
step lkbuf read -f trace.log
lkbuf print -r -C -f trace.log >trace.csv || { echo "FAIL: print"; exit 1; }
step lkm delete -m 21
cat prog.txt
