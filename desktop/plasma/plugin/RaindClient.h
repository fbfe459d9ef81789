// raind's protocol client for Qt 5 (QLocalSocket): Varlink over raind's Unix
// socket, NUL-framed JSON. One subscription (Subscribe with more) keeps the
// properties current; calls go over a second connection, so the stream is
// never held up by a call (docs/PROTOCOL.md, "Subscribing"). Everything runs
// on the thread the object lives on (the QML engine's); nothing blocks.
#pragma once

#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QLocalSocket>
#include <QObject>
#include <QProcessEnvironment>
#include <QQueue>
#include <QTimer>
#include <QVariantList>
#include <QVariantMap>
#include <functional>

class RaindConnection;

class RaindClient : public QObject
{
    Q_OBJECT
    /// The socket to use; empty: $RAIND_SOCKET, then the user instance's
    /// ($XDG_RUNTIME_DIR/raind/raind.sock), then the system one, as raindctl does.
    Q_PROPERTY(QString socketPath READ socketPath WRITE setSocketPath NOTIFY socketPathChanged)
    Q_PROPERTY(Connection connection READ connection NOTIFY connectionChanged)
    /// The socket the subscription is on (empty while not connected).
    Q_PROPERTY(QString connectedPath READ connectedPath NOTIFY connectionChanged)
    /// Why the client is not connected, or what went wrong on the wire: a
    /// kind (notRunning, permissionDenied, garbage, tooLarge, noAnswer,
    /// tooSlow, protocol) and an English sentence saying what to do.
    Q_PROPERTY(QString problemKind READ problemKind NOTIFY problemChanged)
    Q_PROPERTY(QString problem READ problem NOTIFY problemChanged)
    Q_PROPERTY(QVariantMap status READ status NOTIFY statusChanged)
    Q_PROPERTY(QString units READ units NOTIFY statusChanged)
    Q_PROPERTY(bool online READ online NOTIFY statusChanged)
    Q_PROPERTY(QVariantList locations READ locations NOTIFY locationsChanged)
    Q_PROPERTY(QString selectedId READ selectedId NOTIFY locationsChanged)
    Q_PROPERTY(QVariantMap selectedLocation READ selectedLocation NOTIFY locationsChanged)
    /// The selected place's forecast (empty until raind has one); kept while
    /// raind is away, so the last weather stays visible, marked.
    Q_PROPERTY(QVariantMap forecast READ forecast NOTIFY forecastChanged)
    Q_PROPERTY(bool hasTemperature READ hasTemperature NOTIFY forecastChanged)
    /// The current temperature in °C (valid when hasTemperature).
    Q_PROPERTY(double temperature READ temperature NOTIFY forecastChanged)
    /// The selected place's last failed refresh, until it refreshes successfully.
    Q_PROPERTY(QVariantMap failure READ failure NOTIFY failureChanged)
    /// raind's one rule: older than staleAfterMinutes, or every time passed.
    Q_PROPERTY(bool stale READ stale NOTIFY staleChanged)
    /// The largest reply accepted, in bytes; a longer one is a protocol error.
    Q_PROPERTY(int maximumReplySize READ maximumReplySize WRITE setMaximumReplySize NOTIFY limitsChanged)
    /// How long raind may take to send the snapshot once connected, in ms.
    Q_PROPERTY(int answerTimeout READ answerTimeout WRITE setAnswerTimeout NOTIFY limitsChanged)
    /// When (ms since the epoch) the last event was taken in, for measuring redraws.
    Q_PROPERTY(qint64 lastEventTime READ lastEventTime NOTIFY eventReceived)
    /// RAIND_APPLET_TRACE=1 in the environment: the applet logs what it shows.
    Q_PROPERTY(bool trace READ trace CONSTANT)

public:
    enum Connection { Connecting, Connected, NotRunning, Failed };
    Q_ENUM(Connection)

    explicit RaindClient(QObject *parent = nullptr);
    ~RaindClient() override;

    QString socketPath() const { return m_socketPath; }
    void setSocketPath(const QString &path);
    Connection connection() const { return m_connection; }
    QString connectedPath() const { return m_connectedPath; }
    QString problemKind() const { return m_problemKind; }
    QString problem() const { return m_problem; }
    QVariantMap status() const { return m_status; }
    QString units() const;
    bool online() const;
    QVariantList locations() const { return m_locations; }
    QString selectedId() const { return m_selectedId; }
    QVariantMap selectedLocation() const;
    QVariantMap forecast() const { return m_forecast; }
    bool hasTemperature() const;
    double temperature() const;
    QVariantMap failure() const { return m_failure; }
    bool stale() const { return m_stale; }
    int maximumReplySize() const { return m_maximumReplySize; }
    void setMaximumReplySize(int bytes);
    int answerTimeout() const { return m_answerTimeout; }
    void setAnswerTimeout(int milliseconds);
    qint64 lastEventTime() const { return m_lastEventTime; }
    bool trace() const { return qEnvironmentVariableIntValue("RAIND_APPLET_TRACE") == 1; }

