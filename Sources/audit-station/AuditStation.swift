import ArgumentParser
import InventoryStore

@main
struct AuditStation: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit-station",
        abstract: "Inventory audit station: scan asset tags, track the audit, export reports.",
        subcommands: [
            Assets.self, Accessories.self, Customers.self, Audit.self, Demo.self,
            Cameras.self,
            // MARK: subcommands
            Serve.self, Office.self, KioskCommand.self, Users.self, Login.self, Logout.self, Sync.self,
            Decode.self, TLS.self, Webhooks.self
        ]
    )

    @OptionGroup var global: GlobalOptions

    /// SQLite's process-wide settings come first, while no database is open yet.
    static func main() async {
        AppDatabase.prepareProcess()
        await main(nil)
    }
}
