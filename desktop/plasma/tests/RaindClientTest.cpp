// RaindClient against the real raind (RAIND_TEST_SOCKET: a raind with Paris
// selected and fetched and London saved, started by
// tests/desktop/test_plasma_client.py), and against misbehaving servers on
// real Unix sockets (QLocalServer) for what raind itself never sends.
#include "RaindClient.h"

#include <QLocalServer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

namespace
{
/// A server on a temporary socket that answers each connection with `answer`
/// (given the bytes the client sent first); empty: never answers.
class FakeServer : public QObject
{
public:
    explicit FakeServer(std::function<QByteArray(const QByteArray &)> answer)
        : m_answer(std::move(answer))
    {
        m_server.listen(m_directory.filePath(QStringLiteral("fake.sock")));
        connect(&m_server, &QLocalServer::newConnection, this, [this] {
            while (QLocalSocket *socket = m_server.nextPendingConnection()) {
                ++connections;
                connect(socket, &QLocalSocket::readyRead, socket, [this, socket] {
                    const QByteArray reply = m_answer(socket->readAll());
                    if (!reply.isEmpty())
                        socket->write(reply);
                });
            }
        });
    }
    QString path() const { return m_server.fullServerName(); }
    int connections = 0;

private:
    QTemporaryDir m_directory;
    QLocalServer m_server;
    std::function<QByteArray(const QByteArray &)> m_answer;
};

QByteArray snapshot()
{
    return QByteArrayLiteral("{\"parameters\":{\"event\":\"Snapshot\",\"status\":{\"units\":\"si\",\"online\":true},"
                             "\"locations\":[],\"selected\":null,\"forecast\":null},\"continues\":true}")
        + QByteArray(1, '\0');
}

bool waitFor(const std::function<bool()> &condition, int milliseconds = 10000)
{
    QElapsedTimer timer;
    timer.start();
    while (!condition()) {
        if (timer.elapsed() > milliseconds)
            return false;
        QTest::qWait(10);
    }
    return true;
}
} // namespace

class RaindClientTest : public QObject
{
    Q_OBJECT

private:
    QString realSocket()
    {
        return qEnvironmentVariable("RAIND_TEST_SOCKET");
    }

private Q_SLOTS:
    void candidates_followRaindctlsOrder()
    {
        QProcessEnvironment environment;
        environment.insert(QStringLiteral("XDG_RUNTIME_DIR"), QStringLiteral("/run/user/1000"));
        QCOMPARE(RaindClient::candidates(QString(), environment, 1000),
                 QStringList({QStringLiteral("/run/user/1000/raind/raind.sock"), QStringLiteral("/run/raind/raind.sock")}));
        environment.insert(QStringLiteral("RAIND_SOCKET"), QStringLiteral("/tmp/r.sock"));
        QCOMPARE(RaindClient::candidates(QString(), environment, 1000), QStringList({QStringLiteral("/tmp/r.sock")}));
        QCOMPARE(RaindClient::candidates(QStringLiteral("/x.sock"), environment, 1000), QStringList({QStringLiteral("/x.sock")}));
        QProcessEnvironment bare;
        bare.insert(QStringLiteral("XDG_RUNTIME_DIR"), QStringLiteral("relative"));
        QCOMPARE(RaindClient::candidates(QString(), bare, 7).first(), QStringLiteral("/run/user/7/raind/raind.sock"));
    }

