/* Case: identifiers of any length: labels of 200+ characters reached by goto and by computed goto
   (&&label), labels alike in their first 40 characters, a function name of 200+ characters. */
#include <stdio.h>

#define LONG_LABEL(n) a_label_whose_name_runs_on_and_on_far_beyond_forty_characters_as_the_computed_gotos_of_an_interpreter_loop_spell_their_targets_TARGET_PRECALL_METHOD_DESCRIPTOR_FAST_WITH_KEYWORDS_and_then_some_more_to_pass_two_hundred_##n

/* A threaded interpreter whose labels differ only after their 200th character. */
static int a_function_whose_name_is_just_as_long_because_identifiers_of_any_length_must_survive_instrumentation_tables_reports_and_the_trace_oracle_without_being_cut_at_forty_or_sixty_four_or_two_hundred_and_fifty_six_chars(const unsigned char *code) {
  static void *ops[] = { &&LONG_LABEL(inc), &&LONG_LABEL(dec), &&LONG_LABEL(dbl), &&LONG_LABEL(end) };
  int acc = 0, pc = 0;
  goto *ops[code[pc]];
LONG_LABEL(inc):
  acc++;
  goto *ops[code[++pc]];
LONG_LABEL(dec):
  acc--;
  if (acc < -10) goto LONG_LABEL(end);
  goto *ops[code[++pc]];
LONG_LABEL(dbl):
  acc *= 2;
  if (acc > 1000) goto LONG_LABEL(end);
  goto *ops[code[++pc]];
LONG_LABEL(end):
  return acc;
}

/* Plain gotos to labels whose names share their first 100 characters. */
static int retries(int n) {
  int tries = 0;
a_label_whose_name_runs_on_and_on_far_beyond_forty_characters_as_the_computed_gotos_of_an_interpreter_loop_spell_their_targets_TARGET_PRECALL_METHOD_DESCRIPTOR_FAST_WITH_KEYWORDS_and_then_some_more_to_pass_two_hundred_again:
  tries++;
  if (tries < n) goto a_label_whose_name_runs_on_and_on_far_beyond_forty_characters_as_the_computed_gotos_of_an_interpreter_loop_spell_their_targets_TARGET_PRECALL_METHOD_DESCRIPTOR_FAST_WITH_KEYWORDS_and_then_some_more_to_pass_two_hundred_again;
  if (tries % 2) goto a_label_whose_name_runs_on_and_on_far_beyond_forty_characters_as_the_computed_gotos_of_an_interpreter_loop_spell_their_targets_TARGET_PRECALL_METHOD_DESCRIPTOR_FAST_WITH_KEYWORDS_and_then_some_more_to_pass_two_hundred_odd;
  return tries;
a_label_whose_name_runs_on_and_on_far_beyond_forty_characters_as_the_computed_gotos_of_an_interpreter_loop_spell_their_targets_TARGET_PRECALL_METHOD_DESCRIPTOR_FAST_WITH_KEYWORDS_and_then_some_more_to_pass_two_hundred_odd:
  return -tries;
}

int main(void) {
  unsigned char prog[] = { 0, 0, 2, 1, 2, 0, 2, 2, 1, 3 };
  int t = 0;
  for (int i = 0; i < 40; i++) {
    prog[i % 9] = (unsigned char)(i % 3);
    t += a_function_whose_name_is_just_as_long_because_identifiers_of_any_length_must_survive_instrumentation_tables_reports_and_the_trace_oracle_without_being_cut_at_forty_or_sixty_four_or_two_hundred_and_fifty_six_chars(prog) + retries(i % 5 + 1);
  }
  printf("%d\n", t);
  return 0;
}
