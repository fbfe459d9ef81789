/// Whole numbers for people, with thousands separated (`2,138,551`): the
/// one way raind and raindctl write populations, in errors and listings alike.
public enum PopulationText {
    public static func grouped(_ number: Int) -> String {
        // The reader's grouping (`1.505.005`); the C locale's is raind's English one.
        LocaleConventions.current.integer(number)
    }
}
