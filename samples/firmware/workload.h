/* workload.h: the firmware sample's workload, the same source for the target and the host.
   No system header: built with -ffreestanding, the preprocessed text is then the same for
   arm-none-eabi-gcc and the host's gcc, and so are the units' checksums and path numbers. */
#ifndef WORKLOAD_H
#define WORKLOAD_H

/* Test cases: run_case(i) for 0 <= i < NCASES returns a result to print and compare. */
#define NCASES 4
unsigned int run_case(int i);
const char *case_name(int i);

/* sort.c: sorting and searching on pseudo-random data. */
unsigned int sort_case(unsigned int seed, int n);

/* fsm.c: a line protocol parsed by a state machine. */
unsigned int fsm_case(const char *input);

/* vm.c: a stack machine interpreted by a switch. */
unsigned int vm_case(unsigned int arg);

#endif
