// What the panel and the menu show, as text, from a WeatherModel: the one
// place the extension's words, numbers and states are decided (the panel
// code only lays them out). It needs no GNOME Shell, so the tests run it in
// plain `gjs -m` against real raind replies.
//
// Words come from raind's own catalogue (text domain raind); msgids shared
// with raindctl keep its translations. Units follow raind's unit system
// (docs/PROTOCOL.md, Conventions), numbers and times the reader's locale.

// raind's condition names (WeatherIcon's vocabulary) → the icon theme's symbolic icons.
export const ICONS = {
    'clear-day': 'weather-clear-symbolic',
    'clear-night': 'weather-clear-night-symbolic',
    'partly-cloudy-day': 'weather-few-clouds-symbolic',
    'partly-cloudy-night': 'weather-few-clouds-night-symbolic',
    'cloudy': 'weather-overcast-symbolic',
    'fog': 'weather-fog-symbolic',
    'rain': 'weather-showers-symbolic',
    'sleet': 'weather-snow-symbolic',
    'snow': 'weather-snow-symbolic',
    'hail': 'weather-snow-symbolic',
    'thunderstorm': 'weather-storm-symbolic',
    'wind': 'weather-windy-symbolic',
};
const UNKNOWN_ICON = 'weather-severe-alert-symbolic';
const SEVERITIES = ['Extreme', 'Severe', 'Moderate', 'Minor', 'Unknown'];

/** The BCP 47 tag of a POSIX locale name (`de_DE.UTF-8` → `de-DE`); `en-GB` for C/POSIX. */
export function localeTag(posix) {
    const base = (posix ?? '').split(/[.@]/)[0];
    if (!base || base === 'C' || base === 'POSIX')
        return 'en-GB';
    return base.replace('_', '-');
}

function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, (whole, name) => name in values ? String(values[name]) : whole);
}

/**
 * @param {WeatherModel} model
 * @param {object} context
 * @param {number} context.now - Unix seconds
 * @param {string} context.locale - BCP 47 tag for numbers and times
 * @param {object} context.gettext - {gettext, ngettext, pgettext} of text domain raind
 * @param {object} context.wm - the weatherModel module (its number() and text())
 * @returns {object} the view: state, label, icon, and the menu's sections
 */
