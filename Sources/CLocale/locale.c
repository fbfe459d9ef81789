#define _GNU_SOURCE
#include "CLocale.h"

#include <iconv.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

locale_t raind_environment_locale(void) {
    int mask = LC_CTYPE_MASK | LC_MESSAGES_MASK | LC_TIME_MASK | LC_NUMERIC_MASK | LC_MEASUREMENT_MASK;
    locale_t chosen = newlocale(mask, "", (locale_t)0);
    // One category naming a locale that is missing fails the whole call:
    // each category then falls back alone, as setlocale's callers expect.
    if (chosen != (locale_t)0) return chosen;
    chosen = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    int categories[] = {LC_CTYPE_MASK, LC_MESSAGES_MASK, LC_TIME_MASK, LC_NUMERIC_MASK, LC_MEASUREMENT_MASK};
    for (unsigned i = 0; i < sizeof categories / sizeof categories[0] && chosen; i++) {
        locale_t next = newlocale(categories[i], "", chosen);
        if (next != (locale_t)0) chosen = next;
    }
    return chosen;
}

static int given(const char *value) { return value && value[0]; }

locale_t raind_named_locale(const char *lc_all, const char *lang, const char *const lc[5]) {
    int categories[] = {LC_CTYPE_MASK, LC_MESSAGES_MASK, LC_TIME_MASK, LC_NUMERIC_MASK, LC_MEASUREMENT_MASK};
    locale_t chosen = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    for (unsigned i = 0; i < sizeof categories / sizeof categories[0] && chosen; i++) {
        const char *name = given(lc_all) ? lc_all : given(lc[i]) ? lc[i] : given(lang) ? lang : "C";
        // A name with a slash would be a path to a locale of the caller's choosing.
        if (strchr(name, '/')) continue;
        locale_t next = newlocale(categories[i], name, chosen);
        if (next != (locale_t)0) chosen = next;
    }
    return chosen;
}

const char *raind_messages_locale_name(void) {
    const char *name = nl_langinfo(_NL_LOCALE_NAME(LC_MESSAGES));
    return name ? name : "C";
}

const char *raind_language_list(void) {
    const char *list = getenv("LANGUAGE");
    return list ? list : "";
}

int raind_measurement(void) {
    const char *value = nl_langinfo(_NL_MEASUREMENT_MEASUREMENT);
    return value && value[0] ? value[0] : 1;
}

int raind_group_size(void) {
    const char *grouping = nl_langinfo(GROUPING);
    return grouping && grouping[0] > 0 && grouping[0] != CHAR_MAX ? grouping[0] : 0;
}

char *raind_langinfo_utf8(nl_item item) {
    const char *text = nl_langinfo(item);
    const char *codeset = nl_langinfo(CODESET);
    if (!text || !codeset) return NULL;
    size_t length = strlen(text);
    /* ASCII is the same bytes in UTF-8 and in every character set a locale
       can be made in (localedef refuses one that is not ASCII's superset):
       copied, without a converter (the C locale's names, most numbers). */
    size_t ascii = 0;
    while (ascii < length && (unsigned char)text[ascii] < 0x80) ascii++;
    if (ascii == length) return strdup(text);
    iconv_t converter = iconv_open("UTF-8", codeset);
    if (converter == (iconv_t)-1) return NULL;
    size_t room = length * 4 + 1;
    char *out = malloc(room);
    if (!out) {
        iconv_close(converter);
        return NULL;
    }
    char *in = (char *)text;
    char *cursor = out;
    size_t inLeft = length, outLeft = room - 1;
    size_t done = iconv(converter, &in, &inLeft, &cursor, &outLeft);
    iconv_close(converter);
    if (done == (size_t)-1 || inLeft != 0) {
        free(out);
        return NULL;
    }
    *cursor = 0;
    return out;
}
