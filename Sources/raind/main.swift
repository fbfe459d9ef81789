print("raind")
