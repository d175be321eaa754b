/* SPDX-License-Identifier: MIT */
/*
 * core/model/alias.c — canonical node and port spellings (see alias.h for the
 * rules and why). Sources of the spellings: NX-OS and EOS interface names
 * (`Ethernet1/1`, short `Eth1/1`, EOS LLDP `Et1`), Cumulus `swpN` and
 * breakouts `swpNsM`, SONiC `EthernetN` and aliases `etpN[a-h]`, Junos
 * `ge-/xe-/et-FPC/PIC/PORT[.UNIT]`, IOS-XR `HundredGigE0/0/0/1`, ibdm
 * front-panel `P<n>`, and lldpd's PortID subtypes (lldpd src/lldpd-structs.h
 * LLDP_PORTID_SUBTYPE_*; lldpcli prints them as `ifname`, `mac`, `local`,
 * `ifalias`, `ip`). The tables are small and searched linearly.
 */
#include "model/alias.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

static size_t put(char *out, size_t size, size_t n, char c) {
  if (n + 1 < size)
    out[n++] = c;
  return n;
}

static int is_ipv4(const char *s, size_t len) {
  int dots = 0, digits = 0;
  for (size_t i = 0; i < len; i++) {
    if (s[i] == '.') {
      if (!digits)
        return 0;
      dots++;
      digits = 0;
    } else if (isdigit((unsigned char)s[i])) {
      if (++digits > 3)
        return 0;
    } else {
      return 0;
    }
  }
  return dots == 3 && digits;
}

int fl_alias_is_mac(const char *s, size_t len) {
  /* 6 groups of 2 hex digits separated by ':' or '-', or Cisco's 3 groups of
   * 4 separated by '.' */
  if (len == 17) {
    for (size_t i = 0; i < 17; i++) {
      if (i % 3 == 2) {
        if (s[i] != ':' && s[i] != '-')
          return 0;
      } else if (!isxdigit((unsigned char)s[i])) {
        return 0;
      }
    }
    return 1;
  }
  if (len == 14) {
    for (size_t i = 0; i < 14; i++) {
      if (i % 5 == 4) {
        if (s[i] != '.')
          return 0;
      } else if (!isxdigit((unsigned char)s[i])) {
        return 0;
      }
    }
    return 1;
  }
  return 0;
}

int fl_alias_is_ifname(const char *s, size_t len) {
  if (!len || !isalpha((unsigned char)s[0]))
    return 0;
  int digit = 0;
  for (size_t i = 0; i < len; i++) {
    if (isspace((unsigned char)s[i]))
      return 0;
    digit |= isdigit((unsigned char)s[i]) != 0;
  }
  return digit;
}

static size_t node_canon(const char *s, size_t len, char *out, size_t size,
                         int short_name) {
  size_t n = 0;
  const char *end = s + len;
  while (s < end && isspace((unsigned char)*s))
    s++;
  while (end > s && isspace((unsigned char)end[-1]))
    end--;
  /* first word: FQDN -> short name */
  const char *w = s;
  while (w < end && !isspace((unsigned char)*w))
    w++;
  const char *first_end = w;
  if (short_name && !is_ipv4(s, (size_t)(w - s)) &&
      !fl_alias_is_mac(s, (size_t)(w - s))) {
    const char *dot = memchr(s, '.', (size_t)(w - s));
    if (dot && dot > s)
      first_end = dot;
  }
  for (const char *p = s; p < first_end; p++)
    n = put(out, size, n, (char)tolower((unsigned char)*p));
  int blank = 0;
  for (const char *p = w; p < end; p++) {
    if (isspace((unsigned char)*p)) {
      blank = 1;
      continue;
    }
    if (blank)
      n = put(out, size, n, ' ');
    blank = 0;
    n = put(out, size, n, (char)tolower((unsigned char)*p));
  }
  if (size)
    out[n] = '\0';
  return n;
}

size_t fl_alias_node(const char *s, size_t len, char *out, size_t size) {
  return node_canon(s, len, out, size, 1);
}

size_t fl_alias_node_full(const char *s, size_t len, char *out, size_t size) {
  return node_canon(s, len, out, size, 0);
}

int fl_alias_node_compatible(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > lb) {
    const char *t = a;
    a = b;
    b = t;
    size_t tl = la;
    la = lb;
    lb = tl;
  }
  /* @a is the shorter: equal, or a prefix of @b ending at a label */
  return strncmp(a, b, la) == 0 && (la == lb || b[la] == '.');
}

/* Interface-type words dropped before a digit, longest first within a
 * shared prefix so that "ethernet" wins over "eth" and "et". */
