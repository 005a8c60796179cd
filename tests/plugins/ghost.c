/* A dependency that exists at link time and is hidden at run time, so the
 * plugin linked against it fails to load with a missing soname. */
int strata_test_ghost_answer(void) {
    return 42;
}
