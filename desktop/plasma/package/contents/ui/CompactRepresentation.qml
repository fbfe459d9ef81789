// The panel's face: the condition's icon and the temperature with its
// markers; a click opens the full representation.
import QtQuick 2.15
import QtQuick.Layouts 1.15
import org.kde.plasma.plasmoid 2.0
import org.kde.plasma.core 2.0 as PlasmaCore
import org.kde.plasma.components 3.0 as PlasmaComponents3

MouseArea {
    id: compact

    Layout.minimumWidth: row.implicitWidth
    Layout.preferredWidth: row.implicitWidth
    onClicked: Plasmoid.expanded = !Plasmoid.expanded

    RedrawTracer {}

    RowLayout {
        id: row
        anchors.fill: parent
        spacing: PlasmaCore.Units.smallSpacing

        PlasmaCore.IconItem {
            Layout.fillHeight: true
            Layout.preferredWidth: height
            source: root.iconName
            opacity: root.dimmed ? 0.6 : 1
        }
        PlasmaComponents3.Label {
            id: label
            objectName: "raindCompactLabel"
            Layout.fillHeight: true
            text: root.compactText
            textFormat: Text.PlainText
            verticalAlignment: Text.AlignVCenter
            opacity: root.dimmed ? 0.6 : 1
            font.italic: Object.keys(raind.failure).length > 0
        }
    }
}
