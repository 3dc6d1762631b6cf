# sample.sh: sourced by e2e scripts: which items of a long list make check runs (check-full: all).
# sampled I N: true for item I (counted from 0) when I % N == 0, and always with REGRESS_FULL. A test
# over several modes passes I + the mode's number, so each item still runs in one mode of N.
sampled() { [ -n "${REGRESS_FULL:-}" ] || [ $(($1 % $2)) = 0 ]; }
# sized CHECK FULL: the size of a test's run (seeds, rounds, sizes): CHECK in make check, FULL with
# REGRESS_FULL.
sized() { if [ -n "${REGRESS_FULL:-}" ]; then echo "$2"; else echo "$1"; fi; }
