/// IDL `PlaceAlertService`: a saved place and its official alert service,
/// in `Status`, so `raindctl status` needs no GetForecast per place.
public struct PlaceAlertService: Codable, Sendable, Equatable {
    public var id: LocationID
    /// As GetForecast's `forecast.alertService`: nil for a place with no forecast yet.
    public var service: AlertService?

    public init(id: LocationID, service: AlertService?) {
        self.id = id
        self.service = service
    }
}
