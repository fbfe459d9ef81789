// raind-proxy.js: what raind-proxy.conf cannot say in nginx's own terms.
//
// The front (the server the fleet asks):
// - age, cacheControl: the Age and Cache-Control headers raind schedules by.
//   nginx's cache sends no Age of its own, and raind needs it to know how old
//   a cached (or, with the provider down, stale) copy is: it reports that age.
// - openMeteoQuery, pirateWeatherPath, metnoQuery, nwsPath, brightSkyQuery:
//   a provider's request, checked and written the one way raind writes it,
//   from raind-proxy-requests.js (which nginx finds beside this file).
// The upstream hop (the server only the front asks, which alone holds the key):
// - refusal: whether a request may go to the provider now: the site's budget
//   for the provider (its calls a day and a month) and the back-off of a
//   cell whose last attempt failed; a refused request costs the provider
//   nothing and the front serves its last copy.
// - upstream: asks the provider (a subrequest to the provider's internal
//   location) and answers the front anew, so nothing of the provider's
//   answer goes back but a forecast and the headers a cache and raind need
//   (not its reason phrase, a Location, nor the key anywhere); an error's or
//   a web page's body is the proxy's own short text.

import requests from "raind-proxy-requests.js";

var fs = require("fs");
var crypto = require("crypto");

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
    var date = Date.parse(providerDate(r));
    var apparent = isNaN(date) ? 0 : Math.floor((Date.now() - date) / 1000);
    var upstream = parseInt(r.variables.upstream_http_age || "0", 10);
    return Math.max(0, apparent, isNaN(upstream) ? 0 : upstream);
}

// The lifetime for raind: the provider's Cache-Control when it speaks to
// clients (Pirate Weather, the NWS), else its Expires as max-age (MET Norway),
// else the proxy's own ($raind_lifetime, its location's proxy_cache_valid).
// The provider's Date, which the upstream hop sends as X-Raind-Provider-Date
// (its own Date is the moment it answered the front).
function providerDate(r) {
    return r.variables.upstream_http_x_raind_provider_date || r.variables.upstream_http_date || "";
}

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
        var date = Date.parse(providerDate(r));
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


// The upstream hop. Each provider's name as a person reads it.
var PROVIDER_NAMES = {
    "open-meteo": "Open-Meteo", pirateweather: "Pirate Weather", metno: "MET Norway", nws: "the NWS",
    brightsky: "Bright Sky", eccc: "Environment and Climate Change Canada", meteoalarm: "MeteoAlarm",
    "open-meteo-air": "Open-Meteo's air-quality service",
};

// Whether this request may go to the provider now: "" when it may (and its
// calls are then counted against the site's budgets), else the 503 answer's
// body, with $raind_refused (why: "budget" or "backoff") and
// $raind_retry_after (seconds) set for its headers. A state directory nginx
// cannot write refuses too: a budget that cannot be counted protects nothing.
function refusal(r) {
    var provider = r.variables.raind_provider;
    if (!provider) return "";
    var name = PROVIDER_NAMES[provider];
    var now = Date.now() / 1000;
    var dir = r.variables.raind_state_dir;
    try {
        var backoff = readBackoff(dir + "/backoff-" + cellKey(r));
        if (backoff && backoff.until > now) {
            var wait = Math.ceil(backoff.until - now);
            return refuse(r, "backoff", wait, capitalized(name) + " failed at the site proxy's last attempt for this place; "
                + "the proxy asks it again in " + wait + " s and answers with its last copy meanwhile.");
        }
        var cost = requests.calls(r, provider);
        var periods = budgetPeriods(r, now);
        var full = spentPeriod(r, provider, periods, cost);
        if (full) {
            return refuse(r, "budget", Math.ceil(full.until - now), "The site proxy has spent its budget for "
                + name + " " + full.per + " (" + round(full.used) + " of " + full.budget + " calls); it asks "
                + name + " again after " + full.again + " and answers with its last copies meanwhile.");
        }
        sweep(dir, provider, periods[0].id, periods[1].id);
        for (var j = 0; j < periods.length; j++) {
            fs.appendFileSync(dir + "/spent-" + provider + "-" + periods[j].id, round(cost) + "\n");
        }
    } catch (e) {
        return refuse(r, "budget", 60, "The site proxy cannot count its budget for " + name + " in " + dir
            + " (" + e.message + "); create that directory for nginx's user (docs/DEPLOYMENT-PROXY.md).");
    }
    return "";
}

