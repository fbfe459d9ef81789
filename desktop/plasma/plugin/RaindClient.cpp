#include "RaindClient.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcessEnvironment>
#include <QRandomGenerator>
#include <cmath>
#include <unistd.h>

namespace
{
const QString kInterface = QStringLiteral("io.raind.Weather.");

// BEGIN IDL NAMES (tests/desktop/test_client_idl.py reads this block)
// The fields read, as paths from a method's reply or an IDL type. Anything
// else raind sends is dropped before QML sees it, so a field used here and
// absent from the IDL fails that test, and QML cannot read one that is not here.
const char *const kFields[] = {
    "Subscribe.event:s", "Subscribe.status@Status", "Subscribe.locations@Location", "Subscribe.selected:s",
    "Subscribe.forecast@Forecast", "Subscribe.location@Location", "Subscribe.settings@Settings", "Subscribe.id:s",
    "Subscribe.online:b", "Subscribe.failure@Failure", "Subscribe.alerts@Alert", "Subscribe.nowcast@Nowcast",
    "Subscribe.providerChange@ProviderChange",
    "GetStatus.status@Status",
    "GetForecast.location@Location", "GetForecast.forecast@Forecast", "GetForecast.ageSeconds:n", "GetForecast.stale:b",
    "SelectLocation.location@Location",
    "Refresh.updated:a", "Refresh.failed:a",
    "Status.version:s", "Status.provider:s", "Status.online:b", "Status.units:s", "Status.refreshMinutes:n",
    "Status.staleAfterMinutes:n", "Status.selected@Location", "Status.lastRefresh:n", "Status.lastError@Failure",
    "Status.nextRefresh:n",
    "Settings.units:s", "Settings.refreshMinutes:n",
    "Location.id:s", "Location.name:s", "Location.region:s", "Location.country:s", "Location.countryCode:s",
    "Location.latitude:n", "Location.longitude:n", "Location.timeZone:s",
    "Failure.error:s", "Failure.message:s", "Failure.httpStatus:n", "Failure.time:n",
    "ProviderChange.provider:s", "ProviderChange.previous:s", "ProviderChange.reason:s",
    "Forecast.provider:s", "Forecast.attribution@Attribution", "Forecast.fetchedAt:n", "Forecast.timeZone:s",
    "Forecast.utcOffsetSeconds:n", "Forecast.current@Current", "Forecast.hourly@Hour", "Forecast.daily@Day",
    "Forecast.alerts@Alert", "Forecast.nowcast@Nowcast", "Forecast.failover.provider:s", "Forecast.failover.reason:s",
    "Forecast.air@AirQuality",
    "Attribution.text:s", "Attribution.url:s",
    "Current.time:n", "Current.summary:s", "Current.icon:s", "Current.temperature:n", "Current.apparentTemperature:n",
    "Current.humidity:n", "Current.windSpeed:n", "Current.windBearing:n", "Current.precipProbability:n",
    "Current.pressure:n", "Current.uvIndex:n", "Current.sources@ValueSource",
    "ValueSource.values:a", "ValueSource.station:s", "ValueSource.distanceMetres:n",
    "ValueSource.heightDifferenceMetres:n",
    "Hour.time:n", "Hour.summary:s", "Hour.icon:s", "Hour.temperature:n", "Hour.windSpeed:n", "Hour.precipProbability:n",
    "Day.time:n", "Day.summary:s", "Day.icon:s", "Day.temperatureMin:n", "Day.temperatureMax:n",
    "Day.precipProbability:n", "Day.precipAccumulation:n", "Day.sunrise:n", "Day.sunset:n", "Day.polar:s",
    "Alert.title:s", "Alert.severity:s", "Alert.start:n", "Alert.end:n", "Alert.onset:n", "Alert.event:s",
    "Alert.source:s", "Alert.uri:s",
    "Nowcast.time:n", "Nowcast.summary:s", "Nowcast.coveredUntil:n",
    "AirQuality.provider:s", "AirQuality.index:s", "AirQuality.aqi:n", "AirQuality.category:s", "AirQuality.level:n",
    "AirQuality.uvIndex:n", "AirQuality.uvCategory:s", "AirQuality.problem:s",
};
// The methods called, each with the parameters it is given.
const char *const kCalls[] = {"Subscribe", "GetStatus", "GetForecast(id)", "SelectLocation(id)", "Refresh(id)"};
// The errors told apart by name.
const char *const kErrors[] = {"SubscriberTooSlow", "PermissionDenied", "LocationNotFound"};
// END IDL NAMES

/// One node of the projection: an object's fields, a reference to a type's
/// own node, or a leaf of one kind.
struct Node {
    QHash<QString, Node> fields;
    QString type;
    char kind = 'o';
};

const QHash<QString, Node> &projections()
{
    static const QHash<QString, Node> roots = [] {
        QHash<QString, Node> built;
        for (const char *entry : kFields) {
            QString text = QString::fromLatin1(entry);
            QString type;
            char kind = 'o';
            if (int at = text.indexOf(QLatin1Char('@')); at >= 0) {
                type = text.mid(at + 1);
                text.truncate(at);
            } else if (int colon = text.indexOf(QLatin1Char(':')); colon >= 0) {
                kind = text.at(colon + 1).toLatin1();
                text.truncate(colon);
            }
            const QStringList path = text.split(QLatin1Char('.'));
            Node *node = &built[path.first()];
            for (int i = 1; i < path.size(); ++i)
                node = &node->fields[path.at(i)];
            node->type = type;
            node->kind = kind;
        }
        return built;
    }();
    return roots;
}

/// A string from raind with control characters (but line breaks and tabs)
/// taken out, so a hostile title cannot move the cursor or hide text.
QString clean(const QString &text)
{
    QString out;
    out.reserve(text.size());
    for (QChar c : text) {
        const ushort u = c.unicode();
        if ((u < 0x20 && u != '\n' && u != '\t') || (u >= 0x7f && u < 0xa0) || (u >= 0x202a && u <= 0x202e)
            || (u >= 0x2066 && u <= 0x2069))
            continue;
        out.append(c);
    }
    return out.left(4096);
}

QVariant project(const QJsonValue &value, const Node &given)
{
    const Node *node = &given;
    if (!node->type.isEmpty()) {
        const auto found = projections().constFind(node->type);
        if (found == projections().constEnd())
            return {};
        node = &found.value();
    }
    if (value.isArray() && node->kind != 'a') {
        QVariantList items;
        for (const QJsonValue &item : value.toArray()) {
            QVariant projected = project(item, *node);
            if (projected.isValid())
                items.append(projected);
        }
        return items;
    }
    switch (node->kind) {
    case 's':
        return value.isString() ? QVariant(clean(value.toString())) : QVariant();
    case 'n':
        return value.isDouble() && std::isfinite(value.toDouble()) ? QVariant(value.toDouble()) : QVariant();
    case 'b':
        return value.isBool() ? QVariant(value.toBool()) : QVariant();
    case 'a': {
        if (!value.isArray())
            return {};
        QStringList items;
        for (const QJsonValue &item : value.toArray())
            if (item.isString())
                items.append(clean(item.toString()));
        return items;
    }
    default:
        break;
    }
    if (!value.isObject())
        return {};
    const QJsonObject object = value.toObject();
    QVariantMap out;
    for (auto field = node->fields.constBegin(); field != node->fields.constEnd(); ++field) {
        const auto found = object.constFind(field.key());
        if (found == object.constEnd() || found->isNull())
            continue;
        QVariant projected = project(*found, field.value());
        if (projected.isValid())
            out.insert(field.key(), projected);
    }
    return out;
}

QVariantMap projectReply(const QString &method, const QJsonObject &parameters)
{
    const auto root = projections().constFind(method);
    return root == projections().constEnd() ? QVariantMap() : project(parameters, root.value()).toMap();
}

QString shortError(const QJsonObject &message)
{
    QString error = message.value(QStringLiteral("error")).toString();
    if (error.startsWith(kInterface))
        error = error.mid(kInterface.size());
    return clean(error);
}

QString errorMessage(const QJsonObject &message)
{
    const QString text = message.value(QStringLiteral("parameters")).toObject().value(QStringLiteral("message")).toString();
    return clean(text.isEmpty() ? message.value(QStringLiteral("error")).toString() : text);
}

double number(const QVariantMap &map, const char *key, double fallback = NAN)
{
    const QVariant value = map.value(QLatin1String(key));
    return value.isValid() ? value.toDouble() : fallback;
}
} // namespace