    void subscribe_realRaind_takesTheSnapshotAndEvents()
    {
        if (realSocket().isEmpty())
            QSKIP("RAIND_TEST_SOCKET is not set (tests/desktop/test_plasma_client.py sets it)");
        RaindClient client;
        client.setSocketPath(realSocket());
        QVERIFY(waitFor([&] { return client.connection() == RaindClient::Connected; }));
        QCOMPARE(client.connectedPath(), realSocket());
        QCOMPARE(client.selectedId(), QStringLiteral("paris-fr"));
        QCOMPARE(client.selectedLocation().value(QStringLiteral("name")).toString(), QStringLiteral("Paris"));
        QCOMPARE(client.locations().size(), 2);
        QVERIFY(client.hasTemperature());
        QVERIFY(!client.forecast().value(QStringLiteral("hourly")).toList().isEmpty());
        QCOMPARE(client.units(), QStringLiteral("si"));
        QVERIFY(client.online());
        QVERIFY(!client.stale());

        QSignalSpy finished(&client, &RaindClient::callFinished);
        QSignalSpy failed(&client, &RaindClient::callFailed);
        client.getStatus();
        QVERIFY(waitFor([&] { return finished.size() == 1; }));
        QCOMPARE(finished.at(0).at(0).toString(), QStringLiteral("GetStatus"));
        const QVariantMap status = finished.at(0).at(1).toMap().value(QStringLiteral("status")).toMap();
        QVERIFY(status.value(QStringLiteral("version")).toString().size() > 0);
        // Fields the client does not read never reach QML.
        QVERIFY(!status.contains(QStringLiteral("requestsToday")));

        client.getForecast(QStringLiteral("paris-fr"));
        QVERIFY(waitFor([&] { return finished.size() == 2; }));
        QCOMPARE(finished.at(1).at(1).toMap().value(QStringLiteral("forecast")).toMap().value(QStringLiteral("provider")).toString(),
                 QStringLiteral("open-meteo"));

        client.selectLocation(QStringLiteral("atlantis-xx"));
        QVERIFY(waitFor([&] { return failed.size() == 1; }));
        QCOMPARE(failed.at(0).at(0).toString(), QStringLiteral("SelectLocation"));
        QCOMPARE(failed.at(0).at(1).toString(), QStringLiteral("LocationNotFound"));
        QVERIFY(failed.at(0).at(2).toString().contains(QStringLiteral("atlantis-xx")));

        QSignalSpy events(&client, &RaindClient::eventReceived);
        client.selectLocation(QStringLiteral("london-gb"));
        QVERIFY(waitFor([&] { return client.selectedId() == QStringLiteral("london-gb"); }));
        QVERIFY(events.contains(QVariantList{QStringLiteral("LocationSelected")}));
        QVERIFY(waitFor([&] { return client.hasTemperature(); }));

        client.refresh();
        QVERIFY(waitFor([&] { return finished.size() == 4; }, 20000));
        QCOMPARE(finished.at(3).at(0).toString(), QStringLiteral("Refresh"));
        QCOMPARE(finished.at(3).at(1).toMap().value(QStringLiteral("updated")).toStringList(),
                 QStringList({QStringLiteral("london-gb")}));

        client.selectLocation(QStringLiteral("paris-fr"));
        QVERIFY(waitFor([&] { return client.selectedId() == QStringLiteral("paris-fr"); }));
    }

    void nothingListening_isNotRunning_andRetriesWithBackoff()
    {
        QTemporaryDir directory;
        const QString path = directory.filePath(QStringLiteral("absent.sock"));
        RaindClient client;
        client.setSocketPath(path);
        QVERIFY(waitFor([&] { return client.connection() == RaindClient::NotRunning; }));
        QCOMPARE(client.problemKind(), QStringLiteral("notRunning"));
        QVERIFY(client.problem().contains(path));
        // A server appears at the path: the client finds it by itself.
        QLocalServer server;
        QVERIFY(server.listen(path));
        QVERIFY(waitFor([&] { return server.hasPendingConnections(); }, 5000));
        QLocalSocket *socket = server.nextPendingConnection();
        QVERIFY(waitFor([&] { return socket->bytesAvailable() > 0 || socket->waitForReadyRead(10); }));
        QVERIFY(socket->readAll().contains("io.raind.Weather.Subscribe"));
        socket->write(snapshot());
        QVERIFY(waitFor([&] { return client.connection() == RaindClient::Connected; }));
        QCOMPARE(client.problem(), QString());
    }

    void garbage_isAnErrorState_andTheClientReconnects()
    {
        FakeServer server([](const QByteArray &) -> QByteArray { return QByteArrayLiteral("HTTP/1.1 200 OK\r\n\r\n<html>") + QByteArray(1, '\0'); });
        RaindClient client;
        client.setSocketPath(server.path());
        QVERIFY(waitFor([&] { return client.problemKind() == QStringLiteral("garbage"); }));
        QCOMPARE(client.connection(), RaindClient::Failed);
        QVERIFY(waitFor([&] { return server.connections >= 2; }));
    }

