// Drives extensions/gnome's protocol client and view in plain gjs for
// tests/integration/test_gnome_client.py: one JSON command a line on stdin,
// one JSON report a line on stdout. Nothing here stands in for raind: the
// commands go to the real daemon (or to the test's misbehaving socket).
//
//   {"op": "subscribe", "paths": [...], "maxMessageBytes": n, "replyTimeoutMs": n, "backoffMs": [a, b]}
//   {"op": "call", "method": "GetStatus", "parameters": {...}, "paths": [...]}
//   {"op": "present", "locale": "de-DE", "now": 1768466700}
//   {"op": "stop"}   {"op": "quit"}
//
// An ES module (`gjs -m`): it imports the very files both of the extension's
// entry points load (docs/DESKTOP.md, "One source for GNOME 43 and 45").

import Gettext from 'gettext';
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';

import * as Client from '../../extensions/gnome/varlinkClient.js';
import * as weatherModel from '../../extensions/gnome/weatherModel.js';
import {present} from '../../extensions/gnome/weatherView.js';

const {WeatherModel} = weatherModel;

const loop = new GLib.MainLoop(null, false);
const stdout = new Gio.DataOutputStream({base_stream: new Gio.UnixOutputStream({fd: 1, close_fd: false})});
function report(value) {
    stdout.put_string(`${JSON.stringify(value)}\n`, null);
    stdout.flush(null);
}
function errorReport(error) {
    return {kind: error.kind ?? 'Exception', message: error.message, parameters: error.parameters ?? {}};
}

// Every field the view and the model read from what raind sent, by its
// path from the Subscribe reply ("Subscribe.forecast.current.temperature"):
// the test checks each against the IDL.
const reads = new Set();
function recorded(value, path) {
    if (value === null || typeof value !== 'object')
        return value;
    return new Proxy(value, {
        get(target, property, receiver) {
            const found = Reflect.get(target, property, receiver);
            if (typeof property !== 'string')
                return found;
            if (Array.isArray(target)) {
                if (/^\d+$/.test(property))
                    return recorded(found, `${path}[]`);
                return found;
            }
            if (typeof found === 'function' && !Object.prototype.hasOwnProperty.call(target, property))
                return found;
            reads.add(`${path}.${property}`);
            return recorded(found, `${path}.${property}`);
        },
    });
}

const model = new WeatherModel();
let subscription = null;

function run(command) {
    switch (command.op) {
    case 'subscribe':
        subscription = new Client.Subscription({
            paths: command.paths,
            maxMessageBytes: command.maxMessageBytes,
            replyTimeoutMs: command.replyTimeoutMs,
            backoffMs: command.backoffMs,
            onEvent: event => {
                report({kind: 'event', event, attempts: subscription.attempts});
                model.apply(recorded(event, 'Subscribe'));
            },
            onState: (state, error) => {
                model.setLink(state, error);
                report({kind: 'state', state, error: error ? errorReport(error) : null, attempts: subscription.attempts});
            },
        });
        subscription.start();
        break;
    case 'call':
        Client.call(command.method, command.parameters ?? null, {paths: command.paths, timeoutMs: command.timeoutMs})
            .then(parameters => report({kind: 'reply', method: command.method, parameters}),
                error => report({kind: 'error', method: command.method, error: errorReport(error)}));
        break;
    case 'present': {
        if (command.localeDir)
            Gettext.bindtextdomain('raind', command.localeDir);
        const domain = Gettext.domain('raind');
        const view = present(model, {now: command.now ?? Date.now() / 1000, locale: command.locale ?? 'en-GB',
            gettext: domain, wm: weatherModel});
        report({kind: 'view', view, reads: [...reads].sort()});
        break;
    }
    case 'stop':
        subscription?.stop();
        report({kind: 'stopped'});
        break;
    case 'quit':
        subscription?.stop();
        loop.quit();
        break;
    default:
        report({kind: 'error', error: {kind: 'Usage', message: `unknown op ${command.op}`}});
    }
}

const stdin = new Gio.DataInputStream({base_stream: new Gio.UnixInputStream({fd: 0, close_fd: false})});
function readCommand() {
    stdin.read_line_async(GLib.PRIORITY_DEFAULT, null, (stream, result) => {
        const [line] = stream.read_line_finish_utf8(result);
        if (line === null) {
            loop.quit();
            return;
        }
        try {
            run(JSON.parse(line));
        } catch (error) {
            report({kind: 'error', error: {kind: 'Exception', message: `${error}\n${error.stack}`}});
        }
        readCommand();
    });
}
readCommand();
loop.run();