static const char *const PORT_WORDS[] = {
    "twentyfivegige",
    "hundredgigabitethernet",
    "hundredgige",
    "fortygige",
    "fourhundredgige",
    "tengigabitethernet",
    "tengige",
    "gigabitethernet",
    "fastethernet",
    "ethernet",
    "eth",
    "etp",
    "et",
    "swp",
    "port",
    "interface",
    "gi",
    "te",
    "fo",
    "hu",
    "fa",
    "p",
    "e",
};

/* 1 when [@s, @end) is one or more digits. */
static int all_digits(const char *s, const char *end) {
  if (s >= end)
    return 0;
  for (; s < end; s++)
    if (!isdigit((unsigned char)*s))
      return 0;
  return 1;
}

/* Works on the input in place (no buffer of its own): the canonical form
 * of a label of any length is whole when @size exceeds @len. */
size_t fl_alias_port(const char *s, size_t len, char *out, size_t size) {
  const char *end = s + len;
  while (s < end && isspace((unsigned char)*s))
    s++;
  while (end > s && isspace((unsigned char)end[-1]))
    end--;
  /* unit / sub-interface suffix ".N" after something with a digit */
  const char *dot = NULL;
  for (const char *q = end; q > s; q--)
    if (q[-1] == '.') {
      dot = q - 1;
      break;
    }
  if (dot && all_digits(dot + 1, end)) {
    int digit_before = 0;
    for (const char *q = s; q < dot; q++)
      digit_before |= isdigit((unsigned char)*q) != 0;
    if (digit_before)
      end = dot;
  }
  const char *b = s;
  size_t n = (size_t)(end - s);
  /* Junos media prefix: 2-3 letters and '-' before a digit */
  if (n >= 4 && isalpha((unsigned char)b[0]) && isalpha((unsigned char)b[1])) {
    size_t k = isalpha((unsigned char)b[2]) ? 3 : 2;
    if (k + 1 < n && b[k] == '-' && isdigit((unsigned char)b[k + 1]))
      b += k + 1;
  }
  if (b == s) {
    for (size_t i = 0; i < sizeof PORT_WORDS / sizeof *PORT_WORDS; i++) {
      size_t wl = strlen(PORT_WORDS[i]);
      if (n >= wl && strncasecmp(b, PORT_WORDS[i], wl) == 0) {
        const char *r = b + wl;
        while (r < end && (*r == ' ' || *r == '_' || *r == '-'))
          r++;
        if (r < end && isdigit((unsigned char)*r)) {
          b = r;
          break;
        }
      }
    }
  }
  size_t m = 0;
  for (; b < end; b++)
    m = put(out, size, m, (char)tolower((unsigned char)*b));
  if (size)
    out[m] = '\0';
  return m;
}

size_t fl_alias_port_alt(const char *canon, char *out, size_t size) {
  size_t len = strlen(canon);
  if (!len || len + 3 > size)
    return 0;
  int digits = 1;
  for (size_t i = 0; i < len; i++)
    digits &= isdigit((unsigned char)canon[i]) != 0;
  if (digits) {
    memcpy(out, "1/", 2);
    memcpy(out + 2, canon, len + 1);
    return len + 2;
  }
  if (len > 2 && canon[0] == '1' && canon[1] == '/') {
    for (size_t i = 2; i < len; i++)
      if (!isdigit((unsigned char)canon[i]))
        return 0;
    memcpy(out, canon + 2, len - 1);
    return len - 2;
  }
  return 0;
}

unsigned fl_alias_int(const char *canon) {
  unsigned v = 0;
  if (!*canon)
    return 0;
  for (const char *p = canon; *p; p++) {
    if (!isdigit((unsigned char)*p) || v > 6553)
      return 0;
    v = v * 10 + (unsigned)(*p - '0');
  }
  return v;
}

const char *fl_alias_lldp_port(const char *subtype, const char *id,
                               const char *descr) {
  size_t il = id ? strlen(id) : 0, dl = descr ? strlen(descr) : 0;
  int by_name = 0, by_other = 0;
  if (subtype) {
    by_name = strcasecmp(subtype, "ifname") == 0 ||
              strcasecmp(subtype, "ifalias") == 0 ||
              strncasecmp(subtype, "interface name", 14) == 0 ||
              strncasecmp(subtype, "interface alias", 15) == 0;
    by_other = !by_name;
  }
  if (by_name && il)
    return id;
  if (il && (by_other || fl_alias_is_mac(id, il))) {
    /* mac / local / addr: the description names the port when it can */
    if (dl && fl_alias_is_ifname(descr, dl))
      return descr;
    return fl_alias_is_mac(id, il) && dl ? descr : id;
  }
  if (il)
    return id;
  return dl ? descr : NULL;
}
