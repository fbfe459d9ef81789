// GNOME Shell 45 and later's entry point (the extension API of ES modules).
// Not a second copy: it imports the same files as GNOME 43/44's entry
// (extension.js), which ./scripts/package puts beside it in the extension's
// directory, with gnome45/metadata.json (docs/DESKTOP.md, "One source for
// GNOME 43 and 45").

// The extension's own modules come first: GJS loads a module's imports in
// order, so outside GNOME Shell 45 (the tests, tests/integration/
// test_gnome_client.py) every one of them is loaded before the first of GNOME
// Shell's is missed.
import * as Client from './varlinkClient.js';
import * as Model from './weatherModel.js';
import * as View from './weatherView.js';
import {createIndicator} from './indicator.js';

import Gettext from 'gettext';
import GLib from 'gi://GLib';

import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';
import * as Main from 'resource:///org/gnome/shell/ui/main.js';
import * as PanelMenu from 'resource:///org/gnome/shell/ui/panelMenu.js';
import * as PopupMenu from 'resource:///org/gnome/shell/ui/popupMenu.js';

export default class RaindExtension extends Extension {
    enable() {
        // raind's catalogues (text domain raind), where raind installed them;
        // $RAIND_LOCALE_DIR moves them, as for raindctl.
        const localeDir = GLib.getenv('RAIND_LOCALE_DIR');
        if (localeDir)
            Gettext.bindtextdomain('raind', localeDir);
        this._indicator = createIndicator({Client, Model, View}, {Main, PanelMenu, PopupMenu}, Gettext.domain('raind'));
        Main.panel.addToStatusArea('raind', this._indicator);
    }

    disable() {
        this._indicator?.destroy();
        this._indicator = null;
    }
}
