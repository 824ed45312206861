/// The release `anchor-alert --version` names. The Debian package's version starts with it
/// (image/build-deb.sh adds the date and commit of a build from git; VersionTests holds the
/// two together).
enum Version {
    static let number = "0.1.0"
    static var line: String { "anchor-alert \(number)" }
}
