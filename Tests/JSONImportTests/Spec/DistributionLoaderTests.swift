import Testing

@testable import JSONImport

/// Organisations, their members, the members' projects and addresses, and shared tags: what
/// a multi-tenant API sends, distributed by organisation (SPEC 6).
let tenantYAML = """
    version: 1
    defaults:
      keyStyle: snake_case
    entities:
      Org:
        primaryKey: id
        distribution: { key: id }
        attributes:
          id: int
          name: string
        relationships:
          members: { to: Member, kind: many, inverse: org }
      Member:
        primaryKey: id
        distribution: { key: orgId }
        attributes:
          orgId: int
          id: int
          login: string
        relationships:
          org: { to: Org, kind: one }
          address: { to: Address, kind: one, onDelete: cascade }
          projects: { to: Project, kind: many, onDelete: cascade }
          friends: { to: Member, kind: many, key: friend_ids, by: id }
      Address:
        attributes:
          city: string
      Project:
        primaryKey: id
        attributes:
          id: int
          title: string
        relationships:
          owner: { to: Member, kind: one, inverse: projects }
          tags: { to: Tag, kind: many }
      Tag:
        primaryKey: name
        distribution: reference
        cleanup: orphans
        attributes:
          name: string
    """

@Suite struct DistributionLoaderTests {
    @Test func distributedEntitiesPutTheirTenantFirstInTheirKeys() throws {
        let spec = try MappingSpec.load(yaml: tenantYAML, file: "m.yml")
        #expect(spec.entities.map(\.distribution) == [.key("id"), .key("orgId"), .key("orgId"), .key("orgId"), .reference])
        #expect(spec[entity: "Org"].primaryKey == ["id"])
        #expect(spec[entity: "Member"].primaryKey == ["orgId", "id"])
        #expect(spec[entity: "Member"].referenceKey == ["id"])
        #expect(spec[entity: "Project"].primaryKey == ["orgId", "id"])
        #expect(spec[entity: "Tag"].primaryKey == ["name"])
    }

    @Test func entitiesLinkedToADistributedOneTakeItsTenantAttribute() throws {
        let spec = try MappingSpec.load(yaml: tenantYAML, file: "m.yml")
        let project = try #require(spec[entity: "Project"].attribute(named: "orgId"))
        #expect(project.type == .int)
        #expect(project.key.segments == ["org_id"])
        #expect(spec[entity: "Address"].attribute(named: "orgId") != nil)
        #expect(spec[entity: "Address"].primaryKey.isEmpty)
        #expect(spec[entity: "Tag"].attribute(named: "orgId") == nil)
    }

    @Test func aDistributionNamesATenantAttributeOfAUsableType() {
        #expect(loadErrors(userMapping("distribution: { key: orgid }", "attributes:", "  orgId: int")).isEmpty == false)
        #expect(loadErrors(userMapping("distribution: { key: tenant }")) == [
            "m.yml:6:26: error: distribution key 'tenant' names no attribute of 'User'"
        ])
        #expect(loadErrors(userMapping("distribution: { key: id }")).isEmpty)
        #expect(loadErrors(userMapping("distribution: 5")) == [
            "m.yml:6:19: error: 'distribution' is 'reference' or '{ key: ATTRIBUTE }', found number 5"
        ])
        #expect(loadErrors(userMapping("distribution: { column: id }")) == [
            "m.yml:6:19: error: 'distribution' of 'User' needs 'key: ATTRIBUTE' (the tenant attribute)",
            "m.yml:6:21: error: unknown key 'column' in 'distribution' of 'User'",
        ])
    }

    @Test(arguments: [
        ("  seenAt: date", "distribution key 'seenAt' has type date; a tenant is an int, a string or a uuid"),
        ("  seenAt: \"[int]\"", "distribution key 'seenAt' has type [int]; a tenant is an int, a string or a uuid"),
    ])
    func aTenantIsAnIntAStringOrAUUID(attribute: String, message: String) {
        let yaml = """
            entities:
              User:
                primaryKey: id
                distribution: { key: seenAt }
                attributes:
                  id: int
                \(attribute)
            """
        #expect(loadErrors(yaml) == ["m.yml:4:26: error: \(message)"])
    }

    @Test func aTenantIsExportedAndNeverUnique() {
        let yaml = """
            entities:
              User:
                primaryKey: id
                distribution: { key: org }
                attributes:
                  id: int
                  org: { type: string, export: false }
                  login: { type: string, unique: true }
            """
        #expect(loadErrors(yaml) == [
            "m.yml:7:36: error: distribution key 'org' cannot be 'export: false': it is part of every key of 'User'"
        ])
        #expect(loadErrors(yaml.replacingOccurrences(of: ", export: false", with: "")) == [
            "m.yml:8:7: error: 'unique' attribute 'login' of distributed entity 'User': a distributed table keeps only unique values that hold the tenant; use 'index: true'"
        ])
    }

    @Test func aReferenceEntityCannotLinkIntoATenant() {
        let yaml = tenantYAML + "\n    relationships:\n      projects: { to: Project, kind: many, inverse: tags }\n"
        #expect(loadErrors(yaml) == [
            "m.yml:43:7: error: reference entity 'Tag' cannot link to distributed entity 'Project' (relationship 'projects'): rows shared by every tenant cannot point into one tenant's rows; declare the relationship on 'Project' only"
        ])
    }

    @Test func linkedEntitiesShareOneTenantTypeAndInheritOneName() {
        let types = """
            entities:
              Org:
                primaryKey: id
                distribution: { key: id }
                attributes:
                  id: string
                relationships:
                  members: { to: Member, kind: many }
              Member:
                primaryKey: id
                distribution: { key: orgId }
                attributes:
                  orgId: int
                  id: int
            """
        #expect(loadErrors(types) == [
            "m.yml:11:26: error: entity 'Member' has tenant 'orgId' of type int but links to 'Org', distributed like 'Org' (tenant 'id', string): linked entities share one tenant type"
        ])
        let names = """
            entities:
              Org:
                primaryKey: id
                distribution: { key: id }
                attributes:
                  id: int
                relationships:
                  notes: { to: Note, kind: many }
              Member:
                primaryKey: id
                distribution: { key: orgId }
                attributes:
                  orgId: int
                  id: int
                relationships:
                  notes: { to: Note, kind: many }
              Note:
                primaryKey: id
                attributes:
                  id: int
            """
        #expect(loadErrors(names) == [
            "m.yml:17:3: error: entity 'Note' links to entities distributed like 'Org' (tenant 'id') and like 'Member' (tenant 'orgId', int); give it 'distribution: { key: … }' of its own"
        ])
        let own = names.replacingOccurrences(
            of: "  Note:\n    primaryKey: id\n    attributes:\n",
            with: "  Note:\n    primaryKey: id\n    distribution: { key: org }\n    attributes:\n      org: int\n")
        #expect(loadErrors(own).isEmpty)
    }

    @Test func anInheritedTenantAttributeKeepsItsType() {
        let yaml = tenantYAML.replacingOccurrences(of: "      title: string\n", with: "      title: string\n      orgId: string\n")
        #expect(loadErrors(yaml) == [
            "m.yml:33:7: error: attribute 'orgId' of 'Project' has type string, but 'Project' takes the tenant 'orgId' (int) of 'Member', which it links to"
        ])
    }
}