// MARK: - RaindConnection

RaindConnection::RaindConnection(const QStringList &candidates, int maximumReplySize, int answerTimeout, QObject *parent)
    : QObject(parent)
    , m_candidates(candidates)
    , m_maximumReplySize(maximumReplySize)
{
    m_answerTimer.setSingleShot(true);
    m_answerTimer.setInterval(answerTimeout);
    connect(&m_answerTimer, &QTimer::timeout, this, [this] {
        fail(QStringLiteral("noAnswer"),
             QStringLiteral("raind at %1 accepted the connection but did not answer within %2 s; is it raind?")
                 .arg(m_path)
                 .arg(m_answerTimer.interval() / 1000.0));
    });
    connect(&m_socket, &QLocalSocket::connected, this, [this] {
        m_path = m_candidates.value(m_next - 1);
        m_socket.write(m_out);
        m_out.clear();
        Q_EMIT opened();
        armAnswerTimer();
    });
    connect(&m_socket, &QLocalSocket::errorOccurred, this, [this](QLocalSocket::LocalSocketError error) {
        if (m_path.isEmpty()) {
            const QString path = m_candidates.value(m_next - 1);
            const QString reason = error == QLocalSocket::SocketAccessError ? QStringLiteral("permission denied")
                                                                            : QStringLiteral("nothing there");
            m_refusals.append(QStringLiteral("%1 (%2)").arg(path, reason));
            if (error == QLocalSocket::SocketAccessError)
                m_refusals.last().prepend(QStringLiteral("!"));
            QTimer::singleShot(0, this, &RaindConnection::tryNext);
        }
    });
    connect(&m_socket, &QLocalSocket::disconnected, this, [this] {
        if (!m_path.isEmpty())
            fail(QStringLiteral("notRunning"), QStringLiteral("raind closed the connection at %1").arg(m_path));
    });
    connect(&m_socket, &QLocalSocket::readyRead, this, &RaindConnection::readAvailable);
}

