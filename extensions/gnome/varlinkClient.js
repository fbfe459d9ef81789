// raind's Varlink protocol for GJS: framing, calls, the subscription and its
// reconnection, in one file (docs/PROTOCOL.md; the contract is
// protocol/io.raind.Weather.varlink). It uses only Gio and GLib, so GNOME
// Shell's extension and plain `gjs -m` (the tests) load the same file. An ES
// module, as every file of the extension but GNOME 43/44's entry point
// (docs/DESKTOP.md, "One source for GNOME 43 and 45").
//
// Everything runs on the GLib main loop of the caller: no threads, no
// blocking call. A message is one JSON object followed by a NUL byte.

import Gio from 'gi://Gio';
import GLib from 'gi://GLib';

export const INTERFACE = 'io.raind.Weather';

// The largest reply this client reads (bytes before the NUL). raind's
// biggest replies (a Snapshot with many places, alerts and air) are a few
// hundred KiB; a peer sending more without a NUL is not raind.
const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
// How long a call, or a subscription's first reply, may take.
const DEFAULT_REPLY_TIMEOUT_MS = 10000;
// Reconnection: the first retry, doubled after each failure up to the last.
const DEFAULT_BACKOFF_MS = [500, 15000];
// From raind's socket appearing to the connection tried.
const SOCKET_APPEARED_DELAY_MS = 100;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', {fatal: true});

/** An error of the protocol (a Varlink error reply) or of the transport. */
export class RaindError extends Error {
    /**
     * @param {string} kind - the Varlink error's name without the interface
     *   (`SubscriberTooSlow`), or one of this client's: `NotRunning`,
     *   `Unreadable`, `TooLarge`, `Timeout`, `Closed`.
     * @param {string} message - for people
     * @param {object} parameters - the error's parameters
     */
    constructor(kind, message, parameters = {}) {
        super(message);
        this.name = 'RaindError';
        this.kind = kind;
        this.parameters = parameters;
    }
}

/**
 * The sockets to try, in order, as raindctl does: `$RAIND_SOCKET` alone when
 * set, else the user instance's (`$XDG_RUNTIME_DIR/raind/raind.sock`), then
 * the system one.
 *
 * @param {function(string): ?string} getenv - the environment
 * @param {number} uid - the user's id, for `/run/user/UID`
 * @returns {string[]}
 */
export function socketCandidates(getenv = GLib.getenv, uid = undefined) {
    const explicit = getenv('RAIND_SOCKET');
    if (explicit)
        return [explicit];
    let runtime = getenv('XDG_RUNTIME_DIR');
    if (!runtime || !runtime.startsWith('/'))
        runtime = `/run/user/${uid ?? new Gio.Credentials().get_unix_user()}`;
    return [`${runtime}/raind/raind.sock`, '/run/raind/raind.sock'];
}

/**
 * One connection to raind: sends calls, hands every reply to `onReply` in
 * order, and reports its end once through `onClose(error or null)`.
 */
export class Connection {
    /**
     * @param {object} options
     * @param {number} [options.maxMessageBytes]
     */
    constructor({maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES} = {}) {
        this._maxMessageBytes = maxMessageBytes;
        this._pieces = [];
        this._pending = 0;
        this._cancellable = new Gio.Cancellable();
        this._connection = null;
        this._closed = false;
        this._writing = [];
        this.onReply = () => {};
        this.onClose = () => {};
    }