// The site's two budget periods for a provider: this UTC day and month.
function budgetPeriods(r, now) {
    var day = new Date(now * 1000).toISOString().slice(0, 10);
    return [
        { id: day, budget: r.variables.raind_daily_budget, per: "today", until: nextDay(now), again: "00:00 UTC" },
        { id: day.slice(0, 7), budget: r.variables.raind_monthly_budget, per: "this month", until: nextMonth(now),
          again: "the 1st, 00:00 UTC" },
    ];
}

// The first period whose budget `cost` more calls would pass, with what it
// has spent; null when the request fits in both.
function spentPeriod(r, provider, periods, cost) {
    for (var i = 0; i < periods.length; i++) {
        var budget = parseFloat(periods[i].budget);
        if (!(budget > 0)) continue;
        var used = spent(r.variables.raind_state_dir + "/spent-" + provider + "-" + periods[i].id);
        if (used + cost > budget) {
            periods[i].used = used;
            periods[i].budget = budget;
            return periods[i];
        }
    }
    return null;
}

// For the front's X-Raind-Proxy-Refused: "budget" on a last copy served
// while the site's budget for its provider is spent (the request that would
// renew it is refused); else what the upstream hop said of a refusal.
function refusedNow(r) {
    var status = r.variables.upstream_cache_status;
    if (status != "STALE" && status != "UPDATING") return r.variables.upstream_http_x_raind_proxy_refused || "";
    var provider = r.variables.raind_provider;
    try {
        return provider && spentPeriod(r, provider, budgetPeriods(r, Date.now() / 1000), requests.calls(r, provider))
            ? "budget" : "";
    } catch (e) {
        return "";
    }
}

// A sentence's first word: "the NWS" is "The NWS".
function capitalized(text) {
    return text.charAt(0).toUpperCase() + text.slice(1);
}

function refuse(r, why, seconds, message) {
    r.variables.raind_refused = why;
    r.variables.raind_retry_after = String(seconds);
    return JSON.stringify({ error: message }) + "\n";
}

function round(calls) {
    return Math.round(calls * 100) / 100;
}

// The calls already counted in one period's file: one line per request.
function spent(path) {
    var text;
    try {
        text = fs.readFileSync(path, "utf8");
    } catch (e) {
        if (e.code == "ENOENT") return 0;
        throw e;
    }
    var total = 0;
    var lines = text.split("\n");
    for (var i = 0; i < lines.length; i++) total += parseFloat(lines[i]) || 0;
    return total;
}

// The files of days and months that have passed go (checked when a period's
// file is new, so about once a day).
function sweep(dir, provider, day, month) {
    if (exists(dir + "/spent-" + provider + "-" + day)) return;
    var names = fs.readdirSync(dir);
    var prefix = "spent-" + provider + "-";
    for (var i = 0; i < names.length; i++) {
        var period = names[i].slice(prefix.length);
        if (names[i].indexOf(prefix) == 0 && period != day && period != month) fs.unlinkSync(dir + "/" + names[i]);
    }
}

function exists(path) {
    try {
        fs.accessSync(path);
        return true;
    } catch (e) {
        return false;
    }
}

function nextDay(now) {
    var date = new Date(now * 1000);
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1) / 1000;
}

function nextMonth(now) {
    var date = new Date(now * 1000);
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) / 1000;
}

// One cache entry's back-off file: the provider and its request (already
// written as raind writes it by the front, and without the key).
function cellKey(r) {
    return crypto.createHash("md5").update(r.variables.raind_provider + " " + r.variables.request_uri).digest("hex");
}

// "failures until": how many attempts in a row failed, and until when the
// next one waits.
function readBackoff(path) {
    var text;
    try {
        text = fs.readFileSync(path, "utf8");
    } catch (e) {
        if (e.code == "ENOENT") return null;
        throw e;
    }
    var parts = text.split(" ");
    return { failures: parseInt(parts[0], 10) || 0, until: parseFloat(parts[1]) || 0 };
}