    void overSizeReply_isAnErrorState()
    {
        FakeServer server([](const QByteArray &) -> QByteArray { return QByteArray(70000, 'x'); });
        RaindClient client;
        client.setMaximumReplySize(65536);
        client.setSocketPath(server.path());
        QVERIFY(waitFor([&] { return client.problemKind() == QStringLiteral("tooLarge"); }));
        QVERIFY(client.problem().contains(QStringLiteral("65536")));
    }

    void silentServer_isAnErrorStateAfterTheAnswerTimeout()
    {
        FakeServer server([](const QByteArray &) -> QByteArray { return QByteArray(); });
        RaindClient client;
        client.setAnswerTimeout(300);
        client.setSocketPath(server.path());
        QVERIFY(waitFor([&] { return client.problemKind() == QStringLiteral("noAnswer"); }));
        QCOMPARE(client.connection(), RaindClient::Failed);
    }

    void subscriberTooSlow_reconnectsAtOnce_andPermissionDeniedIsSaid()
    {
        int calls = 0;
        FakeServer server([&](const QByteArray &) -> QByteArray {
            ++calls;
            if (calls == 1)
                return snapshot()
                    + QByteArrayLiteral("{\"error\":\"io.raind.Weather.SubscriberTooSlow\",\"parameters\":"
                                        "{\"queuedBytes\":262144,\"message\":\"too slow\"}}")
                    + QByteArray(1, '\0');
            if (calls == 2)
                return QByteArrayLiteral("{\"error\":\"org.varlink.service.PermissionDenied\",\"parameters\":"
                                         "{\"message\":\"too many clients for uid 1000 (16)\"}}")
                    + QByteArray(1, '\0');
            return snapshot();
        });
        RaindClient client;
        client.setSocketPath(server.path());
        QVERIFY(waitFor([&] { return client.problemKind() == QStringLiteral("permissionDenied"); }));
        QVERIFY(client.problem().contains(QStringLiteral("too many clients")));
        QVERIFY(waitFor([&] { return client.connection() == RaindClient::Connected && calls == 3; }));
    }

    void hostileStrings_loseTheirControlCharacters_andWrongTypesAreDropped()
    {
        FakeServer server([](const QByteArray &) -> QByteArray {
            return QByteArrayLiteral(
                       "{\"parameters\":{\"event\":\"Snapshot\",\"status\":{\"units\":\"si\",\"online\":true,"
                       "\"staleAfterMinutes\":\"soon\"},\"locations\":[{\"id\":\"x\",\"name\":\"X\\u001b[31m\\u202e\"}],"
                       "\"selected\":\"x\",\"forecast\":{\"provider\":\"p\",\"fetchedAt\":1e300,\"alerts\":[{\"title\":"
                       "\"<b>Storm</b>\\u0007\\u0000\",\"severity\":\"Severe\"},\"not an alert\"],\"current\":{\"time\":\"now\","
                       "\"temperature\":12}}},\"continues\":true}")
                + QByteArray(1, '\0');
        });
        RaindClient client;
        client.setSocketPath(server.path());
        QVERIFY(waitFor([&] { return client.connection() == RaindClient::Connected; }));
        QCOMPARE(client.selectedLocation().value(QStringLiteral("name")).toString(), QStringLiteral("X[31m"));
        const QVariantList alerts = client.forecast().value(QStringLiteral("alerts")).toList();
        QCOMPARE(alerts.size(), 1);
        QCOMPARE(alerts.first().toMap().value(QStringLiteral("title")).toString(), QStringLiteral("<b>Storm</b>"));
        QVERIFY(!client.status().contains(QStringLiteral("staleAfterMinutes")));
        // A current block without a valid time is no temperature: never a wrong number.
        QVERIFY(!client.hasTemperature());
    }
};

QTEST_GUILESS_MAIN(RaindClientTest)
#include "RaindClientTest.moc"