    /**
     * Connects to the first of `paths` that answers.
     *
     * @param {string[]} paths
     * @returns {Promise<string>} the path connected to
     */
    connect(paths) {
        const client = new Gio.SocketClient();
        const failures = [];
        const attempt = index => new Promise((resolve, reject) => {
            if (index >= paths.length) {
                reject(new RaindError('NotRunning',
                    `raind is not running (${failures.join('; ')})`, {paths}));
                return;
            }
            client.connect_async(Gio.UnixSocketAddress.new(paths[index]), this._cancellable, (source, result) => {
                try {
                    this._connection = source.connect_finish(result);
                    resolve(paths[index]);
                } catch (error) {
                    if (error.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED)) {
                        reject(new RaindError('Closed', 'the connection was closed'));
                        return;
                    }
                    failures.push(`${paths[index]}: ${error.message}`);
                    attempt(index + 1).then(resolve, reject);
                }
            });
        });
        return attempt(0).then(path => {
            this._read();
            return path;
        });
    }

    /**
     * Sends one call.
     *
     * @param {string} method - unqualified (`GetStatus`) or qualified
     * @param {?object} parameters
     * @param {object} [flags] - `{more: true}` for a stream
     */
    send(method, parameters = null, flags = {}) {
        const message = {method: method.includes('.') ? method : `${INTERFACE}.${method}`};
        if (parameters !== null)
            message.parameters = parameters;
        if (flags.more)
            message.more = true;
        // TextEncoder keeps the trailing NUL (ByteArray.fromString would drop it).
        this._write(encoder.encode(`${JSON.stringify(message)}\0`));
    }

    close(error = null) {
        if (this._closed)
            return;
        this._closed = true;
        this._cancellable.cancel();
        if (this._connection) {
            try {
                this._connection.close(null);
            } catch (closeError) {
                // Already closed by the peer: nothing more to release.
            }
        }
        this.onClose(error);
    }

    _write(bytes) {
        this._writing.push(bytes);
        if (this._writing.length === 1)
            this._writeNext();
    }

    _writeNext() {
        if (this._closed || this._writing.length === 0)
            return;
        const bytes = this._writing[0];
        this._connection.get_output_stream().write_bytes_async(new GLib.Bytes(bytes),
            GLib.PRIORITY_DEFAULT, this._cancellable, (stream, result) => {
                let written;
                try {
                    written = stream.write_bytes_finish(result);
                } catch (error) {
                    this.close(this._closed ? null : new RaindError('Closed', `raind closed the connection (${error.message})`));
                    return;
                }
                if (written < bytes.length)
                    this._writing[0] = bytes.subarray(written);
                else
                    this._writing.shift();
                this._writeNext();
            });
    }

    _read() {
        this._connection.get_input_stream().read_bytes_async(65536, GLib.PRIORITY_DEFAULT, this._cancellable,
            (stream, result) => {
                let chunk;
                try {
                    chunk = stream.read_bytes_finish(result).toArray();
                } catch (error) {
                    if (!this._closed)
                        this.close(new RaindError('Closed', `the connection to raind failed (${error.message})`));
                    return;
                }
                if (chunk.length === 0) {
                    this.close(new RaindError('Closed', 'raind closed the connection'));
                    return;
                }
                if (this._take(chunk))
                    this._read();
            });
    }

    // Splits what was read at NULs and hands each message on; false when the
    // connection was closed on the way. Pieces of a message wait in a list
    // and are joined once its NUL arrives, so a long message is copied once.
    _take(chunk) {
        let start = 0;
        for (let end = chunk.indexOf(0); end !== -1; end = chunk.indexOf(0, start)) {
            const message = this._parse(this._join(chunk.subarray(start, end)));
            if (message === null)
                return false;
            start = end + 1;
            this.onReply(message);
            if (this._closed)
                return false;
        }
        if (start < chunk.length) {
            this._pieces.push(chunk.subarray(start));
            this._pending += chunk.length - start;
        }
        if (this._pending > this._maxMessageBytes) {
            this.close(new RaindError('TooLarge',
                `raind's reply exceeds ${this._maxMessageBytes} bytes; the connection was closed`));
            return false;
        }
        return true;
    }

    _join(last) {
        if (this._pieces.length === 0)
            return last;
        const joined = new Uint8Array(this._pending + last.length);
        let offset = 0;
        for (const piece of this._pieces) {
            joined.set(piece, offset);
            offset += piece.length;
        }
        joined.set(last, offset);
        this._pieces = [];
        this._pending = 0;
        return joined;
    }

    _parse(bytes) {
        if (bytes.length > this._maxMessageBytes) {
            this.close(new RaindError('TooLarge',
                `raind's reply exceeds ${this._maxMessageBytes} bytes; the connection was closed`));
            return null;
        }
        let message;
        try {
            message = JSON.parse(decoder.decode(bytes));
        } catch (error) {
            this.close(new RaindError('Unreadable', `raind sent something that is not a Varlink message (${error.message})`));
            return null;
        }
        const valid = message !== null && typeof message === 'object' && !Array.isArray(message) &&
            (message.parameters === undefined || (typeof message.parameters === 'object' &&
                message.parameters !== null && !Array.isArray(message.parameters))) &&
            (message.error === undefined || typeof message.error === 'string');
        if (!valid) {
            this.close(new RaindError('Unreadable', 'raind sent a reply that is not a Varlink message object'));
            return null;
        }
        return message;
    }
}

