// What the extension knows of raind, kept from the Subscribe stream: the
// status, the places, the forecasts raind sent and the failures it reported.
// Every value from the wire is checked before it is kept (a wrong type is
// dropped, never shown), so the view below draws only what raind said.

/** A finite number, or null: a missing, non-numeric or non-finite value is unknown. */
export function number(value) {
    return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

// Control characters (C0, DEL, C1) and the invisible formatting characters
// raind itself refuses in names (bidirectional overrides and isolates,
// zero-width characters, BOM): shown as U+FFFD, as raind does.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/**
 * A string for people from the wire, one line, at most `limit` characters,
 * control and invisible characters replaced; '' for a value that is not a
 * string. The widgets set it as plain text, never as markup.
 */
export function text(value, limit = 200) {
    if (typeof value !== 'string')
        return '';
    const line = value.replace(/\r\n|\r|\n|\t/g, ' ').replace(UNSAFE, '\ufffd');
    const characters = Array.from(line);
    return characters.length > limit ? `${characters.slice(0, limit).join('')}…` : line;
}

function object(value) {
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : null;
}

function array(value) {
    return Array.isArray(value) ? value : [];
}

function location(value) {
    const place = object(value);
    if (!place || typeof place.id !== 'string' || !place.id)
        return null;
    return {id: place.id, name: text(place.name) || place.id, country: text(place.country)};
}

function failure(value) {
    const failed = object(value);
    if (!failed)
        return null;
    return {error: text(failed.error), message: text(failed.message, 300), time: number(failed.time)};
}

/**
 * The state the extension draws from. `apply(event)` takes one Subscribe
 * reply's parameters (Snapshot and every event after it); `link` says how
 * the subscription stands (`connecting`, `live`, `down`) and `linkError`
 * why it went down.
 */
export class WeatherModel {
    constructor() {
        this.status = null;
        this.locations = [];
        this.selected = null;
        this.forecasts = new Map();
        this.failures = new Map();
        this.link = 'connecting';
        this.linkError = null;
        this.everLive = false;
        // The last event applied (its name), for the view's tracing.
        this.lastEvent = null;
    }

    setLink(state, error) {
        this.link = state;
        this.linkError = error ?? null;
        if (state === 'live')
            this.everLive = true;
    }

    /** @returns {boolean} whether what is drawn may have changed */
    apply(event) {
        const kind = event.event;
        this.lastEvent = kind;
        switch (kind) {
        case 'Snapshot': {
            this._takeStatus(event.status);
            this.locations = array(event.locations).map(location).filter(place => place);
            this.selected = typeof event.selected === 'string' ? event.selected : null;
            this.failures.clear();
            this.forecasts.clear();
            if (this.selected && object(event.forecast))
                this.forecasts.set(this.selected, event.forecast);
            return true;
        }
        case 'LocationAdded':
        case 'LocationChanged': {
            const place = location(event.location);
            if (!place)
                return false;
            this.locations = this.locations.filter(known => known.id !== place.id).concat([place])
                .sort((a, b) => a.name.localeCompare(b.name));
            return true;
        }
        case 'LocationRemoved': {
            const place = location(event.location);
            if (!place)
                return false;
            this.locations = this.locations.filter(known => known.id !== place.id);
            this.forecasts.delete(place.id);
            return true;
        }
        case 'LocationSelected': {
            const place = location(event.location);
            if (!place)
                return false;
            this.selected = place.id;
            if (!this.locations.some(known => known.id === place.id))
                this.locations.push(place);
            if (object(event.forecast))
                this.forecasts.set(place.id, event.forecast);
            return true;
        }
        case 'WeatherUpdated':
            if (typeof event.id !== 'string' || !object(event.forecast))
                return false;
            this.forecasts.set(event.id, event.forecast);
            this.failures.delete(event.id);
            return event.id === this.selected;
        case 'RefreshFailed': {
            const failed = failure(event.failure);
            if (typeof event.id !== 'string' || !failed)
                return false;
            this.failures.set(event.id, failed);
            return event.id === this.selected;
        }
        case 'AlertsChanged': {
            const forecast = this.forecasts.get(event.id);
            if (!forecast || !Array.isArray(event.alerts))
                return false;
            this.forecasts.set(event.id, Object.assign({}, forecast, {alerts: event.alerts}));
            return event.id === this.selected;
        }
        case 'NowcastChanged': {
            const forecast = this.forecasts.get(event.id);
            if (!forecast)
                return false;
            this.forecasts.set(event.id, Object.assign({}, forecast, {nowcast: object(event.nowcast)}));
            return event.id === this.selected;
        }
        case 'ReachabilityChanged':
            if (typeof event.online !== 'boolean' || !this.status)
                return false;
            this.status = Object.assign({}, this.status, {online: event.online});
            return true;
        case 'SettingsChanged':
            if (object(event.status))
                this._takeStatus(event.status);
            else if (object(event.settings) && this.status)
                this.status = Object.assign({}, this.status, {units: event.settings.units});
            return true;
        default:
            // RefreshStarted, ProviderChanged (its forecast follows), and events of later versions.
            return false;
        }
    }

    _takeStatus(value) {
        const status = object(value);
        if (!status)
            return;
        this.status = {
            units: ['us', 'si', 'ca', 'uk'].includes(status.units) ? status.units : 'si',
            online: status.online !== false,
            staleAfterMinutes: number(status.staleAfterMinutes) ?? 15,
            provider: text(status.provider),
        };
    }

    /** The selected place ({id, name}), or null. */
    get place() {
        return this.locations.find(known => known.id === this.selected) ??
            (this.selected ? {id: this.selected, name: this.selected} : null);
    }

    get forecast() {
        return this.selected ? this.forecasts.get(this.selected) ?? null : null;
    }

    get failure() {
        return this.selected ? this.failures.get(this.selected) ?? null : null;
    }
}
