print("raindctl")