// The RaindError for a Varlink error reply.
function replyError(reply) {
    const name = reply.error;
    const kind = name.startsWith(`${INTERFACE}.`) ? name.slice(INTERFACE.length + 1) : name;
    const parameters = reply.parameters ?? {};
    const message = typeof parameters.message === 'string' ? parameters.message
        : [name, parameters.parameter, parameters.reason].filter(part => typeof part === 'string').join(': ');
    return new RaindError(kind, message, parameters);
}

/**
 * Calls one method on a connection of its own and resolves with the reply's
 * parameters; rejects with a RaindError (the reply's error, or the transport's).
 *
 * @param {string} method - `GetStatus`, `GetForecast`, `SelectLocation`, `Refresh`, …
 * @param {?object} parameters
 * @param {object} [options]
 * @param {string[]} [options.paths] - the sockets to try (socketCandidates())
 * @param {number} [options.timeoutMs]
 * @param {number} [options.maxMessageBytes]
 * @returns {Promise<object>}
 */
export function call(method, parameters = null, {paths = socketCandidates(), timeoutMs = DEFAULT_REPLY_TIMEOUT_MS,
    maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES} = {}) {
    return new Promise((resolve, reject) => {
        const connection = new Connection({maxMessageBytes});
        let settled = false;
        const timeout = GLib.timeout_add(GLib.PRIORITY_DEFAULT, timeoutMs, () => {
            connection.close(new RaindError('Timeout', `raind did not answer ${method} within ${timeoutMs / 1000} s`));
            return GLib.SOURCE_REMOVE;
        });
        const settle = (error, value) => {
            if (settled)
                return;
            settled = true;
            GLib.source_remove(timeout);
            if (error)
                reject(error);
            else
                resolve(value);
        };
        connection.onReply = reply => {
            if (reply.error !== undefined)
                settle(replyError(reply));
            else
                settle(null, reply.parameters ?? {});
            connection.close();
        };
        connection.onClose = error => settle(error ?? new RaindError('Closed', 'raind closed the connection'));
        connection.connect(paths).then(() => connection.send(method, parameters), error => settle(error));
    });
}

/**
 * The subscription: `Subscribe` with `more` on a connection of its own,
 * kept up for as long as it is started. Each reply goes to `onEvent(reply
 * parameters)`; the state of the link to `onState(state, error)`:
 * `connecting`, `live` (after the snapshot), `down` (with the RaindError
 * that ended it: `NotRunning` when no socket answered). After a failure it
 * reconnects with exponential back-off, and at once when a socket appears
 * in a watched directory (raind started again) or a stream was dropped as
 * too slow (the new snapshot brings the client up to date).
 */
export class Subscription {
    constructor({paths = null, events = null, maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES,
        replyTimeoutMs = DEFAULT_REPLY_TIMEOUT_MS, backoffMs = DEFAULT_BACKOFF_MS,
        onEvent = () => {}, onState = () => {}} = {}) {
        this._paths = paths ?? socketCandidates();
        this._events = events;
        this._maxMessageBytes = maxMessageBytes;
        this._replyTimeoutMs = replyTimeoutMs;
        this._backoffMs = backoffMs;
        this._delayMs = backoffMs[0];
        this.onEvent = onEvent;
        this.onState = onState;
        this._connection = null;
        this._retry = 0;
        this._firstReplyTimeout = 0;
        this._monitors = [];
        this._running = false;
        /** How many connections were made: the tests count reconnections. */
        this.attempts = 0;
    }

    start() {
        if (this._running)
            return;
        this._running = true;
        this._watchSocketDirectories();
        this._connect();
    }

