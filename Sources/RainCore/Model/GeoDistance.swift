import Glibc

/// Great-circle distances on a spherical Earth, good to ~0.5 %.
public enum GeoDistance {
    public static let earthRadiusKilometres = 6371.0088

    /// Haversine distance in kilometres; correct across the antimeridian and at the poles.
    public static func kilometres(
        latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double
    ) -> Double {
        let radians = Double.pi / 180
        let dLat = (latitude2 - latitude1) * radians
        let dLon = (longitude2 - longitude1) * radians
        let a =
            sin(dLat / 2) * sin(dLat / 2)
            + cos(latitude1 * radians) * cos(latitude2 * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadiusKilometres * asin(min(1, a.squareRoot()))
    }
}
