# Records carry kernel addresses: under lockdown=confidentiality /dev/lkst
# refuses to open, as tracefs does.  Runs last in its boot: lockdown
# cannot be lifted.
. /scenarios/common.inc

step lkbuf list
mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
cat /sys/kernel/security/lockdown >levels.txt || { echo "FAIL: no lockdown LSM"; exit 1; }
step sh -c "echo confidentiality > /sys/kernel/security/lockdown"
cat /sys/kernel/security/lockdown >>levels.txt
lkbuf list >list.txt 2>list.err
echo "lkbuf list exited $?" >rc.txt
lkm list >lkm.txt 2>lkm.err
echo "lkm list exited $?" >>rc.txt
cat levels.txt rc.txt list.err lkm.err
