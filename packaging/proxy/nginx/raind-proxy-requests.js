// raind-proxy-requests.js: each provider's request as raind writes it, for
// raind-proxy.js (which imports it; install both in one directory).
//
// - openMeteoQuery, pirateWeatherPath, metnoQuery, nwsPath, brightSkyQuery:
//   a provider's request, checked and written the one way raind writes it
//   (its parameters in raind's order, coordinates cut to the 0.01° grid), so
//   neighbours share one cache entry and nothing else reaches a provider;
//   "" for anything else, which the configuration refuses with 400.
// - calls: what a request costs in the provider's own counting, for the
//   site's budgets.

// Open-Meteo: latitude and longitude (required) and the parameters raind
// sends, each at most once, values checked, written in raind's order
// (OpenMeteo.forecastPath); "" for anything else.
var OPEN_METEO_PARAMETERS = [
    "latitude", "longitude", "current", "hourly", "daily", "minutely_15", "forecast_minutely_15",
    "forecast_hours", "forecast_days", "past_days", "timezone", "temperature_unit", "wind_speed_unit",
    "precipitation_unit", "timeformat",
];
var OPEN_METEO_VALUES = {
    forecast_minutely_15: /^[0-9]{1,4}$/, forecast_hours: /^[0-9]{1,3}$/, forecast_days: /^(?:[0-9]|1[0-6])$/,
    past_days: /^[0-9]{1,2}$/, temperature_unit: /^(?:celsius|fahrenheit)$/,
    wind_speed_unit: /^(?:kmh|ms|mph|kn)$/, precipitation_unit: /^(?:mm|inch)$/,
    timeformat: /^(?:iso8601|unixtime)$/,
};

function openMeteoQuery(r) {
    var query = parameters(r.variables.args, OPEN_METEO_PARAMETERS, ["latitude", "longitude"]);
    if (!query) return "";
    var latitude = coordinate(query.latitude, 90);
    var longitude = coordinate(query.longitude, 180);
    if (!latitude || !longitude) return "";
    var written = ["latitude=" + latitude, "longitude=" + longitude];
    for (var i = 2; i < OPEN_METEO_PARAMETERS.length; i++) {
        var name = OPEN_METEO_PARAMETERS[i];
        if (!query.hasOwnProperty(name)) continue;
        var value = query[name];
        if (name == "current" || name == "hourly" || name == "daily" || name == "minutely_15") {
            value = variables(value);
        } else if (name == "timezone") {
            value = value == "auto" ? value : zone(value);
        } else if (!OPEN_METEO_VALUES[name].test(value)) {
            value = null;
        }
        if (!value) return "";
        written.push(name + "=" + value);
    }
    return written.join("&");
}

// A list of Open-Meteo variable names (temperature_2m,weather_code), the
// commas written or percent-encoded; null unless 1 to 50 plain names.
function variables(text) {
    var names = text.replace(/%2C/gi, ",").split(",");
    if (names.length > 50) return null;
    for (var i = 0; i < names.length; i++) {
        if (!/^[a-z0-9_]{1,60}$/.test(names[i])) return null;
    }
    return names.join(",");
}

// Pirate Weather: /forecast/LAT,LON with units, exclude and extend at most
// once each; "/forecast/52.22,6.89?units=si"; "" for anything else (a
// client's own key in the path, /forecast/KEY/LAT,LON, included).
function pirateWeatherPath(r) {
    var place = /^\/forecast\/([^,\/]+),([^,\/]+)$/.exec(r.uri);
    var query = place && parameters(r.variables.args, ["units", "exclude", "extend"], []);
    if (!query) return "";
    var latitude = coordinate(place[1], 90);
    var longitude = coordinate(place[2], 180);
    if (!latitude || !longitude) return "";
    var written = [];
    if (query.hasOwnProperty("units")) {
        if (!/^(?:si|us|ca|uk|uk2)$/.test(query.units)) return "";
        written.push("units=" + query.units);
    }
    if (query.hasOwnProperty("exclude")) {
        var blocks = query.exclude.replace(/%2C/gi, ",").split(",");
        for (var i = 0; i < blocks.length; i++) {
            if (!/^(?:currently|minutely|hourly|daily|alerts|flags)$/.test(blocks[i])) return "";
        }
        written.push("exclude=" + blocks.join(","));
    }
    if (query.hasOwnProperty("extend")) {
        if (query.extend != "hourly") return "";
        written.push("extend=hourly");
    }
    return "/forecast/" + latitude + "," + longitude + (written.length ? "?" + written.join("&") : "");
}

// MET Norway: lat and lon, nothing else; "lat=59.91&lon=10.75".
function metnoQuery(r) {
    var query = parameters(r.variables.args, ["lat", "lon"]);
    var lat = query && coordinate(query.lat, 90);
    var lon = query && coordinate(query.lon, 180);
    return lat && lon ? "lat=" + lat + "&lon=" + lon : "";
}

