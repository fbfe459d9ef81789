// GNOME Shell 43 and 44's entry point (the legacy extension API): loads the
// extension's own files and hands them GNOME Shell's modules. Everything
// else lives in files that do not depend on the API's import style
// (docs/DESKTOP.md, "One source for GNOME 43 and 45").
/* exported init */
'use strict';

const {GLib} = imports.gi;
const Gettext = imports.gettext;
const ExtensionUtils = imports.misc.extensionUtils;
const Main = imports.ui.main;
const PanelMenu = imports.ui.panelMenu;
const PopupMenu = imports.ui.popupMenu;

const Me = ExtensionUtils.getCurrentExtension();

class Extension {
    enable() {
        // raind's catalogues (text domain raind), where raind installed them;
        // $RAIND_LOCALE_DIR moves them, as for raindctl.
        const localeDir = GLib.getenv('RAIND_LOCALE_DIR');
        if (localeDir)
            Gettext.bindtextdomain('raind', localeDir);
        const modules = {Client: Me.imports.varlinkClient, Model: Me.imports.weatherModel, View: Me.imports.weatherView};
        this._indicator = Me.imports.indicator.createIndicator(modules, {Main, PanelMenu, PopupMenu},
            Gettext.domain('raind'));
        Main.panel.addToStatusArea('raind', this._indicator);
    }

    disable() {
        this._indicator?.destroy();
        this._indicator = null;
    }
}

/** Called once when GNOME Shell loads the extension. */
function init() {
    return new Extension();
}