RaindConnection::~RaindConnection()
{
    // The socket closes after the members declared after it are gone: it
    // must not call back into them.
    m_socket.disconnect(this);
    m_failed = true;
    m_socket.abort();
}

void RaindConnection::open()
{
    m_next = 0;
    tryNext();
}

void RaindConnection::tryNext()
{
    if (m_failed)
        return;
    if (m_next >= m_candidates.size()) {
        bool denied = false;
        QStringList places;
        for (QString refusal : std::as_const(m_refusals)) {
            if (refusal.startsWith(QLatin1Char('!'))) {
                denied = true;
                refusal.remove(0, 1);
            }
            places.append(refusal);
        }
        fail(denied ? QStringLiteral("permissionDenied") : QStringLiteral("notRunning"),
             QStringLiteral("raind is not running: %1; start it with 'systemctl --user start raind'")
                 .arg(places.join(QStringLiteral(", "))));
        return;
    }
    m_socket.abort();
    m_socket.connectToServer(m_candidates.at(m_next++));
}

void RaindConnection::send(const QString &method, const QJsonObject &parameters, bool more, bool timed, Reply reply)
{
    QJsonObject call;
    call.insert(QStringLiteral("method"), QString(kInterface + method));
    call.insert(QStringLiteral("parameters"), parameters);
    if (more)
        call.insert(QStringLiteral("more"), true);
    QByteArray bytes = QJsonDocument(call).toJson(QJsonDocument::Compact);
    bytes.append('\0');
    m_pending.enqueue({more, timed, false, std::move(reply)});
    if (isOpen()) {
        m_socket.write(bytes);
        armAnswerTimer();
    } else {
        m_out.append(bytes);
    }
}

void RaindConnection::armAnswerTimer()
{
    // Only a call still waiting for its first reply is timed: a stream that
    // goes on waits for events, which take their time.
    const bool waiting = isOpen() && !m_pending.isEmpty() && m_pending.head().timed && !m_pending.head().answered;
    if (!waiting)
        m_answerTimer.stop();
    else if (!m_answerTimer.isActive())
        m_answerTimer.start();
}

void RaindConnection::close()
{
    m_failed = true;
    m_answerTimer.stop();
    m_pending.clear();
    m_socket.abort();
}

