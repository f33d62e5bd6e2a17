// {TITLE}, as a program.
// It reads ADD, CHECK and BITS lines on stdin and writes its answers on stdout.
//
// {MADE_BY}
// Reading the commands and writing the answers are done. Fill in the two parts
// marked TODO, then build and grade it:
//   cc -O2 -o {STEM} {STEM}.c
//   {GRADE}
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define M {M} // bits in the filter
#define K {K} // positions per key

// ---- TODO 1 of 2: the bit array ----
// Keep M bits, all 0 at the start: set_bit(p) sets bit p to 1, and
// bit_is_set(p) says whether bit p is 1. An array of M bytes will do.
static void set_bit(uint64_t p) {
    (void)p;
}

static int bit_is_set(uint64_t p) {
    (void)p;
    return 0;
}
// ---- end of TODO 1 ----

// ---- TODO 2 of 2: the key's positions ----
// key is len bytes (unsigned, 0 to 255). Write its K positions, each from 0
// to M-1, into out, in this order:
{RULES}
static void positions(const unsigned char *key, size_t len, uint64_t out[K]) {
    (void)key;
    (void)len;
    for (int j = 0; j < K; j++) {
        out[j] = 0;
    }
}
// ---- end of TODO 2 ----

int main(void) {
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    uint64_t pos[K];
    while ((n = getline(&line, &cap, stdin)) != -1) {
        size_t len = (size_t)n;
        if (len > 0 && line[len - 1] == '\n') len--;
        if (len > 0 && line[len - 1] == '\r') len--;
        // The key is everything after the first space, spaces and all.
        char *space = memchr(line, ' ', len);
        size_t word = space ? (size_t)(space - line) : len;
        const unsigned char *key =
            (const unsigned char *)line + word + (space ? 1 : 0);
        size_t key_len = space ? len - word - 1 : 0;
        if (word == 3 && memcmp(line, "ADD", 3) == 0) {
            positions(key, key_len, pos);
            for (int j = 0; j < K; j++) set_bit(pos[j]);
        } else if (word == 5 && memcmp(line, "CHECK", 5) == 0) {
            // MAYBE only when every one of the key's bits is 1.
            int all = 1;
            positions(key, key_len, pos);
            for (int j = 0; j < K; j++) all = all && bit_is_set(pos[j]);
            fputs(all ? "MAYBE\n" : "NO\n", stdout);
        } else if (word == 4 && memcmp(line, "BITS", 4) == 0) {
            // Bit 0 first.
            for (uint64_t p = 0; p < M; p++) putchar(bit_is_set(p) ? '1' : '0');
            putchar('\n');
        } else {
            fprintf(stderr, "unknown command: %.*s\n", (int)word, line);
        }
    }
    free(line);
    return 0;
}
