/// What a command accepts on the command line: its name, positional arguments and options.
///
/// One signature drives both parsing and help, so the two cannot drift apart.
struct CommandSignature: Sendable {
    /// The word that selects the command: `jsonimport validate`.
    let name: String
    /// One sentence for the COMMANDS table and the OVERVIEW section.
    let overview: String
    /// Paragraphs printed after the overview in the command's help.
    let discussion: [String]
    let arguments: [ArgumentSpec]
    /// The command's own options; global options are added by the tool.
    let options: [OptionSpec]

    init(
        name: String, overview: String, discussion: [String] = [],
        arguments: [ArgumentSpec] = [], options: [OptionSpec] = []
    ) {
        self.name = name
        self.overview = overview
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
    }
}