void RaindConnection::readAvailable()
{
    m_buffer.append(m_socket.readAll());
    int end;
    while (!m_failed && (end = m_buffer.indexOf('\0')) >= 0) {
        if (end > m_maximumReplySize) {
            fail(QStringLiteral("tooLarge"), QStringLiteral("raind sent a reply of %1 bytes, over the limit of %2")
                                                 .arg(end)
                                                 .arg(m_maximumReplySize));
            return;
        }
        const QByteArray text = m_buffer.left(end);
        m_buffer.remove(0, end + 1);
        QJsonParseError error;
        const QJsonDocument document = QJsonDocument::fromJson(text, &error);
        if (error.error != QJsonParseError::NoError || !document.isObject()) {
            fail(QStringLiteral("garbage"),
                 QStringLiteral("%1 sent something that is not a Varlink reply (%2 at byte %3); is it raind?")
                     .arg(m_path, error.error != QJsonParseError::NoError ? error.errorString()
                                                                          : QStringLiteral("not a JSON object"))
                     .arg(error.offset));
            return;
        }
        if (m_pending.isEmpty()) {
            fail(QStringLiteral("protocol"), QStringLiteral("raind sent a reply to no call"));
            return;
        }
        const QJsonObject message = document.object();
        const bool continues = message.value(QStringLiteral("continues")).toBool();
        Reply reply = m_pending.head().reply;
        m_pending.head().answered = true;
        if (!(m_pending.head().more && continues))
            m_pending.dequeue();
        m_answerTimer.stop();
        armAnswerTimer();
        reply(message);
    }
    if (!m_failed && m_buffer.size() > m_maximumReplySize)
        fail(QStringLiteral("tooLarge"),
             QStringLiteral("raind sent more than %1 bytes without ending its reply").arg(m_maximumReplySize));
}

void RaindConnection::fail(const QString &kind, const QString &message)
{
    if (m_failed)
        return;
    m_failed = true;
    m_answerTimer.stop();
    m_pending.clear();
    m_buffer.clear();
    m_socket.abort();
    Q_EMIT failed(kind, message);
}

// MARK: - RaindClient

RaindClient::RaindClient(QObject *parent)
    : QObject(parent)
{
    m_reconnectTimer.setSingleShot(true);
    connect(&m_reconnectTimer, &QTimer::timeout, this, &RaindClient::startSubscription);
    // Ages and staleness stay true between events, as the bars' redraws do.
    m_staleTimer.setInterval(30000);
    connect(&m_staleTimer, &QTimer::timeout, this, &RaindClient::updateStale);
    m_staleTimer.start();
    // After QML has set the properties (socketPath) of the new object.
    m_reconnectTimer.start(0);
}

RaindClient::~RaindClient() = default;

QStringList RaindClient::candidates(const QString &explicitPath, const QProcessEnvironment &environment, uint uid)
{
    if (!explicitPath.isEmpty())
        return {explicitPath};
    const QString fromEnvironment = environment.value(QStringLiteral("RAIND_SOCKET"));
    if (!fromEnvironment.isEmpty())
        return {fromEnvironment};
    QString runtime = environment.value(QStringLiteral("XDG_RUNTIME_DIR"));
    if (!runtime.startsWith(QLatin1Char('/')))
        runtime = QStringLiteral("/run/user/%1").arg(uid);
    return {runtime + QStringLiteral("/raind/raind.sock"), QStringLiteral("/run/raind/raind.sock")};
}

QStringList RaindClient::wireFields()
{
    QStringList out;
    for (const char *entry : kFields)
        out.append(QString::fromLatin1(entry));
    return out;
}

QStringList RaindClient::wireCalls()
{
    QStringList out;
    for (const char *entry : kCalls)
        out.append(QString::fromLatin1(entry));
    return out;
}

QStringList RaindClient::wireErrors()
{
    QStringList out;
    for (const char *entry : kErrors)
        out.append(QString::fromLatin1(entry));
    return out;
}

void RaindClient::setSocketPath(const QString &path)
{
    if (path == m_socketPath)
        return;
    m_socketPath = path;
    Q_EMIT socketPathChanged();
    reconnect();
}

void RaindClient::setMaximumReplySize(int bytes)
{
    if (bytes == m_maximumReplySize || bytes <= 0)
        return;
    m_maximumReplySize = bytes;
    Q_EMIT limitsChanged();
}

