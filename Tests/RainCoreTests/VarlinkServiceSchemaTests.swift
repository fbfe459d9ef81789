import Foundation
import RainCore
import RainDaemonCore
import XCTest

/// Holds the generic Varlink names raind declares to the specification, as
/// WireSchemaTests holds `io.raind.Weather`'s to its IDL: the methods, errors
/// and parameters of `org.varlink.service` to
/// `protocol/org.varlink.service.varlink`, and the envelope keys to the
/// specification's call and reply. Each check is shown to see a misspelling.
final class VarlinkServiceSchemaTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    // MARK: org.varlink.service

    func testServiceDescription_isExactlyTheIDLFile() throws {
        let idl = try String(
            contentsOf: Self.root.appendingPathComponent("protocol/org.varlink.service.varlink"), encoding: .utf8)
        XCTAssertEqual(VarlinkServiceInterface.description, idl, "run scripts/embed-interface after editing the IDL")
    }

    func testServiceDeclarations_matchTheIDL() throws {
        XCTAssertEqual(try Self.serviceDifferences(VarlinkIDL(VarlinkServiceInterface.description)), [])
    }

    /// The comparison sees a misspelled or retyped name of every kind, and a
    /// raind addition that the IDL declares after all.
    func testServiceComparison_seesEachMisspelling() throws {
        let text = VarlinkServiceInterface.description
        let changes = [
            ("interface org.varlink.service", "interface org.varlink.services"),
            ("method GetInfo()", "method GetInfos()"),
            ("method GetInterfaceDescription(interface: string)", "method GetInterfaceDescription(name: string)"),
            ("(interface: string) -> (description: string)", "(interface: ?string) -> (description: string)"),
            ("  interfaces: []string", "  interface: []string"),
            ("  interfaces: []string", "  interfaces: string"),
            ("error MethodNotFound (method: string)", "error MethodNotFund (method: string)"),
            ("error InterfaceNotFound (interface: string)", "error InterfaceNotFound (interfaces: string)"),
            ("error MethodNotImplemented (method: string)", "error MethodNotImplemented (method: int)"),
            (
                "error InvalidParameter (parameter: string)",
                "error InvalidParameter (parameter: string, reason: string)"
            ),
            ("error ExpectedMore ()", "error ExpectedMore (more: bool)"),
            ("# Client is denied access\nerror PermissionDenied ()\n", ""),
        ]
        for (original, changed) in changes {
            XCTAssertTrue(text.contains(original), original)
            let idl = try VarlinkIDL(text.replacingOccurrences(of: original, with: changed))
            XCTAssertNotEqual(Self.serviceDifferences(idl), [], "not seen: \(original) -> \(changed)")
        }
    }

    /// What differs between the Swift declarations of `org.varlink.service` and `idl`.
    static func serviceDifferences(_ idl: VarlinkIDL) -> [String] {
        var differences: [String] = []
        if idl.name != VarlinkServiceInterface.name {
            differences.append("interface: Swift \(VarlinkServiceInterface.name), the IDL \(idl.name)")
        }
        if !idl.types.isEmpty || !idl.enums.isEmpty { differences.append("the IDL declares types; Swift none") }
        differences += WireSchemaTests.namesDiffer(
            "methods", swift: VarlinkServiceMethod.allCases.map(\.rawValue), idl: Array(idl.methods.keys))
        for method in VarlinkServiceMethod.allCases {
            guard let declared = idl.methods[method.rawValue] else { continue }
            do {
                let (parameters, reply) = try signature(method.call)
                if !WireSchemaTests.matches(parameters, declared.parameters) {
                    differences.append(
                        "parameters of \(method.rawValue): Swift \(IDLType.structure(parameters)), the IDL \(IDLType.structure(declared.parameters))"
                    )
                }
                if !WireSchemaTests.matches(reply, declared.reply) {
                    differences.append(
                        "reply of \(method.rawValue): Swift \(IDLType.structure(reply)), the IDL \(IDLType.structure(declared.reply))"
                    )
                }
            } catch {
                differences.append("\(method.rawValue): \(error)")
            }
        }
        differences += WireSchemaTests.namesDiffer(
            "errors", swift: VarlinkServiceError.allCases.map(\.rawValue), idl: Array(idl.errors.keys))
        for error in VarlinkServiceError.allCases {
            guard let declared = idl.errors[error.rawValue] else { continue }
            let type = error.parametersType
            let fields: [IDLField]
            do {
                fields = try WireSchemaTests.fields(of: type)
            } catch let failure {
                differences.append("\(error.rawValue): \(failure)")
                continue
            }
            // raind's additions are its own, beyond the standard: never one the IDL declares.
            let standard = fields.filter { !type.additions.contains($0.name) }
            if !WireSchemaTests.matches(standard, declared) {
                differences.append(
                    "error \(error.rawValue): Swift \(IDLType.structure(standard)) (without raind's additions), the IDL \(IDLType.structure(declared))"
                )
            }
            let declaredNames = Set(declared.map(\.name))
            for addition in type.additions.sorted() {
                if declaredNames.contains(addition) {
                    differences.append("error \(error.rawValue): \(addition) is in the IDL, not raind's addition")
                }
                if !fields.contains(where: { $0.name == addition }) {
                    differences.append("error \(error.rawValue): the addition \(addition) is not a parameter")
                }
            }
        }
        return differences
    }

    static func signature<Call: VarlinkServiceCall>(_ call: Call.Type) throws -> ([IDLField], [IDLField]) {
        (try WireSchemaTests.fields(of: Call.Parameters.self), try WireSchemaTests.fields(of: Call.Reply.self))
    }

    // MARK: The envelope

    /// A call and a reply as the specification writes them (varlink.org,
    /// "Method Call"), in the IDL's syntax.
    static let specificationEnvelope = """
        type Call (method: string, parameters: ?object, oneway: ?bool, more: ?bool, upgrade: ?bool)
        type Reply (parameters: ?object, continues: ?bool, error: ?string)
        """

    /// Keys of the specification raind does not take: no interface of raind
    /// hands the connection over to another protocol.
    static let keysNotTaken: Set<String> = ["upgrade"]

    func testEnvelopeKeys_areTheSpecificationsNames() throws {
        XCTAssertEqual(try Self.envelopeDifferences(VarlinkIDL(Self.specificationEnvelope)), [])
    }

    func testEnvelopeComparison_seesAMisspelledKey() throws {
        for (original, changed) in [
            ("oneway: ?bool", "oneWay: ?bool"), ("continues:", "continue:"), ("error:", "err:"),
        ] {
            let idl = try VarlinkIDL(Self.specificationEnvelope.replacingOccurrences(of: original, with: changed))
            XCTAssertNotEqual(Self.envelopeDifferences(idl), [], "not seen: \(original) -> \(changed)")
        }
    }

    /// The framer writes and reads exactly the declared keys, so the declaration is the one in use.
    func testFramer_writesAndReadsTheDeclaredKeys() throws {
        let call = VarlinkCall(method: "a.B", parameters: JSONObject([("x", .int(1))]), more: true, oneway: true)
        XCTAssertEqual(try Self.keys(call.json), Set(VarlinkEnvelopeKey.callKeys.map(\.rawValue)))
        XCTAssertEqual(try VarlinkCall(message: call.json.serializedBytes()), call)
        let reply = VarlinkReply(parameters: .object(["x": .int(1)]), error: "a.E", continues: true)
        XCTAssertEqual(try Self.keys(reply.json), Set(VarlinkEnvelopeKey.replyKeys.map(\.rawValue)))
        XCTAssertEqual(try VarlinkReply(message: reply.json.serializedBytes()), reply)
        var framed: [UInt8] = []
        VarlinkFramer.frameReply(NoParameters(), continues: true, into: &framed)
        XCTAssertEqual(framed.last, 0)
        XCTAssertEqual(
            try Self.keys(JSON(parsing: Array(framed.dropLast()))),
            [VarlinkEnvelopeKey.parameters.rawValue, VarlinkEnvelopeKey.continues.rawValue])
    }

    static func envelopeDifferences(_ specification: VarlinkIDL) -> [String] {
        let call = (specification.types["Call"] ?? []).map(\.name).filter { !keysNotTaken.contains($0) }
        let reply = (specification.types["Reply"] ?? []).map(\.name)
        return WireSchemaTests.namesDiffer("call keys", swift: VarlinkEnvelopeKey.callKeys.map(\.rawValue), idl: call)
            + WireSchemaTests.namesDiffer("reply keys", swift: VarlinkEnvelopeKey.replyKeys.map(\.rawValue), idl: reply)
            + WireSchemaTests.namesDiffer(
                "keys", swift: VarlinkEnvelopeKey.allCases.map(\.rawValue), idl: Array(Set(call).union(reply)))
    }

    static func keys(_ value: JSON) throws -> Set<String> {
        Set(try XCTUnwrap(value.objectValue).map(\.key))
    }
}
