// GNOME Shell 43 and 44's entry point (the legacy extension API, which loads
// this file as a script). The rest of the extension is ES modules, shared
// with GNOME 45's entry point (gnome45/extension.js): this one loads them with
// GJS's dynamic import() and hands them GNOME Shell's modules (docs/DESKTOP.md,
// "One source for GNOME 43 and 45").
/* exported init */
'use strict';

const Gettext = imports.gettext;
const {GLib} = imports.gi;
const ExtensionUtils = imports.misc.extensionUtils;
const Main = imports.ui.main;
const PanelMenu = imports.ui.panelMenu;
const PopupMenu = imports.ui.popupMenu;

const Me = ExtensionUtils.getCurrentExtension();
const MODULES = ['varlinkClient.js', 'weatherModel.js', 'weatherView.js', 'indicator.js'];

class Extension {
    constructor() {
        // Counts enables and disables: a load that ends after a disable adds nothing.
        this._generation = 0;
        this._indicator = null;
    }

    enable() {
        const generation = ++this._generation;
        // raind's catalogues (text domain raind), where raind installed them;
        // $RAIND_LOCALE_DIR moves them, as for raindctl.
        const localeDir = GLib.getenv('RAIND_LOCALE_DIR');
        if (localeDir)
            Gettext.bindtextdomain('raind', localeDir);
        // GJS caches each module by its URI: a second enable loads nothing again.
        const loading = MODULES.map(name => import(Me.dir.get_child(name).get_uri()));
        Promise.all(loading).then(([Client, Model, View, Indicator]) => {
            if (generation !== this._generation)
                return;
            this._indicator = Indicator.createIndicator({Client, Model, View}, {Main, PanelMenu, PopupMenu},
                Gettext.domain('raind'));
            Main.panel.addToStatusArea('raind', this._indicator);
        }).catch(error => logError(error, 'raind: the extension could not be loaded'));
    }

    disable() {
        this._generation++;
        this._indicator?.destroy();
        this._indicator = null;
    }
}

/** Called once when GNOME Shell loads the extension. */
function init() {
    return new Extension();
}