export function present(model, {now, locale, gettext, wm}) {
    const _ = gettext.gettext;
    const {number, text} = wm;
    const status = model.status ?? {units: 'si', online: true, staleAfterMinutes: 15};
    const numbers = digits => new Intl.NumberFormat(locale, {maximumFractionDigits: digits, minimumFractionDigits: 0});
    const temperature = celsius => {
        const value = number(celsius);
        if (value === null)
            return null;
        const shown = status.units === 'us' ? value * 9 / 5 + 32 : value;
        return `${numbers(0).format(Math.round(shown) || 0)}°`;
    };
    const wind = metresPerSecond => {
        const value = number(metresPerSecond);
        if (value === null)
            return null;
        // The symbols as the reader's language writes them (Russian м/с, миль/ч), as raindctl does.
        const [factor, unit] = {
            us: [2.236936, gettext.pgettext('unit', 'mph')], uk: [2.236936, gettext.pgettext('unit', 'mph')],
            ca: [3.6, gettext.pgettext('unit', 'km/h')],
        }[status.units] ?? [1, gettext.pgettext('unit', 'm/s')];
        return `${numbers(0).format(Math.round(value * factor))} ${unit}`;
    };
    // Rain over a day: mm with one decimal (inches with two in the us system), none when dry.
    const accumulation = millimetres => {
        const value = number(millimetres);
        if (value === null || value <= 0)
            return null;
        return status.units === 'us' ? `${numbers(2).format(value / 25.4)} ${gettext.pgettext('unit', 'in')}`
            : `${numbers(1).format(value)} ${gettext.pgettext('unit', 'mm')}`;
    };
    const percent = fraction => {
        const value = number(fraction);
        return value === null ? null : new Intl.NumberFormat(locale, {style: 'percent', maximumFractionDigits: 0})
            .format(Math.min(1, Math.max(0, value)));
    };
    const forecast = model.forecast;
    const zone = forecast && typeof forecast.timeZone === 'string' ? forecast.timeZone : undefined;
    const dateFormat = options => {
        try {
            return new Intl.DateTimeFormat(locale, Object.assign({timeZone: zone}, options));
        } catch (error) {
            // A zone ICU does not know: the reader's own.
            return new Intl.DateTimeFormat(locale, options);
        }
    };
    const clock = dateFormat({hour: 'numeric', minute: '2-digit'});
    const weekday = dateFormat({weekday: 'short'});
    const time = seconds => number(seconds) === null ? null : clock.format(new Date(seconds * 1000));
    const age = seconds => {
        const minutes = Math.floor(Math.max(0, now - seconds) / 60);
        if (minutes < 1)
            return _('just now');
        if (minutes < 60)
            return fill(gettext.ngettext('{count} min ago', '{count} min ago', minutes), {count: minutes});
        const hours = Math.floor(minutes / 60);
        if (hours < 48)
            return fill(gettext.ngettext('{count} h ago', '{count} h ago', hours), {count: hours});
        const days = Math.floor(hours / 24);
        return fill(gettext.ngettext('{count} day ago', '{count} days ago', days), {count: days});
    };

    // "Temperature, humidity from Freiburg, 21 km, 1,254 m lower", as raindctl now says it.
    const valueName = name => {
        switch (name) {
        case 'temperature': return _('temperature');
        case 'humidity': return _('humidity');
        case 'pressure': return _('pressure');
        case 'wind': return _('wind');
        case 'gusts': return _('gusts');
        case 'visibility': return _('visibility');
        case 'cloudCover': return _('cloud cover');
        case 'precipitation': return _('precipitation');
        case 'condition': return _('conditions');
        default: return null;
        }
    };
    const sourceLine = source => {
        if (!source || typeof source !== 'object')
            return null;
        const station = text(source.station, 80);
        if (!station)
            return null;
        const names = (Array.isArray(source.values) ? source.values : []).map(valueName).filter(name => name);
        const parts = [names.length ? fill(_('{values} from {station}'), {values: names.join(', '), station})
            : fill(_('Observed at {station}'), {station})];
        const distance = number(source.distanceMetres);
        if (distance !== null)
            parts.push(fill(_('{distance} km'), {distance: numbers(0).format(Math.round(Math.min(distance / 1000, 1e6)))}));
        const height = number(source.heightDifferenceMetres);
        if (height !== null) {
            const metres = numbers(0).format(Math.round(Math.min(Math.abs(height), 1e6)));
            parts.push(fill(height < 0 ? _('{metres} m lower') : _('{metres} m higher'), {metres}));
        }
        const line = parts.join(', ');
        return line.charAt(0).toLocaleUpperCase(locale) + line.slice(1);
    };

    const place = model.place;
    const current = forecast && typeof forecast.current === 'object' ? forecast.current : null;
    const fetchedAt = forecast ? number(forecast.fetchedAt) : null;
    const stale = fetchedAt !== null && now - fetchedAt > status.staleAfterMinutes * 60;
    const shownTemperature = current ? temperature(current.temperature) : null;
    const failure = model.failure;

    // The panel: the place and its temperature, with what holds them back.
    let state, marker = '';
    if (model.link === 'down' && model.linkError?.kind === 'NotRunning') {
        state = 'not-running';
        marker = _('(raind not running)');
    } else if (model.link === 'down' && model.everLive === false && model.linkError) {
        state = 'error';
        marker = _('(raind error)');
    } else if (model.link === 'down' && model.linkError && model.linkError.kind !== 'Closed') {
        state = 'error';
        marker = _('(raind error)');
    } else if (!status.online) {
        state = 'offline';
        marker = _('(offline)');
    } else if (stale) {
        state = 'stale';
        marker = _('(stale)');
    } else if (failure && (fetchedAt === null || (failure.time ?? now) >= fetchedAt)) {
        state = 'stale';
        marker = _('(refresh failed)');
    } else {
        state = 'ok';
    }
    let label;
    if (!place && model.link !== 'live' && state === 'not-running')
        label = _('raind not running');
    else if (!place && state === 'error')
        label = _('raind error');
    else if (!place && model.link === 'live')
        label = _('No place saved');
    else if (!place)
        label = '…';
    else if (shownTemperature === null)
        label = `${place.name} –`;
    else
        label = `${place.name} ${shownTemperature}`;
    if (marker && (place || state === 'offline'))
        label = `${label} ${marker}`;
    const icon = current ? ICONS[current.icon] ?? UNKNOWN_ICON
        : state === 'not-running' || state === 'error' ? 'network-offline-symbolic' : UNKNOWN_ICON;

    // The menu.
    const lines = {problem: [], alerts: [], current: [], hours: [], days: [], air: [], sky: [], nowcast: null, credit: null,
        provider: null, updated: null};
    if (state === 'not-running')
        lines.problem.push(_('raind is not running: start it with “systemctl --user start raind”'));
    else if (state === 'error' && model.linkError)
        lines.problem.push(fill(_('raind could not be read: {reason}'), {reason: text(model.linkError.message, 300)}));
    if (failure)
        lines.problem.push(fill(_('Last refresh failed: {reason}'), {reason: failure.message}));
    if (forecast) {
        const alerts = Array.isArray(forecast.alerts) ? forecast.alerts.filter(alert => alert && typeof alert === 'object') : [];
        const ranked = alerts.map(alert => ({
            severity: SEVERITIES.includes(alert.severity) ? alert.severity : 'Unknown',
            title: text(alert.title) || _('Alert'),
            onset: number(alert.onset) ?? number(alert.start),
            end: number(alert.end),
        })).sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity));
        for (const alert of ranked) {
            const upcoming = alert.onset !== null && alert.onset > now;
            const when = upcoming ? fill(_('from {start}'), {start: `${weekday.format(new Date(alert.onset * 1000))} ${time(alert.onset)}`})
                : alert.end !== null ? fill(_('until {end}'), {end: `${weekday.format(new Date(alert.end * 1000))} ${time(alert.end)}`}) : '';
            lines.alerts.push({severity: alert.severity.toLowerCase(),
                text: `${_(alert.severity)}: ${alert.title}${when ? ` (${when})` : ''}`});
        }
        if (current) {
            const summary = text(current.summary);
            lines.current.push([shownTemperature ?? '–', summary ? _(summary) : ''].filter(part => part).join('  '));
            const details = [];
            const feels = temperature(current.apparentTemperature);
            if (feels !== null)
                details.push(`${_('Feels like')} ${feels}`);
            const windText = wind(current.windSpeed);
            if (windText !== null)
                details.push(`${_('Wind')} ${windText}`);
            const humidity = percent(current.humidity);
            if (humidity !== null)
                details.push(`${_('Humidity')} ${humidity}`);
            const rain = percent(current.precipProbability);
            if (rain !== null)
                details.push(`${gettext.pgettext('column', 'Rain')} ${rain}`);
            if (details.length)
                lines.current.push(details.join(' · '));
            // Values a provider took from another station than the place's own: which, from where.
            for (const source of (Array.isArray(current.sources) ? current.sources : []).slice(0, 4)) {
                const line = sourceLine(source);
                if (line)
                    lines.current.push(line);
            }
        }
        for (const hour of (Array.isArray(forecast.hourly) ? forecast.hourly : [])
            .filter(item => item && number(item.time) !== null && item.time + 3600 > now).slice(0, 6)) {
            const rain = percent(hour.precipProbability);
            lines.hours.push({time: time(hour.time), icon: ICONS[hour.icon] ?? UNKNOWN_ICON,
                text: temperature(hour.temperature) ?? '–', rain: rain ?? ''});
        }
        for (const day of (Array.isArray(forecast.daily) ? forecast.daily : [])
            .filter(item => item && number(item.time) !== null && item.time + 86400 > now).slice(0, 5)) {
            const rain = percent(day.precipProbability);
            lines.days.push({time: weekday.format(new Date((day.time + 43200) * 1000)), icon: ICONS[day.icon] ?? UNKNOWN_ICON,
                text: `${temperature(day.temperatureMin) ?? '–'} / ${temperature(day.temperatureMax) ?? '–'}`,
                rain: [rain, accumulation(day.precipAccumulation)].filter(part => part).join(' · ')});
        }
        const air = forecast.air && typeof forecast.air === 'object' ? forecast.air : null;
        if (air) {
            const aqi = number(air.aqi);
            if (aqi !== null) {
                const index = air.index === 'us' ? _('US AQI') : _('European AQI');
                const category = AIR_CATEGORIES[air.category];
                lines.air.push(category
                    ? `${_('Air')}: ${fill(_('{category} ({index} {aqi})'), {category: gettext.pgettext('air quality', category), index, aqi})}`
                    : `${_('Air')}: ${index} ${aqi}`);
            }
            const uv = number(air.uvIndex);
            if (uv !== null) {
                const uvCategory = UV_CATEGORIES[air.uvCategory];
                lines.air.push(`${_('UV index')}: ${uvCategory
                    ? fill(_('{uv}, {uvcategory}'), {uv: numbers(0).format(uv), uvcategory: _(uvCategory)}) : numbers(0).format(uv)}`);
            }
        } else if (current && number(current.uvIndex) !== null) {
            lines.air.push(`${_('UV index')}: ${numbers(0).format(current.uvIndex)}`);
        }
        const today = (Array.isArray(forecast.daily) ? forecast.daily : []).find(day => day && number(day.time) !== null &&
            day.time <= now && now < day.time + 86400);
        if (today) {
            if (today.polar === 'day')
                lines.sky.push(_('The sun stays up all day'));
            else if (today.polar === 'night')
                lines.sky.push(_('The sun stays down all day'));
            else if (number(today.sunrise) !== null || number(today.sunset) !== null)
                lines.sky.push(fill(_('Sunrise {sunrise} · Sunset {sunset}'), {sunrise: time(today.sunrise) ?? '–', sunset: time(today.sunset) ?? '–'}));
        }
        lines.sky.push(`${_('Moon')}: ${moonPhase(now, _, locale)}`);
        const nowcast = forecast.nowcast && typeof forecast.nowcast === 'object' ? text(forecast.nowcast.summary) : '';
        if (nowcast)
            lines.nowcast = _(nowcast);
        const provider = text(forecast.provider);
        const failover = forecast.failover && typeof forecast.failover === 'object' ? forecast.failover : null;
        if (failover && provider)
            lines.provider = fill(_('from {provider} ({other}: {reason})'), {provider, other: text(failover.provider), reason: text(failover.reason)});
        else if (provider)
            lines.provider = fill(_('from {provider}'), {provider});
        // The provider's credit, in the reader's language where the catalogue has it.
        const credit = forecast.attribution && typeof forecast.attribution === 'object' ? text(forecast.attribution.text) : '';
        if (credit)
            lines.credit = _(credit);
        if (fetchedAt !== null)
            lines.updated = `${fill(_('Updated {age}'), {age: age(fetchedAt)})}${stale ? ` ${_('(stale)')}` : ''}`;
    } else if (place && model.link === 'live' && !failure) {
        lines.problem.push(_('No weather yet: raind is fetching it'));
    }
    const places = model.locations.map(known => ({id: known.id, name: known.name, selected: known.id === model.selected}));
    return {state, label, icon, title: place ? place.name : _('Weather'), lines, places};
}

