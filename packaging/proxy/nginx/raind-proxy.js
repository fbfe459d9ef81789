// raind-proxy.js: the Age header for raind-proxy.conf. nginx's cache sends no
// Age of its own, and raind needs it to know how old a cached (or, with the
// provider down, stale) copy is: it reports that age and schedules by it.
//
// Age is the apparent age of RFC 9111 section 4.2.3: now minus the Date the
// provider stamped on the response (kept in the cache with it), or the
// provider's own Age when that is larger (a CDN in front of the provider).

function age(r) {
    var date = Date.parse(r.variables.upstream_http_date || "");
    var apparent = isNaN(date) ? 0 : Math.floor((Date.now() - date) / 1000);
    var upstream = parseInt(r.variables.upstream_http_age || "0", 10);
    return String(Math.max(0, apparent, isNaN(upstream) ? 0 : upstream));
}

export default { age };
