import XCTest

@testable import RainCore

final class UnitFormatterTests: XCTestCase {
    private let us = UnitFormatter(system: .us)
    private let si = UnitFormatter(system: .si)
    private let ca = UnitFormatter(system: .ca)
    private let uk = UnitFormatter(system: .uk)

    func testTemperature_usIsFahrenheitRoundedWithBareDegreeSign() {
        XCTAssertEqual(us.temperature(22.2), "72°")
        XCTAssertEqual(us.temperature(-40), "-40°")
        XCTAssertEqual(us.temperature(0), "32°")
    }

    func testTemperature_celsiusSystemsRoundHalfAwayFromZero() {
        for formatter in [si, ca, uk] {
            XCTAssertEqual(formatter.temperature(12.5), "13°")
            XCTAssertEqual(formatter.temperature(12.49), "12°")
            XCTAssertEqual(formatter.temperature(-3.5), "-4°")
            XCTAssertEqual(formatter.temperature(-3.4), "-3°")
        }
    }

    func testTemperature_smallNegativeRoundsToZeroWithoutMinusSign() {
        XCTAssertEqual(si.temperature(-0.4), "0°")
        XCTAssertEqual(si.temperature(-0.0), "0°")
        XCTAssertEqual(si.temperature(-0.5), "-1°")
        // -17.9 °C is -0.22 °F.
        XCTAssertEqual(us.temperature(-17.9), "0°")
    }

    func testTemperature_missingValueIsDashes() {
        XCTAssertEqual(si.temperature(nil), "–")
        XCTAssertEqual(si.temperature(.nan), "–")
        XCTAssertEqual(us.temperature(.infinity), "–")
    }

    func testWindSpeed_eachSystemHasItsUnit() {
        // 2.2352 m/s is exactly 5 mph; 3.0556 m/s is 11 km/h.
        XCTAssertEqual(us.windSpeed(2.2352), "5mph")
        XCTAssertEqual(uk.windSpeed(2.2352), "5mph")
        XCTAssertEqual(si.windSpeed(3.0), "3m/s")
        XCTAssertEqual(ca.windSpeed(3.0556), "11km/h")
        XCTAssertEqual(si.windSpeed(0.4), "0m/s")
    }

    func testPrecipitationIntensity_inchesInUSMillimetresElsewhere() {
        XCTAssertEqual(us.precipitationIntensity(0.508), "0.02in/h")
        XCTAssertEqual(si.precipitationIntensity(0.44), "0.4mm/h")
        XCTAssertEqual(ca.precipitationIntensity(0), "0mm/h")
        XCTAssertEqual(uk.precipitationIntensity(2.0), "2mm/h")
    }

    func testPrecipitationAccumulation_inchesInUSMillimetresElsewhere() {
        XCTAssertEqual(us.precipitationAccumulation(25.4), "1in")
        XCTAssertEqual(us.precipitationAccumulation(3.81), "0.15in")
        XCTAssertEqual(uk.precipitationAccumulation(3.81), "3.8mm")
        XCTAssertEqual(ca.precipitationAccumulation(12), "12mm")
    }

    func testPressure_millibarsInUSHectopascalsElsewhere() {
        XCTAssertEqual(us.pressure(1013.25), "1013mb")
        XCTAssertEqual(si.pressure(1013.6), "1014hPa")
        XCTAssertEqual(uk.pressure(999.4), "999hPa")
    }

    func testVisibility_milesInUSAndUKKilometresInSIAndCA() {
        XCTAssertEqual(us.visibility(16.09344), "10mi")
        XCTAssertEqual(uk.visibility(1.609344), "1mi")
        XCTAssertEqual(si.visibility(36.08), "36km")
        XCTAssertEqual(ca.visibility(0.24), "0.2km")
    }

    func testPercent_roundsAndClampsFraction() {
        XCTAssertEqual(UnitFormatter.percent(0.3), "30%")
        XCTAssertEqual(UnitFormatter.percent(0.295), "30%")
        XCTAssertEqual(UnitFormatter.percent(0.004), "0%")
        XCTAssertEqual(UnitFormatter.percent(1.2), "100%")
        XCTAssertEqual(UnitFormatter.percent(-0.1), "0%")
        XCTAssertEqual(us.percent(nil), "–")
    }

    func testLabels_nameTheUnitOfEachSystem() {
        XCTAssertEqual(us.label(for: .temperature), "°F")
        XCTAssertEqual(uk.label(for: .windSpeed), "mph")
        XCTAssertEqual(ca.label(for: .windSpeed), "km/h")
        XCTAssertEqual(si.label(for: .windSpeed), "m/s")
        XCTAssertEqual(us.label(for: .pressure), "mb")
        XCTAssertEqual(uk.label(for: .visibility), "mi")
        XCTAssertEqual(
            UnitSystem.si.unitLabels.serialized(),
            #"{"temperature":"°C","windSpeed":"m/s","precipitationIntensity":"mm/h","#
                + #""precipitationAccumulation":"mm","pressure":"hPa","visibility":"km"}"#)
    }

    func testConversion_roundTripsThroughEveryUnit() {
        for unit in MeasurementUnit.allCases {
            let value = 12.345
            XCTAssertEqual(unit.toBase(unit.fromBase(value)), value, accuracy: 1e-9, "\(unit)")
        }
        XCTAssertEqual(MeasurementUnit.fahrenheit.toBase(212), 100, accuracy: 1e-12)
        XCTAssertEqual(MeasurementUnit.kilometresPerHour.toBase(36), 10, accuracy: 1e-12)
        XCTAssertEqual(MeasurementUnit.milesPerHour.fromBase(0.44704), 1, accuracy: 1e-12)
    }

    func testDecimalText_writesFixedPointWithoutExponent() {
        XCTAssertEqual(DecimalText.format(0.00001, fractionDigits: 4), "0")
        XCTAssertEqual(DecimalText.format(-122.42330001, fractionDigits: 4), "-122.4233")
        XCTAssertEqual(DecimalText.format(6.9, fractionDigits: 4), "6.9")
        XCTAssertEqual(DecimalText.format(1.005, fractionDigits: 2, trimmingZeros: false), "1.00")  // binary 1.00499...
        XCTAssertEqual(DecimalText.format(-0.04, fractionDigits: 1), "0")
        XCTAssertNil(DecimalText.format(.nan, fractionDigits: 1))
    }
}