const AIR_CATEGORIES = {
    good: 'Good', fair: 'Fair', moderate: 'Moderate', poor: 'Poor', veryPoor: 'Very poor',
    extremelyPoor: 'Extremely poor', unhealthyForSensitiveGroups: 'Unhealthy for sensitive groups',
    unhealthy: 'Unhealthy', veryUnhealthy: 'Very unhealthy', hazardous: 'Hazardous',
};
const UV_CATEGORIES = {low: 'low', moderate: 'moderate', high: 'high', veryHigh: 'very high', extreme: 'extreme'};

// The moon's phase from the mean synodic month since a known new moon
// (2000-01-06 18:14 UTC): within about a day of raindctl's exact phases,
// enough for a name and the lit fraction.
function moonPhase(now, _, locale) {
    const synodic = 29.530588861 * 86400;
    const fraction = (((now - 947182440) % synodic) + synodic) % synodic / synodic;
    const names = ['New moon', 'Waxing crescent', 'First quarter', 'Waxing gibbous', 'Full moon',
        'Waning gibbous', 'Last quarter', 'Waning crescent'];
    const name = names[Math.round(fraction * 8) % 8];
    const lit = (1 - Math.cos(2 * Math.PI * fraction)) / 2;
    return `${_(name)}, ${new Intl.NumberFormat(locale, {style: 'percent', maximumFractionDigits: 0}).format(lit)}`;
}
