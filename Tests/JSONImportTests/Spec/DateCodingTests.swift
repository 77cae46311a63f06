import Testing

@testable import JSONImport

@Suite struct DateCodingTests {
    @Test(arguments: [
        ("2024-01-02", 1_704_153_600.0),
        ("2024-01-02T03:04:05Z", 1_704_164_645.0),
        ("2024-01-02T03:04:05", 1_704_164_645.0),
        ("2024-01-02 03:04:05z", 1_704_164_645.0),
        ("2024-01-02T03:04Z", 1_704_164_640.0),
        ("2024-01-02T03:04:05.5Z", 1_704_164_645.5),
        ("2024-01-02T03:04:05,250Z", 1_704_164_645.25),
        ("2024-01-02T04:04:05+01:00", 1_704_164_645.0),
        ("2024-01-02T04:04:05+0100", 1_704_164_645.0),
        ("2024-01-02T01:04:05-02", 1_704_164_645.0),
        ("1969-12-31T23:59:59Z", -1.0),
        ("2000-02-29T00:00:00Z", 951_782_400.0),
    ])
    func parsesISO8601(text: String, seconds: Double) {
        #expect(DateCoding.parse(text, format: .iso8601) == seconds)
        #expect(DateCoding.parse(Substring("x" + text).dropFirst(), format: .iso8601) == seconds)
    }

    @Test(arguments: [
        "", "2024", "2024-1-02", "2024-13-01", "2023-02-29", "2024-01-02T24:00:00Z", "2024-01-02T03:60Z",
        "2024-01-02T03:04:05.Z", "2024-01-02T03:04:05+1", "2024-01-02T03:04:05Zjunk", "2024-01-02X03:04",
    ])
    func rejectsMalformedISO8601(text: String) {
        #expect(DateCoding.parse(text, format: .iso8601) == nil)
    }

    @Test func formatsISO8601InUTCWithFractionOnlyWhenNonZero() {
        #expect(DateCoding.format(1_704_164_645, format: .iso8601) == "2024-01-02T03:04:05Z")
        #expect(DateCoding.format(1_704_164_645.25, format: .iso8601) == "2024-01-02T03:04:05.25Z")
        #expect(DateCoding.format(-1, format: .iso8601) == "1969-12-31T23:59:59Z")
        #expect(DateCoding.format(-0.5, format: .iso8601) == "1969-12-31T23:59:59.5Z")
    }

    @Test func iso8601RoundTripsMilliseconds() {
        for text in ["2024-05-06T07:08:09.123Z", "1999-12-31T23:59:59.999Z", "2024-02-29T12:00:00.001Z"] {
            let seconds = DateCoding.parse(text, format: .iso8601)
            #expect(seconds.map { DateCoding.format($0, format: .iso8601) } == text)
        }
    }

    @Test func readsAndWritesEpochForms() {
        #expect(DateCoding.parse("1700000000", format: .epoch) == 1_700_000_000)
        #expect(DateCoding.parse("1700000000.5", format: .epoch) == 1_700_000_000.5)
        #expect(DateCoding.parse("1700000000123", format: .epochMillis) == 1_700_000_000.123)
        #expect(DateCoding.parse("+1", format: .epoch) == nil)
        #expect(DateCoding.parse("nan", format: .epoch) == nil)
        #expect(DateCoding.format(1_700_000_000, format: .epoch) == "1700000000")
        #expect(DateCoding.format(1_700_000_000.5, format: .epoch) == "1700000000.5")
        #expect(DateCoding.format(1_700_000_000.123, format: .epochMillis) == "1700000000123")
        // To the microsecond, from whole microseconds: no rounding error of the `Double` shows.
        #expect(DateCoding.format(1.9999999, format: .epoch) == "2")
        #expect(DateCoding.format(-0.5, format: .epoch) == "-0.5")
        #expect(DateCoding.format(1_704_067_200.9999, format: .epoch) == "1704067200.9999")
        #expect(DateCoding.format(1_704_067_200.9999, format: .epochMillis) == "1704067200999.9")
        #expect(DateCoding.format(-0.000001, format: .epochMillis) == "-0.001")
    }

    @Test func readsAndWritesPatternsInUTC() {
        let format = DateFormat.pattern("yyyy-MM-dd HH:mm:ss")
        #expect(DateCoding.parse("2024-01-02 03:04:05", format: format) == 1_704_164_645)
        #expect(DateCoding.parse("2024-01-02 03:04", format: format) == nil)
        #expect(DateCoding.format(1_704_164_645, format: format) == "2024-01-02 03:04:05")
        let loose = DateFormat.pattern("d/M/yyyy'T'H.mm.ss.SSS")
        #expect(DateCoding.parse("2/1/2024T3.04.05.250", format: loose) == 1_704_164_645.25)
        #expect(DateCoding.format(1_704_164_645.25, format: loose) == "2/1/2024T3.04.05.250")
        #expect(DateCoding.parse("31/2/2024T3.04.05.250", format: loose) == nil)
    }

    /// Past six digits a pattern writes the microseconds a store keeps, then zeros.
    @Test func fractionsKeepTheirMicrosecondsLateInTheCalendar() {
        #expect(DateCoding.format(253_402_300_799.25, format: .iso8601) == "9999-12-31T23:59:59.25Z")
        let format = DateFormat.pattern("yyyy-MM-dd HH:mm:ss.SSSSSSSSS")
        // In nanoseconds, an instant past 2262 does not fit in 64 bits; in microseconds, past
        // 2255 it is more than a `Double` holds exactly.
        let late = DateCoding.parse("9999-12-31 23:59:59.250000000", format: format)
        #expect(late.map { DateCoding.format($0, format: format) } == "9999-12-31 23:59:59.250000000")
        #expect(DateCoding.format(1_704_164_645.25, format: format) == "2024-01-02 03:04:05.250000000")
        #expect(DateCoding.format(-0.5, format: format) == "1969-12-31 23:59:59.500000000")
    }

    /// A store written before dates were checked may hold an instant no calendar date names.
    @Test func instantsFarOutsideTheCalendarAreWrittenAsSeconds() {
        #expect(DateCoding.format(9.2e18, format: .iso8601) == "9.2e+18")
        #expect(DateCoding.format(-1e15, format: .pattern("yyyy-MM-dd")) == "-1000000000000000.0")
        #expect(DateCoding.format(9.2e18, format: .epoch) == "9.2e+18")
        #expect(DateCoding.isInRange(253_402_300_799.999) && !DateCoding.isInRange(253_402_300_800))
    }

    @Test func reportsUnusablePatterns() {
        #expect(DateCoding.problem(inPattern: "yyyy-MM-dd") == nil)
        #expect(
            DateCoding.problem(inPattern: "yyyy-QQ")
                == "unknown field 'Q' in date pattern 'yyyy-QQ' (use yyyy, MM, dd, HH, mm, ss, SSS or 'quoted' text)")
        #expect(DateCoding.problem(inPattern: "yy-MM") == "unsupported field 'yy' in date pattern 'yy-MM'")
    }

    @Test func calendarConversionsAgree() {
        for days in stride(from: -800_000, through: 800_000, by: 997) {
            let date = DateCoding.civil(days: days)
            #expect(DateCoding.days(year: date.year, month: date.month, day: date.day) == days)
        }
    }
}
