// `GetStatus`'s reply and every type in it, read field by field
// (`WireReadable`): what `raindctl status` reads. Each reader names every
// stored property its type encodes; `WireReadingTests` fails when one does
// not.

extension GetStatusCall.Reply: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        self.init(status: try wire.value("status"))
    }
}

extension WeatherStatus: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        version = try wire.string("version")
        uptimeSeconds = try wire.double("uptimeSeconds")
        provider = try wire.string("provider")
        online = try wire.bool("online")
        units = try wire.wireEnum("units")
        refreshMinutes = try wire.int("refreshMinutes")
        backgroundRefreshMinutes = try wire.optionalInt("backgroundRefreshMinutes")
        backgroundStretched = try wire.optionalBool("backgroundStretched")
        staleAfterMinutes = try wire.optionalInt("staleAfterMinutes")
        locations = try wire.int("locations")
        selected = try wire.optionalValue("selected")
        lastRefresh = try wire.optionalDouble("lastRefresh")
        lastError = try wire.optionalValue("lastError")
        nextRefresh = try wire.optionalDouble("nextRefresh")
        requestsToday = try wire.int("requestsToday")
        callsToday = try wire.double("callsToday")
        dailyBudget = try wire.double("dailyBudget")
        requestsThisMonth = try wire.int("requestsThisMonth")
        callsThisMonth = try wire.double("callsThisMonth")
        monthlyBudget = try wire.optionalDouble("monthlyBudget")
        subscribers = try wire.int("subscribers")
        nowcast = try wire.optionalValue("nowcast")
        providers = try wire.optionalValues("providers")
        alertSources = try wire.optionalValues("alertSources")
        placeAlertServices = try wire.optionalValues("placeAlertServices")
        totalAddsUp = try wire.optionalBool("totalAddsUp")
        observationSources = try wire.optionalValues("observationSources")
        placeObservations = try wire.optionalValues("placeObservations")
    }
}

extension Location: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        id = try wire.id("id")
        name = try wire.string("name")
        region = try wire.string("region")
        country = try wire.string("country")
        countryCode = try wire.string("countryCode")
        latitude = try wire.double("latitude")
        longitude = try wire.double("longitude")
        timeZone = try wire.string("timeZone")
        source = try wire.value("source")
        follows = try wire.optionalBool("follows")
    }
}

extension LocationSource: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        self = try LocationSource(try SourceWire(wire: wire))
    }
}

extension SourceWire: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        kind = try wire.wireEnum("kind")
        id = try wire.optionalString("id")
        provider = try wire.optionalString("provider")
        approximate = try wire.optionalBool("approximate")
    }
}

extension RefreshFailure: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        error = try wire.wireEnum("error")
        message = try wire.string("message")
        httpStatus = try wire.optionalInt("httpStatus")
        retryAfter = try wire.optionalDouble("retryAfter")
        time = try wire.optionalDouble("time")
        wording = try wire.optionalValue("wording")
    }
}

extension FailureWording: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        kind = try wire.string("kind")
        parameters = try wire.stringMap("parameters")
    }
}

extension NowcastStatus: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        enabled = try wire.bool("enabled")
        active = try wire.bool("active")
        intervalMinutes = try wire.int("intervalMinutes")
        requestsPerDay = try wire.double("requestsPerDay")
        callsPerDay = try wire.double("callsPerDay")
    }
}

extension ProviderStatus: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        name = try wire.string("name")
        places = try wire.ids("places")
        available = try wire.bool("available")
        failures = try wire.int("failures")
        backoffUntil = try wire.optionalDouble("backoffUntil")
        lastSuccess = try wire.optionalDouble("lastSuccess")
        lastError = try wire.optionalValue("lastError")
        requestsToday = try wire.int("requestsToday")
        callsToday = try wire.double("callsToday")
        dailyBudget = try wire.double("dailyBudget")
        requestsThisMonth = try wire.int("requestsThisMonth")
        callsThisMonth = try wire.double("callsThisMonth")
        monthlyBudget = try wire.optionalDouble("monthlyBudget")
        chosen = try wire.optionalValues("chosen")
    }
}