    stop() {
        this._running = false;
        this._clearTimers();
        for (const monitor of this._monitors)
            monitor.cancel();
        this._monitors = [];
        if (this._connection) {
            const connection = this._connection;
            this._connection = null;
            connection.onClose = () => {};
            connection.close();
        }
    }

    _clearTimers() {
        if (this._retry)
            GLib.source_remove(this._retry);
        if (this._firstReplyTimeout)
            GLib.source_remove(this._firstReplyTimeout);
        this._retry = 0;
        this._firstReplyTimeout = 0;
    }

    _connect() {
        this._clearTimers();
        this.attempts++;
        this.onState('connecting', null);
        const connection = new Connection({maxMessageBytes: this._maxMessageBytes});
        this._connection = connection;
        let live = false;
        connection.onReply = reply => {
            if (reply.error !== undefined) {
                connection.close(replyError(reply));
                return;
            }
            const parameters = reply.parameters ?? {};
            if (typeof parameters.event !== 'string') {
                connection.close(new RaindError('Unreadable', 'raind sent a Subscribe reply without an event name'));
                return;
            }
            if (!live) {
                if (parameters.event !== 'Snapshot') {
                    connection.close(new RaindError('Unreadable', `raind's first Subscribe reply was ${parameters.event}, not Snapshot`));
                    return;
                }
                live = true;
                if (this._firstReplyTimeout)
                    GLib.source_remove(this._firstReplyTimeout);
                this._firstReplyTimeout = 0;
                this._delayMs = this._backoffMs[0];
                this.onState('live', null);
            }
            this.onEvent(parameters);
            if (reply.continues !== true && this._connection === connection)
                connection.close(new RaindError('Closed', 'raind ended the subscription'));
        };
        connection.onClose = error => {
            if (this._connection !== connection)
                return;
            this._connection = null;
            if (this._firstReplyTimeout)
                GLib.source_remove(this._firstReplyTimeout);
            this._firstReplyTimeout = 0;
            const reason = error ?? new RaindError('Closed', 'raind closed the connection');
            this.onState('down', reason);
            if (this._running)
                this._scheduleRetry(reason.kind === 'SubscriberTooSlow' ? 0 : this._delayMs);
        };
        connection.connect(this._paths).then(() => {
            if (this._connection !== connection)
                return;
            const parameters = this._events ? {events: this._events} : null;
            connection.send('Subscribe', parameters, {more: true});
            this._firstReplyTimeout = GLib.timeout_add(GLib.PRIORITY_DEFAULT, this._replyTimeoutMs, () => {
                this._firstReplyTimeout = 0;
                connection.close(new RaindError('Timeout',
                    `raind accepted the connection but sent no snapshot within ${this._replyTimeoutMs / 1000} s`));
                return GLib.SOURCE_REMOVE;
            });
        }, error => connection.close(error));
    }

    _scheduleRetry(delayMs, grow = true) {
        if (this._retry)
            GLib.source_remove(this._retry);
        if (grow)
            this._delayMs = Math.min(this._backoffMs[1], Math.max(this._backoffMs[0], this._delayMs * 2));
        this._retry = GLib.timeout_add(GLib.PRIORITY_DEFAULT, delayMs, () => {
            this._retry = 0;
            this._connect();
            return GLib.SOURCE_REMOVE;
        });
    }

    // raind coming back creates its socket: reconnect then, not at the end of
    // a long back-off. Directories that do not exist yet are not watched;
    // the back-off covers them.
    _watchSocketDirectories() {
        for (const path of this._paths) {
            const socket = Gio.File.new_for_path(path);
            const parent = socket.get_parent();
            if (!parent || !parent.query_exists(null))
                continue;
            let monitor;
            try {
                monitor = parent.monitor_directory(Gio.FileMonitorFlags.NONE, null);
            } catch (error) {
                continue;
            }
            monitor.connect('changed', (_monitor, file, _other, eventType) => {
                if (eventType !== Gio.FileMonitorEvent.CREATED || !file.equal(socket))
                    return;
                // A moment after the socket appears: raind binds it before it listens.
                if (this._running && this._connection === null && this._retry)
                    this._scheduleRetry(SOCKET_APPEARED_DELAY_MS, false);
            });
            this._monitors.push(monitor);
        }
    }
}
