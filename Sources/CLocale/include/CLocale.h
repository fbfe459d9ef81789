#ifndef RAIND_CLOCALE_H
#define RAIND_CLOCALE_H

// glibc's gettext and locale calls for RainCore's Localization: Swift's
// Glibc module leaves out dngettext, the LC_*_MASK macros and the wide
// characters' case mapping (towlower, towupper: ReaderCase).
#include <langinfo.h>
#include <libintl.h>
#include <locale.h>
#include <wctype.h>

/// The locale the environment names for the categories raind's text
/// depends on (messages, time, numbers, measurement, character set), or
/// (locale_t)0 when it names one that is not installed.
locale_t raind_environment_locale(void);

/// The locale that the variables `lc_all`, `lang` and `lc[i]` (for
/// LC_CTYPE, LC_MESSAGES, LC_TIME, LC_NUMERIC, LC_MEASUREMENT, in that
/// order; NULL or "" for unset) name, chosen per category as glibc chooses
/// from the environment (LC_ALL, else LC_x, else LANG, else C); a category
/// naming a locale that is not installed stays in C. Another process's
/// environment, read from the bus: the user manager's.
locale_t raind_named_locale(const char *lc_all, const char *lang, const char *const lc[5]);

/// The name of the calling thread's LC_MESSAGES locale ("de_DE.UTF-8",
/// "C"): the one gettext looks catalogues up by.
const char *raind_messages_locale_name(void);

/// The process's LANGUAGE ("fr_CA:en"), as gettext reads it; "" when unset.
const char *raind_language_list(void);

/// The measurement system of the calling thread's locale: 1 metric, 2 US.
int raind_measurement(void);

/// The size of the calling thread's locale's first digit group (3), 0 for none.
int raind_group_size(void);

/// nl_langinfo(item) of the calling thread's locale converted from its
/// character set (EUC-JP, GB2312, ISO-8859-1...) to UTF-8 by iconv (ASCII is
/// copied as it is), in a buffer the caller frees; NULL when it does not
/// convert.
char *raind_langinfo_utf8(nl_item item);

#endif
