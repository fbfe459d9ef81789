// raind-proxy.js: what raind-proxy.conf cannot say in nginx's own terms.
//
// - age, cacheControl: the Age and Cache-Control headers raind schedules by.
//   nginx's cache sends no Age of its own, and raind needs it to know how old
//   a cached (or, with the provider down, stale) copy is: it reports that age.
// - metnoQuery, nwsPath, brightSkyQuery: the request of a national service,
//   checked and written the one way raind writes it, coordinates cut to the
//   0.01° grid, so neighbours share one cache entry; "" for anything else,
//   which the configuration refuses with 400.

// Age is the apparent age of RFC 9111 section 4.2.3: now minus the Date the
// provider stamped on the response (kept in the cache with it), or the
// provider's own Age when that is larger (a CDN in front of the provider).
//
// nginx keeps a copy's first headers when the provider confirms it with 304
// Not Modified (proxy_cache_revalidate): the copy is fresh again, its Date
// still the first one's. So a copy just confirmed is 0 seconds old, and one
// served later while still fresh to nginx, but older than its headers'
// lifetime, was confirmed since: it counts from its last lifetime's start,
// as if each confirmation had come when the one before ran out. That errs by
// less than one lifetime, where the first Date would call current data old.
function age(r) {
    var status = r.variables.upstream_cache_status;
    if (status == "REVALIDATED") return "0";
    var current = currentAge(r);
    var shared = lifetime(r, true);
    if (status == "HIT" && shared > 0 && current >= shared) return String(current % shared);
    return String(current);
}

function currentAge(r) {
    var date = Date.parse(r.variables.upstream_http_date || "");
    var apparent = isNaN(date) ? 0 : Math.floor((Date.now() - date) / 1000);
    var upstream = parseInt(r.variables.upstream_http_age || "0", 10);
    return Math.max(0, apparent, isNaN(upstream) ? 0 : upstream);
}

// The lifetime for raind: the provider's Cache-Control when it speaks to
// clients (Pirate Weather, the NWS), else its Expires as max-age (MET Norway),
// else the proxy's own ($raind_lifetime, its location's proxy_cache_valid).
function cacheControl(r) {
    var given = r.variables.upstream_http_cache_control || "";
    if (/(?:^|,)\s*(?:max-age\s*=|no-store|no-cache|private)/i.test(given)) return given;
    return "max-age=" + lifetime(r, false);
}

// Seconds the provider's headers let a copy live, in nginx's order:
// (s-maxage, for nginx's own shared cache), max-age, Expires less the
// provider's Date, else the location's $raind_lifetime.
function lifetime(r, shared) {
    var given = r.variables.upstream_http_cache_control || "";
    var seconds = shared ? directive(given, "s-maxage") : NaN;
    if (isNaN(seconds)) seconds = directive(given, "max-age");
    if (!isNaN(seconds)) return seconds;
    if (r.variables.upstream_http_expires) {
        var expires = Date.parse(r.variables.upstream_http_expires);
        var date = Date.parse(r.variables.upstream_http_date || "");
        // An Expires that is no date has expired (RFC 9111 section 5.3).
        if (isNaN(expires)) return 0;
        return Math.max(0, Math.floor((expires - (isNaN(date) ? Date.now() : date)) / 1000));
    }
    return parseInt(r.variables.raind_lifetime, 10) || 0;
}

function directive(cacheControl, name) {
    var found = new RegExp("(?:^|,)\\s*" + name + "\\s*=\\s*\"?([0-9]+)", "i").exec(cacheControl);
    return found ? parseInt(found[1], 10) : NaN;
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

// The query's parameters by name: every one of `names` exactly once and no
// other; null otherwise. Values stay as sent (percent-encoded).
function parameters(query, names) {
    var found = {};
    var parts = query ? query.split("&") : [];
    for (var i = 0; i < parts.length; i++) {
        var equals = parts[i].indexOf("=");
        var name = equals > 0 ? parts[i].slice(0, equals) : "";
        if (names.indexOf(name) < 0 || found.hasOwnProperty(name)) return null;
        found[name] = parts[i].slice(equals + 1);
    }
    for (var j = 0; j < names.length; j++) {
        if (!found.hasOwnProperty(names[j])) return null;
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

export default { age, cacheControl, metnoQuery, nwsPath, brightSkyQuery };
