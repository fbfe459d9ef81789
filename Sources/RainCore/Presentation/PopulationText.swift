/// Whole numbers for people, with thousands separated (`2,138,551`): the
/// one way raind and raindctl write populations, in errors and listings alike.
public enum PopulationText {
    public static func grouped(_ number: Int) -> String {
        var digits = String(number.magnitude)
        var groups: [String] = []
        while digits.count > 3 {
            groups.insert(String(digits.suffix(3)), at: 0)
            digits.removeLast(3)
        }
        groups.insert(digits, at: 0)
        return (number < 0 ? "-" : "") + groups.joined(separator: ",")
    }
}
