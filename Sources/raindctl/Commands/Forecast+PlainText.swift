import RainCore

extension Forecast {
    /// The forecast with every text from the daemon (and so from a provider)
    /// stripped of control characters, for views printed with raindctl's own
    /// colour codes.
    func withPlainText() -> Forecast {
        func plain(_ text: String) -> String { text.strippingControlCharacters() }
        var copy = self
        copy.provider = plain(provider)
        copy.attribution = Attribution(text: plain(attribution.text), url: plain(attribution.url))
        copy.failover = failover.map {
            ProviderFailover(
                provider: plain($0.provider), reason: plain($0.reason), wording: $0.wording?.mapping(plain))
        }
        copy.choice = choice.map {
            var choice = $0
            choice.place = plain(choice.place)
            choice.provider = plain(choice.provider)
            choice.other = plain(choice.other)
            choice.station = plain(choice.station)
            return choice
        }
        if let station = correction?.station { copy.correction?.station = plain(station) }
        if var current = copy.current {
            current.summary = plain(current.summary)
            current.icon = plain(current.icon)
            copy.current = current
        }
        for index in copy.hourly.indices {
            copy.hourly[index].summary = plain(copy.hourly[index].summary)
            copy.hourly[index].icon = plain(copy.hourly[index].icon)
        }
        for index in copy.daily.indices {
            copy.daily[index].summary = plain(copy.daily[index].summary)
            copy.daily[index].icon = plain(copy.daily[index].icon)
        }
        for index in copy.alerts.indices {
            copy.alerts[index].title = plain(copy.alerts[index].title)
            copy.alerts[index].description = plain(copy.alerts[index].description)
            copy.alerts[index].regions = copy.alerts[index].regions.map(plain)
            copy.alerts[index].uri = plain(copy.alerts[index].uri)
            copy.alerts[index].event = copy.alerts[index].event.map(plain)
            copy.alerts[index].instruction = copy.alerts[index].instruction.map(plain)
            copy.alerts[index].source = copy.alerts[index].source.map(plain)
            copy.alerts[index].id = copy.alerts[index].id.map(plain)
            copy.alerts[index].references = copy.alerts[index].references?.map(plain)
        }
        if var service = copy.alertService {
            service.source = service.source.map(plain)
            service.problem = service.problem.map(plain)
            service.wording = service.wording?.mapping(plain)
            service.attribution = service.attribution.map { Attribution(text: plain($0.text), url: plain($0.url)) }
            copy.alertService = service
        }
        return copy
    }
}
