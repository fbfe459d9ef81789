/// raind's version, shown by `--version`, GetStatus and the User-Agent.
public enum RaindVersion {
    public static let string = "0.1.0"
    public static let projectURL = "https://github.com/raind/raind"
}
