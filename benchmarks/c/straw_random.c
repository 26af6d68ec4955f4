/* Straw, random play, default rules (docs/rules/straw.md): the C yardstick for the njit kernel's speed.
 *
 * The same game as `sim run straw --strategy random` with the default parameters: a 64-card deck (STRAW-1), a
 * uniformly random first dealer (STRAW-2), hands of 4 dealt from a shuffled pile (STRAW-3, 4), the random strategy
 * of §5 (uniform over the distinct legal codes, then a uniform Lamp value), Copy repeating the effect beneath it
 * (STRAW-13), breaks (STRAW-14, 15), passes and stalls (STRAW-17), scoring (STRAW-18) and N rounds (STRAW-20).
 * Each game draws from its own SplitMix64 stream keyed by (seed, game index), as sim/rng.py does; the pile is
 * shuffled lazily (a uniform card of the rest is drawn), as the kernel does. Per game it keeps what the kernel's
 * batch output needs at the least (scores, ranks, win shares, turns) and folds it into a checksum so that nothing
 * is optimised away.
 *
 * Build: cc -O3 -march=native -o straw_random straw_random.c
 * Run:   ./straw_random GAMES [PLAYERS] [SEED]
 *        -> "games seconds games_per_second checksum mean_turns seat1_win_share"
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define GOLDEN 0x9E3779B97F4A7C15ULL
enum { REVERSE = 20, COPY = 21, LAMP = 22, STRAW = 23 };
enum { BREAK_AT = 50, HAND = 4, LAMP_MIN = 1, LAMP_MAX = 10, MAX_SEATS = 6, WIN_SCALE = 60 };
enum { E_ADD, E_SUB, E_REV, E_LAMP };

static inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint64_t next_u64(uint64_t *s) { *s += GOLDEN; return mix64(*s); }

static inline int below(uint64_t *s, uint32_t n) { return (int)(((next_u64(s) >> 32) * (uint64_t)n) >> 32); }

static int deck0[64];
static int n_deck;

static void build_deck(void) {  /* STRAW-1 */
    n_deck = 0;
    for (int w = 1; w <= 10; w++) for (int c = 0; c < 4; c++) deck0[n_deck++] = w;
    for (int k = 2; k <= 9; k++) deck0[n_deck++] = 10 + k;
    for (int c = 0; c < 5; c++) { deck0[n_deck++] = REVERSE; deck0[n_deck++] = COPY; deck0[n_deck++] = LAMP; }
    deck0[n_deck++] = STRAW;
}

static inline int hand_value(int code) { return code <= 10 ? code : (code <= 19 ? -(code - 10) : 0); }