// After a failed attempt, the next one for the same entry waits 1 minute,
// then 2, 4, 8 and at most 15; a success ends the back-off.
function noteAttempt(r, failed) {
    var path = r.variables.raind_state_dir + "/backoff-" + cellKey(r);
    try {
        if (!failed) {
            if (exists(path)) fs.unlinkSync(path);
            return;
        }
        var before = readBackoff(path);
        var failures = (before ? before.failures : 0) + 1;
        var wait = Math.min(60 * Math.pow(2, failures - 1), 900);
        fs.writeFileSync(path, failures + " " + (Date.now() / 1000 + wait));
    } catch (e) {
        r.error("raind-proxy: cannot note the attempt in " + path + ": " + e.message);
    }
}

// The upstream hop's one handler: refused (budget, back-off) or asked, and
// answered with what may go back.
async function upstream(r) {
    var provider = r.variables.raind_provider;
    if (!provider) return r.return(404, JSON.stringify({ error: "This is not a provider's request." }) + "\n");
    var refused = refusal(r);
    if (refused) {
        r.headersOut["Content-Type"] = "application/json";
        r.headersOut["Cache-Control"] = "no-store";
        r.headersOut["Retry-After"] = r.variables.raind_retry_after;
        r.headersOut["X-Raind-Proxy-Refused"] = r.variables.raind_refused;
        return r.return(503, refused);
    }
    var reply;
    try {
        reply = await r.subrequest("/_/" + provider + r.uri, { args: r.variables.args || "", method: "GET" });
    } catch (e) {
        // An answer larger than subrequest_output_buffer_size, or one nginx could not take.
        noteAttempt(r, true);
        r.headersOut["Content-Type"] = "application/json";
        r.headersOut["Cache-Control"] = "no-store";
        return r.return(502, JSON.stringify({ error: capitalized(PROVIDER_NAMES[provider])
            + "'s answer could not be taken (larger than 8 MiB, or broken)." })
            + "\n");
    }
    r.variables.raind_provider_status = String(reply.status);
    answer(r, provider, reply);
}

// The headers of the provider's answer that go on to the front: what a cache
// and raind need, none that names the key (a provider echoing its request),
// none that sends a client elsewhere (Location) or sets anything (Set-Cookie).
// Its Date goes as X-Raind-Provider-Date: the answer's own is the hop's.
// X-Accel-Expires comes first: nginx before 1.23 drops an answer whose past
// Expires it reads before it.
var KEPT_HEADERS = ["X-Accel-Expires", "Content-Type", "Content-Encoding", "Last-Modified", "ETag", "Cache-Control",
    "Expires", "Age"];

// An answer that is not a forecast (an error, a web page such as a captive
// portal's or a login page) is never cached (no-store) and its body is the
// proxy's own text; its status stays, so the front serves its last copy for
// a 5xx or 429. A failure (5xx, 429, no answer) starts or lengthens the
// entry's back-off; a forecast ends it.
function answer(r, provider, reply) {
    var status = reply.status;
    var type = String(reply.headersOut["Content-Type"] || "");
    var key = r.variables.raind_pirateweather_key;
    var body = reply.responseBuffer || Buffer.from("");
    var encoded = !!reply.headersOut["Content-Encoding"];
    // An answer cut short (the provider stopped sending: nginx gave up on
    // it after it had begun) is no answer.
    var length = reply.headersOut["Content-Length"];
    if (status == 200 && length !== undefined && parseInt(length, 10) != body.length) status = 504;
    // MeteoAlarm's feeds are Atom and its documents CAP (XML); everything else raind asks is JSON.
    var expected = provider == "meteoalarm" ? /^(?:application\/(?:atom\+|cap\+)?|text\/)xml\s*(?:;|$)/i
        : /^application\/(?:geo\+)?json\s*(?:;|$)/i;
    var forecast = status == 304 || (status == 200 && expected.test(type));
    // Pirate Weather, the one provider given the key, is asked for an
    // unencoded answer, so that its body can be searched for the key: it
    // must be plain JSON (not gzip sent without its Content-Encoding), and
    // goes on written anew (so a key spelt with \u escapes is spelt out)
    // with every spelling of the key masked (`scrubbed`).
    if (provider == "pirateweather" && encoded) forecast = false;
    if (provider == "pirateweather" && forecast && status == 200) {
        body = plainJSON(body);
        if (body === null) forecast = false;
    }
    // A redirect is not followed (raind's requests have one address) nor passed on: it is a failure.
    if (status >= 300 && status < 400 && status != 304) status = 502;
    if (status >= 500 || status == 429) {
        noteAttempt(r, true);
    } else if (forecast) {
        noteAttempt(r, false);
    }
    if (!forecast) {
        var page = status == 200 && /html/i.test(type);
        r.headersOut["Content-Type"] = page ? "text/html; charset=utf-8" : "application/json";
        r.headersOut["Cache-Control"] = "no-store";
        var retry = String(reply.headersOut["Retry-After"] || "");
        if ((status == 429 || status == 503) && /^[0-9]{1,6}$/.test(retry)) r.headersOut["Retry-After"] = retry;
        return r.return(status, ownText(r, provider, status, page, reply));
    }
    for (var i = 0; i < KEPT_HEADERS.length; i++) {
        var value = reply.headersOut[KEPT_HEADERS[i]];
        if (value !== undefined && !(key && reveals(String(value), key))) r.headersOut[KEPT_HEADERS[i]] = value;
    }
    var date = reply.headersOut["Date"];
    if (date !== undefined) r.headersOut["X-Raind-Provider-Date"] = date;
    if (status == 304) return r.return(304);
    r.return(200, provider == "pirateweather" && key ? scrubbed(body, key) : body);
}

