#ifndef RAIND_CLOCALE_H
#define RAIND_CLOCALE_H

// glibc's gettext and locale calls for RainCore's Localization: Swift's
// Glibc module leaves out dngettext and the LC_*_MASK macros.
#include <langinfo.h>
#include <libintl.h>
#include <locale.h>

/// The locale the environment names for the categories raind's text
/// depends on (messages, time, numbers, measurement, character set), or
/// (locale_t)0 when it names one that is not installed.
locale_t raind_environment_locale(void);

/// The measurement system of the calling thread's locale: 1 metric, 2 US.
int raind_measurement(void);

/// The size of the calling thread's locale's first digit group (3), 0 for none.
int raind_group_size(void);

#endif
