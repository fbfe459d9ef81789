// The panel button and its menu. It lays out what weatherView.present()
// says and sends the menu's actions to raind; it decides no word or number
// itself. GNOME Shell's own modules come in through `shell` ({Main,
// PanelMenu, PopupMenu}) rather than from GNOME Shell's own paths, which
// differ between the extension APIs: GNOME 43/44's entry point (extension.js)
// and GNOME 45's (gnome45/extension.js) each hand them in (docs/DESKTOP.md,
// "One source for GNOME 43 and 45").

import Clutter from 'gi://Clutter';
import GLib from 'gi://GLib';
import GObject from 'gi://GObject';
import Gio from 'gi://Gio';
import St from 'gi://St';

// The view is presented again this often so that ages and staleness stay
// true while raind has nothing to say; it reads only the model, never raind.
const CLOCK_SECONDS = 30;

// The button's class. GObject keeps a registered type, and GJS a loaded
// module, as long as GNOME Shell runs, and a type cannot be registered twice:
// the class is made at the first enable and made use of again after a disable
// (GNOME Shell disables extensions while the screen is locked). What an entry
// point hands in is the same at every enable.
let Indicator = null;

/**
 * @param {object} modules - {Client, Model, View}: varlinkClient, weatherModel, weatherView
 * @param {object} shell - {Main, PanelMenu, PopupMenu}
 * @param {object} gettext - {gettext, ngettext, pgettext} of text domain raind
 * @returns {PanelMenu.Button} the indicator, to add to the panel
 */
export function createIndicator(modules, shell, gettext) {
    Indicator ??= indicatorClass(modules, shell, gettext);
    return new Indicator();
}

