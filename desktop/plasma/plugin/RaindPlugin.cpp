// The QML module io.raind.weather: RaindClient for the Plasma applet.
#include "RaindClient.h"

#include <QQmlEngine>
#include <QQmlExtensionPlugin>

class RaindPlugin : public QQmlExtensionPlugin
{
    Q_OBJECT
    Q_PLUGIN_METADATA(IID QQmlExtensionInterface_iid)
public:
    void registerTypes(const char *uri) override
    {
        qmlRegisterType<RaindClient>(uri, 1, 0, "RaindClient");
    }
};

#include "RaindPlugin.moc"
