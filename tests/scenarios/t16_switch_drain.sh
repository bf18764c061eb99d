# Maskset requests (switches, and the static-key updates a handler's switch
# queues) do not wait for a buffer reader: requests on the maskset lock
# complete while one drain call scans a 32 MiB block.  Prints the longest
# drain, request and switch, for the record.
. /scenarios/common.inc

lkst_switchdrain -s $((32 << 20)) -d 4 >figures.txt || { cat figures.txt; echo "FAIL: lkst_switchdrain"; exit 1; }
cat figures.txt