function indicatorClass(modules, shell, gettext) {
    const {Client, Model, View} = modules;
    const {PanelMenu, PopupMenu} = shell;
    const _ = gettext.gettext;

    return GObject.registerClass(
    class RaindIndicator extends PanelMenu.Button {
        _init() {
            super._init(0.5, 'raind', false);
            this.add_style_class_name('raind-indicator');
            this.menu.actor.add_style_class_name('raind-menu');
            const box = new St.BoxLayout({style_class: 'panel-status-menu-box'});
            this._icon = new St.Icon({icon_name: 'weather-overcast-symbolic', style_class: 'system-status-icon'});
            this._label = new St.Label({text: '…', y_align: Clutter.ActorAlign.CENTER});
            box.add_child(this._icon);
            box.add_child(this._label);
            this.add_child(box);

            this._menuDirty = true;
            this.menu.connect('open-state-changed', (_menu, open) => {
                if (open && this._menuDirty && this.view)
                    this._fillMenu(this.view);
            });
            this._model = new Model.WeatherModel();
            this._actionProblem = null;
            this._locale = View.localeTag(GLib.getenv('LC_ALL') || GLib.getenv('LC_TIME') || GLib.getenv('LANG'));
            this._paths = Client.socketCandidates();
            /** The last redraw, for the tests and the measurements: the event, when its reply was read and when drawn (µs, monotonic). */
            this.lastDraw = null;
            this.view = null;

            this._subscription = new Client.Subscription({
                paths: this._paths,
                onEvent: event => {
                    const received = GLib.get_monotonic_time();
                    if (this._model.apply(event))
                        this._redraw(event.event, received);
                },
                onState: (state, error) => {
                    this._model.setLink(state, error);
                    this._redraw(`link:${state}`, GLib.get_monotonic_time());
                },
            });
            this._clock = GLib.timeout_add_seconds(GLib.PRIORITY_DEFAULT, CLOCK_SECONDS, () => {
                this._redraw('clock', GLib.get_monotonic_time());
                return GLib.SOURCE_CONTINUE;
            });
            this._redraw('start', GLib.get_monotonic_time());
            this._subscription.start();
        }

        _redraw(cause, received) {
            let view;
            try {
                view = View.present(this._model, {now: Date.now() / 1000, locale: this._locale, gettext, wm: Model});
            } catch (error) {
                // A view that cannot be drawn from what raind sent is an error state, never an exception in the shell.
                logError(error, 'raind: the weather could not be drawn');
                view = {state: 'error', label: _('raind error'), icon: 'network-offline-symbolic', title: _('Weather'),
                    lines: {problem: [String(error.message ?? error)], alerts: [], current: [], hours: [], days: [],
                        air: [], sky: [], nowcast: null, provider: null, credit: null, updated: null}, places: []};
            }
            this.view = view;
            this._label.text = view.label;
            this._icon.icon_name = view.icon;
            for (const state of ['ok', 'stale', 'offline', 'not-running', 'error'])
                this.remove_style_class_name(`raind-${state}`);
            this.add_style_class_name(`raind-${view.state}`);
            const labelled = GLib.get_monotonic_time();
            // The menu is built when it is open or opens: a closed menu costs
            // nothing per event. (An empty one would not open: it is filled once.)
            if (this.menu.isOpen || this.menu.isEmpty())
                this._fillMenu(view);
            else
                this._menuDirty = true;
            this.lastDraw = {cause, received, labelled, drawn: GLib.get_monotonic_time(), label: view.label, state: view.state};
        }

        _fillMenu(view) {
            this._menuDirty = false;
            const menu = this.menu;
            menu.removeAll();
            const lines = view.lines;
            const note = (text, style) => {
                const item = new PopupMenu.PopupMenuItem(text, {reactive: false, can_focus: false});
                item.label.clutter_text.line_wrap = true;
                if (style)
                    item.add_style_class_name(style);
                menu.addMenuItem(item);
                return item;
            };
            for (const problem of lines.problem.concat(this._actionProblem ? [this._actionProblem] : []))
                note(problem, 'raind-problem');
            for (const alert of lines.alerts)
                note(alert.text, `raind-alert-${alert.severity}`);
            if (lines.current.length) {
                const header = new PopupMenu.PopupBaseMenuItem({reactive: false, can_focus: false});
                header.add_child(new St.Icon({icon_name: view.icon, icon_size: 32}));
                const column = new St.BoxLayout({vertical: true});
                column.add_child(new St.Label({text: view.title, style_class: 'raind-title'}));
                for (const line of lines.current)
                    column.add_child(new St.Label({text: line}));
                header.add_child(column);
                menu.addMenuItem(header);
            }
            for (const [title, row] of [[_('Next hours'), lines.hours], [_('Next days'), lines.days]]) {
                if (!row.length)
                    continue;
                const item = new PopupMenu.PopupBaseMenuItem({reactive: false, can_focus: false});
                const strip = new St.BoxLayout({style_class: 'raind-strip', accessible_name: title});
                for (const cell of row) {
                    const column = new St.BoxLayout({vertical: true, style_class: 'raind-cell'});
                    column.add_child(new St.Label({text: cell.time, x_align: Clutter.ActorAlign.CENTER}));
                    column.add_child(new St.Icon({icon_name: cell.icon, icon_size: 16, x_align: Clutter.ActorAlign.CENTER}));
                    column.add_child(new St.Label({text: cell.text, x_align: Clutter.ActorAlign.CENTER}));
                    if (cell.rain)
                        column.add_child(new St.Label({text: cell.rain, x_align: Clutter.ActorAlign.CENTER, style_class: 'raind-rain'}));
                    strip.add_child(column);
                }
                item.add_child(strip);
                menu.addMenuItem(item);
            }
            for (const line of lines.air.concat(lines.nowcast ? [lines.nowcast] : [], lines.sky))
                note(line);
            const credits = [lines.provider, lines.updated].filter(line => line);
            if (credits.length)
                note(credits.join(' · '), 'raind-credit');
            if (lines.credit)
                note(lines.credit, 'raind-credit');

            menu.addMenuItem(new PopupMenu.PopupSeparatorMenuItem());
            if (view.places.length > 1) {
                const places = new PopupMenu.PopupSubMenuMenuItem(_('Places'));
                for (const place of view.places) {
                    const item = new PopupMenu.PopupMenuItem(place.name);
                    item.setOrnament(place.selected ? PopupMenu.Ornament.DOT : PopupMenu.Ornament.NONE);
                    item.connect('activate', () => this._act(Client.call('SelectLocation', {id: place.id}, {paths: this._paths})));
                    places.menu.addMenuItem(item);
                }
                menu.addMenuItem(places);
            }
            const refresh = new PopupMenu.PopupMenuItem(_('Refresh'));
            refresh.connect('activate', () => this._act(Client.call('Refresh', null, {paths: this._paths, timeoutMs: 60000})));
            menu.addMenuItem(refresh);
            const terminal = new PopupMenu.PopupMenuItem(_('Open in terminal'));
            terminal.connect('activate', () => this._openTerminal());
            menu.addMenuItem(terminal);
        }

        // A change asked of raind; what it changes comes back as events. A refusal
        // (PermissionDenied on the system instance, say) is shown in the menu.
        _act(promise) {
            this._actionProblem = null;
            promise.then(() => {
                this._actionProblem = null;
                this._redraw('action', GLib.get_monotonic_time());
            }, error => {
                this._actionProblem = Model.text(error.message, 300);
                this._redraw('action', GLib.get_monotonic_time());
            });
        }

        _openTerminal() {
            const raindctl = GLib.find_program_in_path('raindctl') ?? 'raindctl';
            const script = `"${raindctl}" now; printf '\\n%s' "$0"; read -r _`;
            const prompt = _('Press Enter to close');
            const terminals = [['kgx', '--'], ['gnome-terminal', '--'], ['x-terminal-emulator', '-e'], ['xterm', '-e']];
            for (const [name, separator] of terminals) {
                const path = GLib.find_program_in_path(name);
                if (!path)
                    continue;
                try {
                    Gio.Subprocess.new([path, separator, 'sh', '-c', script, prompt], Gio.SubprocessFlags.NONE);
                    return;
                } catch (error) {
                    this._actionProblem = Model.text(error.message, 300);
                }
            }
            this._actionProblem ??= _('No terminal found: run “raindctl now” in one');
            this._redraw('action', GLib.get_monotonic_time());
        }

        destroy() {
            this._subscription.stop();
            if (this._clock)
                GLib.source_remove(this._clock);
            this._clock = 0;
            super.destroy();
        }
    });
}