/* Plays one game; writes scores, ranks and win60 per seat, returns the number of turns. */
static int play_game(uint64_t seed, uint64_t game, int players, int *score, int *rank, int *win60) {
    uint64_t s = mix64(seed ^ mix64(game + GOLDEN));
    int deck[64], hand[MAX_SEATS][10], hand_len[MAX_SEATS];
    int total[MAX_SEATS] = {0};
    int turns = 0;
    int first_dealer = below(&s, players);  /* STRAW-2 */
    for (int r = 0; r < players; r++) {     /* STRAW-20 */
        int dealer = (first_dealer + r) % players;
        for (int i = 0; i < n_deck; i++) deck[i] = deck0[i];
        int pile = n_deck;
        for (int p = 0; p < players; p++) hand_len[p] = 0;
        for (int c = 0; c < HAND; c++)      /* STRAW-4 */
            for (int i = 1; i <= players; i++) {
                int seat = (dealer + i) % players, j = below(&s, pile);
                hand[seat][hand_len[seat]++] = deck[j];
                deck[j] = deck[--pile];
            }
        int T = 0, dir = 1, stack_len = 0, last_kind = E_ADD, last_value = 0, passes = 0;
        int seat = (dealer + 1) % players, ender = -1, straw_break = 0;  /* STRAW-5 */
        for (;;) {
            int legal[10], n_legal = 0;
            for (int i = 0; i < hand_len[seat]; i++) {  /* STRAW-7: distinct legal codes */
                int code = hand[seat][i], dup = 0;
                if ((code == COPY && stack_len == 0) || (code == STRAW && T != BREAK_AT)) continue;
                for (int k = 0; k < n_legal; k++) dup |= legal[k] == code;
                if (!dup) legal[n_legal++] = code;
            }
            if (n_legal == 0) {                          /* STRAW-17 */
                if (++passes == players) break;          /* a stall */
                seat = (seat + dir + players) % players;
                continue;
            }
            passes = 0;
            int code = legal[below(&s, n_legal)];
            for (int i = 0; i < hand_len[seat]; i++)
                if (hand[seat][i] == code) { hand[seat][i] = hand[seat][--hand_len[seat]]; break; }
            turns++;
            if (code == STRAW) { ender = seat; straw_break = 1; break; }  /* STRAW-14 */
            int kind, value = 0;
            if (code <= 10) { kind = E_ADD; value = code; }
            else if (code <= 19) { kind = E_SUB; value = code - 10; }
            else if (code == REVERSE) kind = E_REV;
            else if (code == LAMP) kind = E_LAMP;
            else { kind = last_kind; value = last_value; }          /* COPY, STRAW-13 */
            if (kind == E_LAMP) value = LAMP_MIN + below(&s, LAMP_MAX - LAMP_MIN + 1);  /* STRAW-9 */
            if (kind == E_ADD || kind == E_LAMP) T += value;
            else if (kind == E_SUB) T = T > value ? T - value : 0;  /* STRAW-10 */
            else dir = -dir;                                        /* STRAW-11 */
            last_kind = kind; last_value = value; stack_len++;
            if (T > BREAK_AT) { ender = seat; break; }              /* STRAW-15 */
            if (pile > 0) {                                         /* STRAW-6 */
                int j = below(&s, pile);
                hand[seat][hand_len[seat]++] = deck[j];
                deck[j] = deck[--pile];
            }
            seat = (seat + dir + players) % players;                /* STRAW-16 */
        }
        for (int p = 0; p < players; p++) {                         /* STRAW-18 */
            int h = 0;
            for (int i = 0; i < hand_len[p]; i++) h += hand_value(hand[p][i]);
            if (ender < 0) total[p] += h;
            else if (straw_break) total[p] += p == ender ? h : 0;
            else total[p] += p == ender ? 0 : h;
        }
    }
    int best = total[0], winners = 0;                               /* STRAW-21 */
    for (int p = 1; p < players; p++) if (total[p] > best) best = total[p];
    for (int p = 0; p < players; p++) winners += total[p] == best;
    for (int p = 0; p < players; p++) {
        int better = 0;
        for (int q = 0; q < players; q++) better += total[q] > total[p];
        score[p] = total[p]; rank[p] = 1 + better; win60[p] = total[p] == best ? WIN_SCALE / winners : 0;
    }
    return turns;
}

int main(int argc, char **argv) {
    long long games = argc > 1 ? atoll(argv[1]) : 1000000;
    int players = argc > 2 ? atoi(argv[2]) : 4;
    uint64_t seed = argc > 3 ? strtoull(argv[3], 0, 10) : 1;
    if (games < 1 || players < 2 || players > MAX_SEATS) { fprintf(stderr, "usage: %s GAMES [2-6] [SEED]\n", argv[0]); return 2; }
    build_deck();
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint64_t check = 0, all_turns = 0, seat0_win60 = 0;
    int score[MAX_SEATS], rank[MAX_SEATS], win[MAX_SEATS];
    for (long long g = 0; g < games; g++) {
        int turns = play_game(seed, (uint64_t)g, players, score, rank, win);
        check = check * 31 + (uint64_t)turns;
        all_turns += (uint64_t)turns;
        seat0_win60 += (uint64_t)win[0];
        for (int p = 0; p < players; p++) check += (uint64_t)(score[p] * 7 + rank[p] * 3 + win[p]);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double sec = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
    printf("%lld %.4f %.0f %llu %.4f %.5f\n", games, sec, games / sec, (unsigned long long)check,
           (double)all_turns / games, (double)seat0_win60 / WIN_SCALE / games);
    return 0;
}
