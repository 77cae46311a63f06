import Foundation
import Testing
@testable import JSONImport

/// The pieces of a fetch that need no server: headers and their variables, `Link` headers,
/// query parameters, `Retry-After`, and how since values are sent.
@Suite struct FetchPartsTests {
    @Test func headerVariablesExpandFromTheEnvironmentAndStayHidden() throws {
        let environment = ["TOKEN": "s3cret", "_A1": "x"]
        let header = try HTTPHeader(expanding: "Authorization:  Bearer $TOKEN ", environment: environment)
        #expect((header.name, header.value) == ("Authorization", "Bearer s3cret"))
        #expect(header.description == "Authorization: Bearer $TOKEN")
        #expect(try HTTPHeader(expanding: "X: ${_A1}y$_A1-$1 $ $", environment: environment).value == "xyx-$1 $ $")
        #expect(try HTTPHeader(expanding: "X:", environment: environment).value == "")
    }

    @Test(arguments: [
        ("Authorization Bearer", "invalid header 'Authorization Bearer': expected 'Name: value'"),
        ("Bad Name: v", "invalid header name 'Bad Name' in 'Bad Name: v'"),
        (": v", "invalid header name '' in ': v'"),
        ("X: $MISSING", "environment variable 'MISSING' in header 'X' is not set"),
        ("X: ${TOKEN", "header 'X': '${' must be followed by a variable name and '}'"),
        ("X: ${9}", "header 'X': '${' must be followed by a variable name and '}'"),
        ("X: a\u{7}b", "the value of header 'X' holds a control character"),
        ("X: $BROKEN", "the value of header 'X' holds a control character once its variables are expanded"),
    ])
    func malformedHeadersAreUsageErrorsThatNeverShowExpandedValues(_ line: String, _ message: String) {
        let error = #expect(throws: ImportError.self) {
            try HTTPHeader(expanding: line, environment: ["TOKEN": "s3cret", "BROKEN": "s3cret\r\nX-Evil: 1"])
        }
        #expect(error?.code == .usage)
        #expect(error?.message == message)
    }

    @Test func linkHeadersGiveTheTargetOfEachRelation() {
        let header = LinkHeader(
            #"<https://api.example.com/users?page=2&per_page=100>; rel="next", <https://api.example.com/users?page=9>; rel="last","#
                + #" </users?a=1,2>; title="a, b; c"; rel="prev first", <https://x/y>; REL=Next"#)
        #expect(header.target(of: "next") == "https://api.example.com/users?page=2&per_page=100")
        #expect(header.target(of: "last") == "https://api.example.com/users?page=9")
        #expect(header.target(of: "first") == "/users?a=1,2")
        #expect(header.links.map(\.relations) == [["next"], ["last"], ["prev", "first"], ["next"]])
        #expect(LinkHeader("").target(of: "next") == nil)
        #expect(LinkHeader("<broken").links.isEmpty)
    }

    @Test func queryParametersArePercentEncodedExactlyAndReplaceTheirNamesake() throws {
        let url = try #require(URL(string: "https://api.example.com/v1/users?q=a%20b&cursor=old&per_page=5"))
        #expect(FetchFeed.url(url, setting: "cursor", to: "Zm9v+/=é ~").absoluteString
            == "https://api.example.com/v1/users?q=a%20b&per_page=5&cursor=Zm9v%2B%2F%3D%C3%A9%20~")
        let bare = try #require(URL(string: "http://127.0.0.1:8080/users"))
        #expect(FetchFeed.url(bare, setting: "page", to: "2").absoluteString == "http://127.0.0.1:8080/users?page=2")
    }

    @Test func retryAfterIsSecondsOrAnHTTPDate() {
        let now = Date(timeIntervalSince1970: 1_445_412_400)  // Wed, 21 Oct 2015 07:26:40 GMT
        #expect(RetryAfter.seconds("120", now: now) == 120)
        #expect(RetryAfter.seconds("Wed, 21 Oct 2015 07:28:00 GMT", now: now) == 80)
        #expect(RetryAfter.seconds("Wed, 21 Oct 2015 07:00:00 GMT", now: now) == 0)
        #expect(RetryAfter.seconds("soon", now: now) == nil)
        #expect(RetryAfter.seconds(nil, now: now) == nil)
    }

    @Test func sinceValuesAreSentAsISODatesAndDigits() {
        #expect(FetchFeed.parameterText(.real(1_709_287_200.25), as: .date) == "2024-03-01T10:00:00.25Z")
        #expect(FetchFeed.parameterText(.real(12), as: .double) == "12")
        #expect(FetchFeed.parameterText(.real(9.5), as: .double) == "9.5")
        #expect(FetchFeed.parameterText(.integer(-4), as: .int) == "-4")
        #expect(FetchFeed.parameterText(.text("10.50"), as: .decimal) == "10.50")
        #expect(FetchFeed.isLess(.text("9.9"), .text("10.5"), as: .decimal))
        #expect(!FetchFeed.isLess(.text("b"), .text("a"), as: .string))
    }
}
