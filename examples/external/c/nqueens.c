/* An external puzzlebench solver in C: bitboard backtracking for nqueens and torus-queens.
 *
 * Protocol (see README, "Any language"): one JSON object on stdin; the result as the last line
 * of stdout. This program reads only the fields it needs ("problem", "size", "task") with a
 * plain string search, finds the first solution (task "solve") or counts all (task "count"),
 * and prints {"claim": ..., "answer": [...], "count": ..., "counters": {"nodes": ...}}.
 * Build: cc -O2 -o nqueens nqueens.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int n, torus, counting;
static uint64_t full, nodes, found;
static int cols[64];

static uint64_t shl(uint64_t x) { return torus ? ((x << 1) | (x >> (n - 1))) & full : (x << 1) & full; }
static uint64_t shr(uint64_t x) { return torus ? ((x >> 1) | (x << (n - 1))) & full : x >> 1; }

static int place(int row, uint64_t c, uint64_t ld, uint64_t rd) {
    if (row == n) {
        found++;
        return !counting;
    }
    uint64_t avail = full & ~(c | ld | rd);
    while (avail) {
        uint64_t bit = avail & (~avail + 1);
        avail ^= bit;
        nodes++;
        cols[row] = __builtin_ctzll(bit);
        if (place(row + 1, c | bit, shl(ld | bit), shr(rd | bit))) return 1;
    }
    return 0;
}

int main(void) {
    static char buf[1 << 20];
    size_t len = fread(buf, 1, sizeof buf - 1, stdin);
    buf[len] = 0;
    const char *size = strstr(buf, "\"size\":");
    if (!size) { fprintf(stderr, "no size in the request\n"); return 2; }
    n = atoi(size + 7);
    torus = strstr(buf, "\"problem\": \"torus-queens\"") || strstr(buf, "\"problem\":\"torus-queens\"");
    counting = strstr(buf, "\"task\": \"count\"") || strstr(buf, "\"task\":\"count\"");
    if (n < 1 || n > 63) {  /* beyond one machine word: decline, honestly */
        printf("{\"claim\": \"unknown\", \"note\": \"n = %d is outside 1..63\"}\n", n);
        return 0;
    }
    full = (n == 64) ? ~0ULL : ((1ULL << n) - 1);
    printf("c-solver: n=%d torus=%d task=%s\n", n, torus, counting ? "count" : "solve");
    place(0, 0, 0, 0);
    if (counting) {
        printf("{\"claim\": \"%s\", \"count\": %llu, \"counters\": {\"nodes\": %llu}}\n",
               found ? "solved" : "infeasible", (unsigned long long)found, (unsigned long long)nodes);
    } else if (found) {
        printf("{\"claim\": \"solved\", \"answer\": [");
        for (int r = 0; r < n; r++) printf(r ? ", %d" : "%d", cols[r]);
        printf("], \"counters\": {\"nodes\": %llu}}\n", (unsigned long long)nodes);
    } else {
        printf("{\"claim\": \"infeasible\", \"counters\": {\"nodes\": %llu}}\n", (unsigned long long)nodes);
    }
    return 0;
}
