import JSONImport

/// `jsonimport migrate`: shows and applies the changes between the store and the mappings.
struct MigrateCommand: Command {
    static let signature = CommandSignature(
        name: "migrate",
        overview: "Shows the changes the store needs to match the mappings, and applies them.",
        discussion: [
            "Safe changes (new entities, attributes, relationships, indexes) are applied in place. "
                + "Changes that would lose data (a removed attribute, relationship or entity, a type or key "
                + "change) are listed and nothing is applied (exit status 1) unless --allow-data-loss is given.",
            "An attribute that changes type keeps the values an import would convert to the new type "
                + "(\"12\" to 12); the others become null. A key or required attribute holding a value that "
                + "does not convert fails the migration (exit status 1) with nothing applied.",
        ],
        options: [.flag("--allow-data-loss", help: "Apply changes that drop stored data too.")])

    let allowDataLoss: Bool

    init(parsing arguments: ParsedArguments) throws(CLIError) {
        allowDataLoss = arguments.isSet("--allow-data-loss")
    }

    func run(in context: CommandContext) throws -> MigrationPlan {
        let plan = try Mapper.migrate(
            store: context.globals.storePath, to: try context.loadMappings(), allowDataLoss: allowDataLoss,
            busyTimeout: context.globals.busyTimeout)
        if plan.losesData && !allowDataLoss {
            context.output.result(Self.describe(plan, applied: false))
            throw MigrationRefused(plan: plan)
        }
        return plan
    }

    func render(_ plan: MigrationPlan, to output: Output) {
        output.result(Self.describe(plan, applied: true))
    }

    private static func describe(_ plan: MigrationPlan, applied: Bool) -> String {
        guard !plan.isEmpty else { return "The store matches the mappings.\n" }
        let lines = plan.changes.map { "  \($0.losesData ? "!" : "+") \($0.description)\n" }.joined()
        let footer = applied ? "Applied \(plan.changes.count) change\(plan.changes.count == 1 ? "" : "s").\n"
            : "Nothing applied: changes marked '!' lose data; run 'jsonimport migrate --allow-data-loss' to apply them.\n"
        return "Changes between the store and the mappings:\n" + lines + footer
    }
}
