import RainCore

extension Attribution {
    /// The credit for a provider by its configured name (`WeatherProviders`).
    /// Here and not with `Attribution` itself: the table holds every
    /// provider's parser, which raindctl, reading the credit off the wire,
    /// does not link.
    public init(provider: String) {
        self =
            WeatherProviders.provider(named: provider)?.attribution
            ?? Attribution(text: "Weather data by \(provider)", url: "")
    }
}
