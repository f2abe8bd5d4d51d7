#!/bin/sh
# A stand-in for python3 with torch (tools/cavs-bench-failing-baselines):
# it "imports torch", then fails each baseline run its own way, picked by
# the run's --impl and --threads.
[ "$1" = -c ] && exit 0
case "$*" in
*"--impl level --threads 1 "*)
  exit 3 ;;
*"--impl per-sample --threads 1 "*)
  echo "per-sample: about to be killed"
  kill -KILL $$ ;;
*"--impl level --threads 2 "*)
  # A helper of its own that must die with it; its pid for the test.
  sleep 60 &
  echo $! > "$CAVS_TEST_HELPER_PID"
  echo "level: hanging"
  wait ;;
*)
  echo "per-sample: exits 0 without writing its result"
  exit 0 ;;
esac
