# Maskset requests (reads, switches, and the static-key updates a handler's
# switch queues) do not wait for a buffer reader: they complete while a
# drain call is held inside its copy to user space (by userfaultfd), with
# the buffer lock taken.  Prints the longest request and switch, for the
# record.
. /scenarios/common.inc

lkst_switchdrain -r 2000 -t 120 >figures.txt || { cat figures.txt; echo "FAIL: lkst_switchdrain"; exit 1; }
cat figures.txt