extension ProviderChoice: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        place = try wire.string("place")
        provider = try wire.string("provider")
        error = try wire.double("error")
        other = try wire.string("other")
        otherError = try wire.double("otherError")
        hours = try wire.int("hours")
        station = try wire.string("station")
    }
}

extension AlertSourceStatus: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        name = try wire.string("name")
        places = try wire.ids("places")
        pollingSeconds = try wire.double("pollingSeconds")
        requestsPerDay = try wire.double("requestsPerDay")
        requestsToday = try wire.int("requestsToday")
        callsToday = try wire.double("callsToday")
        requestsThisMonth = try wire.int("requestsThisMonth")
        callsThisMonth = try wire.double("callsThisMonth")
        unchangedToday = try wire.int("unchangedToday")
        documentsToday = try wire.int("documentsToday")
        dailyBudget = try wire.optionalDouble("dailyBudget")
        failures = try wire.optionalInt("failures")
        backoffUntil = try wire.optionalDouble("backoffUntil")
        paces = try wire.optionalValues("paces")
    }
}

extension AlertPace: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        place = try wire.id("place")
        pollingSeconds = try wire.double("pollingSeconds")
        fast = try wire.bool("fast")
        reason = try wire.wireEnum("reason")
        at = try wire.optionalDouble("at")
        worstDelaySeconds = try wire.double("worstDelaySeconds")
    }
}

extension PlaceAlertService: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        id = try wire.id("id")
        service = try wire.optionalValue("service")
    }
}

extension AlertService: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        source = try wire.optionalString("source")
        attribution = try wire.optionalValue("attribution")
        checkedAt = try wire.optionalDouble("checkedAt")
        problem = try wire.optionalString("problem")
        wording = try wire.optionalValue("wording")
        unplaced = try wire.optionalInt("unplaced")
        unread = try wire.optionalInt("unread")
    }
}

extension Attribution: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        text = try wire.string("text")
        url = try wire.string("url")
    }
}

extension ObservationSourceStatus: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        name = try wire.string("name")
        stations = try wire.strings("stations")
        places = try wire.ids("places")
        pollingSeconds = try wire.double("pollingSeconds")
        requestsPerDay = try wire.double("requestsPerDay")
        requestsToday = try wire.int("requestsToday")
        callsToday = try wire.double("callsToday")
        requestsThisMonth = try wire.int("requestsThisMonth")
        callsThisMonth = try wire.double("callsThisMonth")
        unchangedToday = try wire.int("unchangedToday")
        dailyBudget = try wire.double("dailyBudget")
        failures = try wire.int("failures")
        backoffUntil = try wire.optionalDouble("backoffUntil")
    }
}

extension PlaceObservation: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        id = try wire.id("id")
        source = try wire.optionalString("source")
        station = try wire.optionalValue("station")
        distanceMetres = try wire.optionalDouble("distanceMetres")
        heightDifferenceMetres = try wire.optionalDouble("heightDifferenceMetres")
        observation = try wire.optionalValue("observation")
        problem = try wire.optionalString("problem")
        attribution = try wire.optionalValue("attribution")
    }
}

extension ObservationStation: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        id = try wire.string("id")
        name = try wire.string("name")
        latitude = try wire.double("latitude")
        longitude = try wire.double("longitude")
        heightMetres = try wire.optionalDouble("heightMetres")
    }
}

extension Observation: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        source = try wire.string("source")
        station = try wire.value("station")
        time = try wire.double("time")
        temperature = try wire.optionalDouble("temperature")
        dewPoint = try wire.optionalDouble("dewPoint")
        windSpeed = try wire.optionalDouble("windSpeed")
        windBearing = try wire.optionalDouble("windBearing")
        windGust = try wire.optionalDouble("windGust")
        visibility = try wire.optionalDouble("visibility")
        weather = try wire.values("weather")
        precipitation = try wire.optionalDouble("precipitation")
        precipitationHours = try wire.optionalDouble("precipitationHours")
    }
}

extension ObservedWeather: WireReadable {
    public init(wire: WireFields) throws(WireDecodingError) {
        kind = try wire.wireEnum("kind")
        intensity = try wire.optionalWireEnum("intensity")
        showers = try wire.bool("showers")
    }
}
