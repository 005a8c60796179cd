/* Prints the text a CUDA library's own error-string function returns for each
 * code given on the command line: `error_strings LIB SYMBOL CODE...`.
 * Used by scripts/generate-status-codes; the libraries are dlopened, so no GPU
 * and no driver are needed and nothing is linked at build time. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

typedef const char *(*error_string_fn)(int);

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: error_strings LIBRARY SYMBOL CODE...\n");
        return 2;
    }
    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        fprintf(stderr, "error_strings: %s\n", dlerror());
        return 1;
    }
    error_string_fn describe = (error_string_fn)dlsym(library, argv[2]);
    if (!describe) {
        fprintf(stderr, "error_strings: %s\n", dlerror());
        return 1;
    }
    for (int i = 3; i < argc; ++i) {
        const char *text = describe(atoi(argv[i]));
        printf("%s\t%s\n", argv[i], text ? text : "");
    }
    return 0;
}
