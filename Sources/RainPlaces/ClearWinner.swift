import Glibc

/// The one rule that decides whether a name means one place or several, for
/// the embedded data and for the online geocoder alike.
///
/// The measure is evidence in units of log10(population): a place ten times
/// as populous has 1 more. The embedded data's scores (`PlaceMatch.score`)
/// are in these units, with penalties for weaker kinds of match (an other
/// name 0.3, each edit of a near spelling 2.5); an online result without a
/// population gets a nominal one from its feature code
/// (`OnlinePlace.evidence`). The best is the one meant when its evidence
/// exceeds the runner-up's by `log10(ratio)`: it is at least 15 times as
/// populous, other things equal ("Paris" is Paris, France, 86 times Paris,
/// Texas; "London" is London, England, 21 times London, Ontario; "Portland"
/// is ambiguous: Oregon is only ten times Maine).
public enum ClearWinner {
    /// How many times as populous the best must be than the runner-up.
    public static let ratio = 15.0
    /// `log10(ratio)`: the evidence margin the best needs.
    public static let margin = log10(ratio)

    /// Whether evidence `best` wins clearly over `runnerUp`.
    public static func isClear(_ best: Double, over runnerUp: Double) -> Bool {
        best - runnerUp >= margin
    }
}
