import RainCore

/// The one field of a `GetForecast` reply `raindctl status` shows: the
/// place's alert service. Read alone, the forecast's hours and days, which
/// are most of the reply, are skipped rather than made into values ten
/// times per `status`.
struct ForecastAlertService: Decodable {
    struct Part: Decodable {
        var alertService: AlertService?
    }

    var forecast: Part?
}
