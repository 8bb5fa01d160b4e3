/* The host C library's printf as the reference for hipsim's device printf formatting. Each input line is
 * FORMAT<TAB>WORD0<TAB>WORD1<TAB>WORD2 (words in hex: star width/precision first, then the value); each output
 * record is what printf wrote, then a 0x1e byte. A value for %s is an index into STRINGS. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char* STRINGS[] = {"", "hip", "hello, world", "x", "a longer string of text", "tab\there"};

static int stars(const char* f) {
  int n = 0;
  for (const char* p = f; *p; p++) n += *p == '*';
  return n;
}

int main(void) {
  char line[4096];
  while (fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\n")] = 0;
    char* fmt = strtok(line, "\t");
    unsigned long long w[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++) {
      char* t = strtok(NULL, "\t");
      if (t) w[i] = strtoull(t, NULL, 16);
    }
    const char* spec = strrchr(fmt, '%');
    size_t at = strcspn(spec + 1, "diouxXcspfFeEgGaA");
    char conv = spec[1 + at];
    int longArg = 0;
    for (size_t i = 1; i <= at; i++) longArg |= strchr("ljzt", spec[i]) != NULL;
    int s = stars(fmt);
    int a0 = (int)w[0], a1 = (int)w[1];
    unsigned long long v = w[s];
    double d;
    memcpy(&d, &v, 8);
#define PRINT(x)                                   \
  do {                                             \
    if (s == 0) printf(fmt, x);                    \
    else if (s == 1) printf(fmt, a0, x);           \
    else printf(fmt, a0, a1, x);                   \
  } while (0)
    switch (conv) {
      case 'd': case 'i': case 'o': case 'u': case 'x': case 'X':
        if (longArg) PRINT((long)v); else PRINT((int)v);
        break;
      case 'c': PRINT((int)v); break;
      case 's': PRINT(STRINGS[v % (sizeof STRINGS / sizeof STRINGS[0])]); break;
      case 'p': PRINT((void*)(size_t)v); break;
      default: PRINT(d); break;
    }
    putchar(0x1e);
  }
  return 0;
}