void RaindClient::setAnswerTimeout(int milliseconds)
{
    if (milliseconds == m_answerTimeout || milliseconds <= 0)
        return;
    m_answerTimeout = milliseconds;
    Q_EMIT limitsChanged();
}

QString RaindClient::units() const
{
    const QString units = m_status.value(QStringLiteral("units")).toString();
    return units.isEmpty() ? QStringLiteral("si") : units;
}

bool RaindClient::online() const
{
    return m_connection == Connected && m_status.value(QStringLiteral("online"), true).toBool();
}

QVariantMap RaindClient::selectedLocation() const
{
    for (const QVariant &location : m_locations)
        if (location.toMap().value(QStringLiteral("id")).toString() == m_selectedId)
            return location.toMap();
    return {};
}

bool RaindClient::hasTemperature() const
{
    return std::isfinite(temperature());
}

double RaindClient::temperature() const
{
    // The conditions now, as raindctl takes them: the current block while it
    // is under an hour old, else the hour in progress; else nothing.
    const double now = QDateTime::currentMSecsSinceEpoch() / 1000.0;
    const QVariantMap current = m_forecast.value(QStringLiteral("current")).toMap();
    const double time = number(current, "time");
    if (std::isfinite(time) && now - time < 3600 && now >= time - 3600)
        return number(current, "temperature");
    for (const QVariant &hour : m_forecast.value(QStringLiteral("hourly")).toList()) {
        const double start = number(hour.toMap(), "time");
        if (start <= now && now < start + 3600)
            return number(hour.toMap(), "temperature");
    }
    return NAN;
}

void RaindClient::reconnect()
{
    m_backoff = 0;
    delete m_calls;
    m_calls = nullptr;
    m_reconnectTimer.start(0);
}

void RaindClient::startSubscription()
{
    delete m_subscription;
    m_subscribed = false;
    if (m_connection != Connected && m_problemKind.isEmpty())
        setConnection(Connecting);
    m_subscription = new RaindConnection(candidates(m_socketPath, QProcessEnvironment::systemEnvironment(), getuid()),
                                         m_maximumReplySize, m_answerTimeout, this);
    connect(m_subscription, &RaindConnection::failed, this, &RaindClient::subscriptionLost);
    m_subscription->send(QStringLiteral("Subscribe"), QJsonObject(), true, true,
                         [this](const QJsonObject &message) { subscriptionMessage(message); });
    m_subscription->open();
}

void RaindClient::scheduleReconnect()
{
    // 0.5 s doubling to 10 s, with a fifth of jitter so many widgets do not
    // come back at the same moment.
    const int base = std::min(500 << std::min(m_backoff, 5), 10000);
    m_backoff++;
    m_reconnectTimer.start(base - base / 5 + int(QRandomGenerator::global()->bounded(base / 5 + 1)));
}

void RaindClient::setConnection(Connection connection, const QString &path)
{
    const bool wasOnline = online();
    if (connection == m_connection && path == m_connectedPath)
        return;
    m_connection = connection;
    m_connectedPath = path;
    Q_EMIT connectionChanged();
    if (wasOnline != online())
        Q_EMIT statusChanged();
}

void RaindClient::setProblem(const QString &kind, const QString &message)
{
    if (kind == m_problemKind && message == m_problem)
        return;
    m_problemKind = kind;
    m_problem = message;
    Q_EMIT problemChanged();
}

void RaindClient::subscriptionLost(const QString &kind, const QString &message)
{
    m_subscription->deleteLater();
    m_subscription = nullptr;
    m_subscribed = false;
    setProblem(kind, message);
    setConnection(kind == QLatin1String("notRunning") ? NotRunning : Failed);
    if (kind == QLatin1String("tooSlow")) {
        // Dropped for reading too slowly: the next snapshot brings it up to date.
        m_reconnectTimer.start(0);
        return;
    }
    scheduleReconnect();
}