    /// The sockets to try, in order, for an explicit path and an environment.
    static QStringList candidates(const QString &explicitPath, const QProcessEnvironment &environment, uint uid);

    /// The wire names this client uses, each checked against the IDL by
    /// tests/desktop/test_client_idl.py: "Root.field.field" paths ("root" a
    /// method's reply or an IDL type) with the leaf's kind (s string, n
    /// number, b bool, o object, a array) or, after '@', the IDL type whose
    /// own paths apply below; methods called with their parameters; errors.
    static QStringList wireFields();
    static QStringList wireCalls();
    static QStringList wireErrors();

public Q_SLOTS:
    void selectLocation(const QString &id);
    void refresh();
    void getStatus();
    void getForecast(const QString &id = QString());
    /// Drops both connections and connects again at once (no back-off).
    void reconnect();

Q_SIGNALS:
    void socketPathChanged();
    void connectionChanged();
    void problemChanged();
    void statusChanged();
    void locationsChanged();
    void forecastChanged();
    void failureChanged();
    void staleChanged();
    void limitsChanged();
    /// An event of the subscription (Snapshot first), after the properties changed.
    void eventReceived(const QString &name);
    /// A call's reply, its parameters projected as the properties are.
    void callFinished(const QString &method, const QVariantMap &parameters);
    /// A call failed: raind's error (short name: LocationNotFound,
    /// PermissionDenied, ...) or a connection problem, and what it said.
    void callFailed(const QString &method, const QString &error, const QString &message);

private:
    void startSubscription();
    void scheduleReconnect();
    void setConnection(Connection connection, const QString &path = QString());
    void setProblem(const QString &kind, const QString &message);
    void subscriptionMessage(const QJsonObject &message);
    void subscriptionLost(const QString &kind, const QString &message);
    void takeEvent(const QVariantMap &event);
    void setForecast(const QVariantMap &forecast);
    void updateStale();
    void call(const QString &method, const QJsonObject &parameters);

    QString m_socketPath;
    Connection m_connection = Connecting;
    QString m_connectedPath;
    QString m_problemKind;
    QString m_problem;
    QVariantMap m_status;
    QVariantList m_locations;
    QString m_selectedId;
    QVariantMap m_forecast;
    QVariantMap m_failure;
    /// Each place's last failed refresh, until it refreshes successfully, so
    /// a place selected after its refresh failed shows that it did.
    QHash<QString, QVariantMap> m_failures;
    bool m_stale = false;
    int m_maximumReplySize = 8 << 20;
    int m_answerTimeout = 5000;
    qint64 m_lastEventTime = 0;

    RaindConnection *m_subscription = nullptr;
    RaindConnection *m_calls = nullptr;
    QTimer m_reconnectTimer;
    QTimer m_staleTimer;
    int m_backoff = 0;
    bool m_subscribed = false;
};

/// One connection to raind: tries the candidate sockets in order, frames
/// messages with NUL, matches replies to calls in order, and says why it
/// failed. Owned by RaindClient.
class RaindConnection : public QObject
{
    Q_OBJECT
public:
    using Reply = std::function<void(const QJsonObject &)>;

    RaindConnection(const QStringList &candidates, int maximumReplySize, int answerTimeout, QObject *parent);
    ~RaindConnection() override;
    void open();
    /// Sends a call (kept until the socket is connected); `reply` gets each
    /// reply (several with more). `timed`: raind must begin answering within
    /// the answer timeout (Refresh waits for the provider and is not timed).
    void send(const QString &method, const QJsonObject &parameters, bool more, bool timed, Reply reply);
    /// Closes without a word: no reply and no failed() follow.
    void close();
    QString path() const { return m_path; }
    bool isOpen() const { return m_socket.state() == QLocalSocket::ConnectedState; }

Q_SIGNALS:
    void opened();
    /// The connection is gone: kind and sentence as RaindClient::problem.
    void failed(const QString &kind, const QString &message);

private:
    void tryNext();
    void readAvailable();
    void fail(const QString &kind, const QString &message);

    QStringList m_candidates;
    int m_next = 0;
    QString m_path;
    QStringList m_refusals;
    QLocalSocket m_socket;
    QByteArray m_buffer;
    int m_maximumReplySize;
    QTimer m_answerTimer;
    struct Pending {
        bool more;
        bool timed;
        bool answered;
        Reply reply;
    };
    void armAnswerTimer();
    QQueue<Pending> m_pending;
    QByteArray m_out;
    bool m_failed = false;
};