// The NWS: /points/LAT,LON, or a forecast office's grid cell (three upper
// case letters or digits, column and row 0 to 2000) with nothing, /forecast
// or /forecast/hourly after it; no query.
function nwsPath(r) {
    if (r.variables.args) return "";
    var points = /^\/points\/([^,\/]+),([^,\/]+)$/.exec(r.uri);
    if (points) {
        var lat = coordinate(points[1], 90);
        var lon = coordinate(points[2], 180);
        return lat && lon ? "/points/" + lat + "," + lon : "";
    }
    var cell = /^\/gridpoints\/([A-Z0-9]{3})\/([0-9]{1,4}),([0-9]{1,4})((?:\/forecast(?:\/hourly)?)?)$/.exec(r.uri);
    if (!cell) return "";
    var x = parseInt(cell[2], 10);
    var y = parseInt(cell[3], 10);
    return x <= 2000 && y <= 2000 ? "/gridpoints/" + cell[1] + "/" + x + "," + y + cell[4] : "";
}

// Bright Sky: /weather?lat&lon&date&last_date&tz&units=dwd and
// /current_weather?lat&lon&tz&units=dwd, each parameter once, in raind's order.
function brightSkyQuery(r) {
    var hourly = r.uri == "/weather";
    var names = hourly ? ["lat", "lon", "date", "last_date", "tz", "units"] : ["lat", "lon", "tz", "units"];
    var query = parameters(r.variables.args, names);
    if (!query || query.units != "dwd") return "";
    var lat = coordinate(query.lat, 90);
    var lon = coordinate(query.lon, 180);
    var tz = zone(query.tz);
    if (!lat || !lon || !tz) return "";
    var dates = "";
    if (hourly) {
        if (!day(query.date) || !day(query.last_date)) return "";
        dates = "&date=" + query.date + "&last_date=" + query.last_date;
    }
    return "lat=" + lat + "&lon=" + lon + dates + "&tz=" + tz + "&units=dwd";
}

// The query's parameters by name: each of `names` at most once, every one
// of `required` (all of `names` when not given), no other; null otherwise.
// Values stay as sent (percent-encoded).
function parameters(query, names, required) {
    var found = {};
    var parts = query ? query.split("&") : [];
    for (var i = 0; i < parts.length; i++) {
        var equals = parts[i].indexOf("=");
        var name = equals > 0 ? parts[i].slice(0, equals) : "";
        if (names.indexOf(name) < 0 || found.hasOwnProperty(name)) return null;
        found[name] = parts[i].slice(equals + 1);
    }
    var needed = required || names;
    for (var j = 0; j < needed.length; j++) {
        if (!found.hasOwnProperty(needed[j])) return null;
    }
    return found;
}

// Degrees as raind writes them on its 0.01° grid: cut to two decimals,
// trailing zeros and a lone minus dropped ("52.2249" is "52.22", "52.20" is
// "52.2", "-0.004" is "0"); null unless a plain decimal within ±limit.
function coordinate(text, limit) {
    var parts = /^(-?)([0-9]{1,3})(?:\.([0-9]{1,15}))?$/.exec(text || "");
    if (!parts || Number(parts[2] + "." + (parts[3] || "0")) > limit) return null;
    var whole = String(parseInt(parts[2], 10));
    var fraction = ((parts[3] || "") + "00").slice(0, 2).replace(/0+$/, "");
    var sign = parts[1] && (whole != "0" || fraction) ? "-" : "";
    return sign + whole + (fraction ? "." + fraction : "");
}

// An IANA zone name or UTC, percent-encoded as raind sends it (Europe%2FBerlin); null otherwise.
function zone(text) {
    if (!/^(?:[A-Za-z0-9_.~-]|%[0-9A-Fa-f]{2}){1,200}$/.test(text)) return null;
    var name;
    try {
        name = decodeURIComponent(text);
    } catch (e) {
        return null;
    }
    if (name.length > 64 || !/^[A-Za-z0-9_+-]+(?:\/[A-Za-z0-9_+-]+){0,2}$/.test(name)) return null;
    return encodeURIComponent(name);
}

// A date as YYYY-MM-DD.
function day(text) {
    return /^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])$/.test(text);
}

// The calls a request costs in the provider's own counting: Open-Meteo's
// rule for its forecast (OpenMeteo.countedCalls: variables in tens times
// fortnights of data, never less than 1), one call a request for the others.
function calls(r, provider) {
    if (provider != "open-meteo") return 1;
    var query = parameters(r.variables.args, OPEN_METEO_PARAMETERS, []) || {};
    var count = 0;
    ["current", "hourly", "daily", "minutely_15"].forEach(function (name) {
        if (query[name]) count += query[name].replace(/%2C/gi, ",").split(",").length;
    });
    var days = parseInt(query.forecast_days || "7", 10) || 7;
    return Math.max(1, count / 10) * Math.max(1, days / 14);
}

export default { openMeteoQuery, pirateWeatherPath, metnoQuery, nwsPath, brightSkyQuery, calls };