void RaindClient::subscriptionMessage(const QJsonObject &message)
{
    m_lastEventTime = QDateTime::currentMSecsSinceEpoch();
    if (message.contains(QStringLiteral("error"))) {
        const QString error = shortError(message);
        QString kind = QStringLiteral("protocol");
        if (error == QLatin1String("SubscriberTooSlow"))
            kind = QStringLiteral("tooSlow");
        else if (error.endsWith(QLatin1String("PermissionDenied")))
            kind = QStringLiteral("permissionDenied");
        m_subscription->close();
        subscriptionLost(kind, QStringLiteral("raind ended the subscription: %1 (%2)").arg(error, errorMessage(message)));
        return;
    }
    const QVariantMap event = projectReply(QStringLiteral("Subscribe"),
                                           message.value(QStringLiteral("parameters")).toObject());
    const QString name = event.value(QStringLiteral("event")).toString();
    if (!m_subscribed && name != QLatin1String("Snapshot")) {
        m_subscription->close();
        subscriptionLost(QStringLiteral("protocol"), QStringLiteral("raind's first reply was not a snapshot"));
        return;
    }
    takeEvent(event);
    Q_EMIT eventReceived(name);
}

void RaindClient::takeEvent(const QVariantMap &event)
{
    const QString name = event.value(QStringLiteral("event")).toString();
    const QString id = event.value(QStringLiteral("id")).toString();
    const QVariantMap location = event.value(QStringLiteral("location")).toMap();
    if (name == QLatin1String("Snapshot")) {
        m_subscribed = true;
        m_backoff = 0;
        m_status = event.value(QStringLiteral("status")).toMap();
        m_locations = event.value(QStringLiteral("locations")).toList();
        m_selectedId = event.value(QStringLiteral("selected")).toString();
        m_failure = event.value(QStringLiteral("failure")).toMap();
        m_failures.clear();
        if (!m_failure.isEmpty())
            m_failures.insert(m_selectedId, m_failure);
        setProblem(QString(), QString());
        setConnection(Connected, m_subscription->path());
        Q_EMIT statusChanged();
        Q_EMIT locationsChanged();
        Q_EMIT failureChanged();
        setForecast(event.value(QStringLiteral("forecast")).toMap());
    } else if (name == QLatin1String("LocationAdded") || name == QLatin1String("LocationChanged")) {
        const QString added = location.value(QStringLiteral("id")).toString();
        bool replaced = false;
        for (QVariant &saved : m_locations)
            if (saved.toMap().value(QStringLiteral("id")).toString() == added) {
                saved = location;
                replaced = true;
            }
        if (!replaced) {
            m_locations.append(location);
            std::sort(m_locations.begin(), m_locations.end(), [](const QVariant &a, const QVariant &b) {
                return a.toMap().value(QStringLiteral("name")).toString().localeAwareCompare(
                           b.toMap().value(QStringLiteral("name")).toString())
                    < 0;
            });
        }
        Q_EMIT locationsChanged();
    } else if (name == QLatin1String("LocationRemoved")) {
        const QString removed = location.value(QStringLiteral("id")).toString();
        m_locations.erase(std::remove_if(m_locations.begin(), m_locations.end(),
                                         [&](const QVariant &saved) {
                                             return saved.toMap().value(QStringLiteral("id")).toString() == removed;
                                         }),
                          m_locations.end());
        Q_EMIT locationsChanged();
    } else if (name == QLatin1String("LocationSelected")) {
        m_selectedId = location.value(QStringLiteral("id")).toString();
        m_failure = m_failures.value(m_selectedId);
        Q_EMIT locationsChanged();
        Q_EMIT failureChanged();
        setForecast(event.value(QStringLiteral("forecast")).toMap());
    } else if (name == QLatin1String("WeatherUpdated") && id == m_selectedId) {
        m_failures.remove(id);
        if (!m_failure.isEmpty()) {
            m_failure.clear();
            Q_EMIT failureChanged();
        }
        setForecast(event.value(QStringLiteral("forecast")).toMap());
    } else if (name == QLatin1String("WeatherUpdated")) {
        m_failures.remove(id);
    } else if (name == QLatin1String("RefreshFailed")) {
        m_failures.insert(id, event.value(QStringLiteral("failure")).toMap());
        if (id == m_selectedId) {
            m_failure = m_failures.value(id);
            Q_EMIT failureChanged();
        }
    } else if (name == QLatin1String("AlertsChanged") && id == m_selectedId && !m_forecast.isEmpty()) {
        QVariantMap forecast = m_forecast;
        forecast.insert(QStringLiteral("alerts"), event.value(QStringLiteral("alerts")).toList());
        setForecast(forecast);
    } else if (name == QLatin1String("NowcastChanged") && id == m_selectedId && !m_forecast.isEmpty()) {
        QVariantMap forecast = m_forecast;
        if (event.contains(QStringLiteral("nowcast")))
            forecast.insert(QStringLiteral("nowcast"), event.value(QStringLiteral("nowcast")));
        else
            forecast.remove(QStringLiteral("nowcast"));
        setForecast(forecast);
    } else if (name == QLatin1String("SettingsChanged")) {
        if (event.contains(QStringLiteral("status")))
            m_status = event.value(QStringLiteral("status")).toMap();
        else
            m_status.insert(event.value(QStringLiteral("settings")).toMap());
        Q_EMIT statusChanged();
        updateStale();
    } else if (name == QLatin1String("ReachabilityChanged")) {
        m_status.insert(QStringLiteral("online"), event.value(QStringLiteral("online"), true));
        Q_EMIT statusChanged();
    }
}

