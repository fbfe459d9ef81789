// How the applet writes raind's SI values, times and words: in the unit
// system raind is set to, and the reader's locale (decimal comma, 12/24-hour
// clock), as raindctl does. Texts come from raind's catalogue (domain raind).
.pragma library

var missing = "–"

function number(value, digits, locale) {
    return Number(value).toLocaleString(locale, "f", digits)
}

// Whole degrees in the units' scale: "3°" (°F with units us).
function temperature(celsius, units, locale) {
    if (celsius === undefined || celsius === null || !isFinite(celsius))
        return missing
    var value = units === "us" ? celsius * 9 / 5 + 32 : celsius
    var rounded = Math.round(value)
    return number(rounded === 0 ? 0 : rounded, 0, locale) + "°"
}

// A unit's symbol as the reader's language writes it: `symbols` maps the
// symbols ("m/s", "km/h", "mph", "mm", "in", and "{number}%") to raind's
// translations of them (context "unit"; FullRepresentation.unitSymbols).
function symbol(name, symbols) {
    return symbols && symbols[name] ? symbols[name] : name
}

function windSpeed(metresPerSecond, units, locale, symbols) {
    if (metresPerSecond === undefined || !isFinite(metresPerSecond))
        return missing
    if (units === "si")
        return number(Math.round(metresPerSecond), 0, locale) + " " + symbol("m/s", symbols)
    if (units === "ca")
        return number(Math.round(metresPerSecond * 3.6), 0, locale) + " " + symbol("km/h", symbols)
    return number(Math.round(metresPerSecond * 2.236936), 0, locale) + " " + symbol("mph", symbols)
}

// Rain or snow of a day: millimetres with one decimal (inches with two for
// units us), with the locale's decimal separator ("2,5 mm").
function precipitation(millimetres, units, locale, symbols) {
    if (millimetres === undefined || !isFinite(millimetres))
        return ""
    if (units === "us")
        return number(millimetres / 25.4, 2, locale) + " " + symbol("in", symbols)
    return number(millimetres, 1, locale) + " " + symbol("mm", symbols)
}

// A share as a percentage, placed as the catalogue says ("{number}%").
function percent(fraction, symbols) {
    if (fraction === undefined || !isFinite(fraction))
        return missing
    var value = "" + Math.round(Math.min(Math.max(fraction, 0), 1) * 100)
    return symbol("{number}%", symbols).replace("{number}", value)
}

// A time of the place's own day (its UTC offset), as the locale writes times.
function time(seconds, offset, locale) {
    if (seconds === undefined || !isFinite(seconds))
        return missing
    var shifted = new Date((seconds + (offset || 0)) * 1000)
    var hours = shifted.getUTCHours(), minutes = shifted.getUTCMinutes()
    var pad = minutes < 10 ? "0" + minutes : "" + minutes
    var format = locale.timeFormat(1 /* Locale.ShortFormat */)
    if (/a|A/.test(format))
        return ((hours + 11) % 12 + 1) + ":" + pad + " " + (hours < 12 ? locale.amText : locale.pmText)
    return (hours < 10 ? "0" + hours : hours) + ":" + pad
}

function weekday(seconds, offset, locale) {
    var shifted = new Date((seconds + (offset || 0)) * 1000)
    // Qt's days run 1 (Monday) to 7 (Sunday).
    return locale.dayName(shifted.getUTCDay() === 0 ? 7 : shifted.getUTCDay(), 1)
}

// raind's condition icons (Forecast API names) as Breeze's weather icons.
function iconName(icon) {
    var names = {
        "clear-day": "weather-clear", "clear-night": "weather-clear-night",
        "partly-cloudy-day": "weather-few-clouds", "partly-cloudy-night": "weather-few-clouds-night",
        "cloudy": "weather-overcast", "rain": "weather-showers", "drizzle": "weather-showers-scattered",
        "snow": "weather-snow", "sleet": "weather-snow-rain", "hail": "weather-hail",
        "thunderstorm": "weather-storm", "fog": "weather-fog", "wind": "weather-clouds"
    }
    return names[icon] || "weather-none-available"
}

var severityOrder = { "Extreme": 0, "Severe": 1, "Moderate": 2, "Minor": 3, "Unknown": 4 }

function severityColor(severity) {
    return { "Extreme": "#c0392b", "Severe": "#da4453", "Moderate": "#f67400", "Minor": "#c9b400" }[severity] || "#7f8c8d"
}

// Alerts in effect first, then those to come, each by severity; ended ones left out.
function sortedAlerts(alerts, now) {
    return (alerts || []).filter(function (alert) {
        return alert.end === undefined || alert.end > now
    }).map(function (alert) {
        var begins = alert.onset !== undefined ? alert.onset : alert.start
        return { alert: alert, upcoming: begins !== undefined && begins > now }
    }).sort(function (a, b) {
        if (a.upcoming !== b.upcoming)
            return a.upcoming ? 1 : -1
        return rank(a.alert.severity) - rank(b.alert.severity)
    })
}

// The moon's phase, 0 (new) to 1, from the mean synodic month since the new
// moon of 6 January 2000 18:14 UTC; close enough for a name.
function moonPhase(seconds) {
    var days = (seconds - 947182440) / 86400
    var phase = (days / 29.530588853) % 1
    return phase < 0 ? phase + 1 : phase
}

function moonPhaseIndex(phase) {
    return Math.floor(phase * 8 + 0.5) % 8
}

// Fills {name} placeholders, as raind's catalogue writes them.
function fill(text, values) {
    return text.replace(/\{([a-z]+)\}/g, function (all, key) {
        return values[key] !== undefined ? values[key] : all
    })
}

function rank(severity) {
    return severity in severityOrder ? severityOrder[severity] : 4
}
