// Tests only (tests/desktop): GNOME Shell's unsafe mode, which lets
// org.gnome.Shell.Eval and the screenshot interface answer a test.
/* exported init */
function init() {
    return {
        enable() {
            global.context.unsafe_mode = true;
        },
        disable() {
            global.context.unsafe_mode = false;
        },
    };
}