// The body as JSON written anew (strings spelt out, no \u escape of a
// printable character), or null when it is not JSON in UTF-8.
function plainJSON(body) {
    try {
        return JSON.stringify(JSON.parse(body.toString("utf8")));
    } catch (e) {
        return null;
    }
}

// Each way an echoing provider may spell the key back, as a pattern: as it
// is, in hex, percent-encoded and as JSON's \u escapes (in any letter
// case), and in base64 and base64url at each of the three alignments a key
// can have in an encoded string (the characters that come from the key
// alone).
function spellings(key) {
    var bytes = Buffer.from(key);
    var hex = bytes.toString("hex");
    // Letter case is kept by base64 only.
    var anyCase = [key, hex, hex.replace(/(..)/g, "%$1"), hex.replace(/(..)/g, "\\u00$1")];
    var exact = [];
    for (var lead = 0; lead < 3; lead++) {
        var padded = Buffer.concat([Buffer.alloc(lead), bytes]);
        var from = lead ? 4 : 0;
        var to = Math.floor(padded.length / 3) * 4;
        ["base64", "base64url"].forEach(function (encoding) {
            var core = padded.toString(encoding).slice(from, to);
            if (core.length >= 8) exact.push(core);
        });
    }
    function pattern(form, flags) {
        return new RegExp(form.replace(/[.*+?^${}()|[\]\\\/]/g, "\\$&"), flags);
    }
    return anyCase.map(function (form) { return pattern(form, "gi"); })
        .concat(exact.map(function (form) { return pattern(form, "g"); }));
}

// Whether `text` holds the key in any of its spellings.
function reveals(text, key) {
    return spellings(key).some(function (pattern) {
        pattern.lastIndex = 0;
        return pattern.test(text);
    });
}

// `text` with every spelling of the key masked by as many asterisks.
function scrubbed(text, key) {
    var out = String(text);
    spellings(key).forEach(function (pattern) {
        out = out.replace(pattern, function (found) { return "*".repeat(found.length); });
    });
    return out;
}

function ownText(r, provider, status, page, reply) {
    var name = capitalized(PROVIDER_NAMES[provider]);
    if (page) {
        return "<!DOCTYPE html>\n<title>raind-proxy</title>\n<p>" + name + " answered with a web page, not a "
            + "forecast (a captive portal or a login page?). The site proxy does not pass it on.</p>\n";
    }
    var what = status == 504 ? name + " did not answer in time."
        : status == 502 && reply.status != 502 ? name + " answered " + reply.status + ", sending the proxy elsewhere."
        : status == 502 ? name + " could not be reached, or its answer was broken."
        : status == 200 ? name + " answered in an encoding the site proxy cannot search for its key."
        : name + " answered " + status + ".";
    return JSON.stringify({ error: what + " The site proxy passes on no provider's own error text." }) + "\n";
}

export default {
    age, cacheControl, upstream, refusedNow,
    openMeteoQuery: requests.openMeteoQuery, pirateWeatherPath: requests.pirateWeatherPath,
    metnoQuery: requests.metnoQuery, nwsPath: requests.nwsPath, brightSkyQuery: requests.brightSkyQuery,
};