void RaindClient::setForecast(const QVariantMap &forecast)
{
    m_forecast = forecast;
    Q_EMIT forecastChanged();
    updateStale();
}

void RaindClient::updateStale()
{
    bool stale = false;
    if (!m_forecast.isEmpty()) {
        const double now = QDateTime::currentMSecsSinceEpoch() / 1000.0;
        const double staleAfter = number(m_status, "staleAfterMinutes", 15) * 60;
        double end = -INFINITY;
        const double current = number(m_forecast.value(QStringLiteral("current")).toMap(), "time");
        if (std::isfinite(current))
            end = current + 3600;
        for (const QVariant &hour : m_forecast.value(QStringLiteral("hourly")).toList())
            end = std::max(end, number(hour.toMap(), "time", -INFINITY) + 3600);
        for (const QVariant &day : m_forecast.value(QStringLiteral("daily")).toList())
            end = std::max(end, number(day.toMap(), "time", -INFINITY) + 86400);
        stale = now - number(m_forecast, "fetchedAt", 0) >= staleAfter || !(now < end);
    }
    if (stale != m_stale) {
        m_stale = stale;
        Q_EMIT staleChanged();
    }
    // The conditions now move from the current block to the hour in progress.
    Q_EMIT forecastChanged();
}

void RaindClient::call(const QString &method, const QJsonObject &parameters)
{
    if (!m_calls) {
        m_calls = new RaindConnection(candidates(m_socketPath, QProcessEnvironment::systemEnvironment(), getuid()),
                                      m_maximumReplySize, m_answerTimeout, this);
        RaindConnection *connection = m_calls;
        connect(connection, &RaindConnection::failed, this, [this, connection] {
            // Calls in flight were told through their replies' absence below;
            // an idle connection raind closed is simply opened again next time.
            if (m_calls == connection)
                m_calls = nullptr;
            connection->deleteLater();
        });
        connection->open();
    }
    RaindConnection *connection = m_calls;
    auto answered = std::make_shared<bool>(false);
    connect(connection, &RaindConnection::failed, this, [this, method, answered](const QString &, const QString &message) {
        if (!*answered)
            Q_EMIT callFailed(method, QStringLiteral("Disconnected"), message);
    });
    const bool timed = method != QLatin1String("Refresh");
    connection->send(method, parameters, false, timed, [this, method, answered](const QJsonObject &message) {
        *answered = true;
        if (message.contains(QStringLiteral("error"))) {
            Q_EMIT callFailed(method, shortError(message), errorMessage(message));
            return;
        }
        Q_EMIT callFinished(method, projectReply(method, message.value(QStringLiteral("parameters")).toObject()));
    });
}

void RaindClient::selectLocation(const QString &id)
{
    call(QStringLiteral("SelectLocation"), {{QStringLiteral("id"), id}});
}

void RaindClient::refresh()
{
    QJsonObject parameters;
    if (!m_selectedId.isEmpty())
        parameters.insert(QStringLiteral("id"), m_selectedId);
    call(QStringLiteral("Refresh"), parameters);
}

void RaindClient::getStatus()
{
    call(QStringLiteral("GetStatus"), {});
}

void RaindClient::getForecast(const QString &id)
{
    QJsonObject parameters;
    if (!id.isEmpty())
        parameters.insert(QStringLiteral("id"), id);
    call(QStringLiteral("GetForecast"), parameters);
}
